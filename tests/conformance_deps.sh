#!/bin/sh
# conformance_deps.sh BUILDDIR: the conformance programs are rebuilt when a
# header they include changes. tests/conformance.sh writes their makefile;
# the dependency files the compiler writes must name the program itself
# (not the object, which has no rule of its own), or make keeps a program
# built against an old header. Builds the programs of the first conduit
# this build has (tests/conformance.sh -B), then asks make, with the
# headers pretended new (-W), whether programs that include them are out
# of date: they must be. Exits 77 when the build has no conduit.
set -u
BUILDDIR=$(cd "$1" && pwd) || exit 2
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
conduit=
for c in smp mpi; do
  if [ -x "$BUILDDIR/conduits/$c/gasnetrun_$c" ]; then conduit=$c; break; fi
done
[ -n "$conduit" ] || { echo "SKIP: no smp or mpi conduit in $BUILDDIR"; exit 77; }
sh "$SRCDIR/tests/conformance.sh" -B -b "$BUILDDIR" "$conduit" || exit 1
OUT=$BUILDDIR/conformance/$conduit
bad=0
for pair in tests/test.h:tests/testam tests/ext/ext_test.h:tests/ext/testbarrier \
  include/gasnet.h:tests/coll/testcoll; do
  header=$SRCDIR/${pair%%:*}
  prog=${pair#*:}
  if make -C "$OUT" -s -q -W "$header" "$prog" >/dev/null 2>&1; then
    echo "FAIL: $prog is not rebuilt when ${pair%%:*} changes"
    bad=1
  else
    echo "PASS: $prog depends on ${pair%%:*}"
  fi
done
exit $bad

#!/bin/sh
# check_trace_off.sh BUILDDIR SRCDIR: in a build without tracing and
# statistics, a client that uses the GASNETT_TRACE_* macros (testtrace)
# still builds against a conduit's fragment, reports both off, and neither
# it nor any library of the build holds a trace or statistics symbol: the
# macros and the library's trace points compile to nothing. Skipped (77)
# in a build that compiles either in (the conformance case trace checks it).
set -u
builddir=$1 srcdir=$2
if grep -Eq '^#define GASNET_(TRACE|STATS) 1' "$builddir/include/gasnet_config.h"; then
  echo "SKIP: this build compiles in tracing or statistics"
  exit 77
fi
fail() {
  echo "FAIL: $*"
  exit 1
}
mak=$(ls "$builddir"/conduits/*/*-seq.mak 2>/dev/null | head -n 1)
[ -n "$mak" ] || fail "no conduit fragment in $builddir/conduits"
work=$(mktemp -d "${TMPDIR:-/tmp}/trace-off.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf 'include %s\ntesttrace: %s\n\t$(GASNET_CC) $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) -o $@ $< $(GASNET_LDFLAGS) $(GASNET_LIBS)\n' \
  "$mak" "$srcdir/tests/trace/testtrace.c" >"$work/Makefile"
make -s -C "$work" testtrace >"$work/build.log" 2>&1 || fail "testtrace does not build: $(tail -n 5 "$work/build.log")"
[ "$("$work/testtrace" -features)" = "trace=0 stats=0" ] || fail "testtrace -features: $("$work/testtrace" -features)"
pattern='gasnetti?_(trace|stats)_|gasneti_events?_'
for f in "$work/testtrace" "$builddir"/.libs/libgasnet-*.a; do
  syms=$(nm "$f" 2>/dev/null | grep -E "$pattern" | grep -v gasnetti_trace_args_unused)
  [ -z "$syms" ] || fail "$(basename "$f") holds trace or statistics symbols: $(echo "$syms" | head -n 3)"
done
echo "ok   testtrace builds, reports trace=0 stats=0; no trace or statistics symbol in it or in $(ls "$builddir"/.libs/libgasnet-*.a | wc -l) libraries"

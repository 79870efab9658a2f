#!/bin/sh
# run_tsan.sh: the PAR test cases of the smp conduit under ThreadSanitizer.
#
#   sh tests/tsan/run_tsan.sh BUILDDIR
#
# BUILDDIR must be configured with --enable-sanitize=thread, e.g.
#   sh scripts/setup.sh tsan --enable-sanitize=thread
#   sh tests/tsan/run_tsan.sh _build/tsan
# The script builds the library there, then runs the smp conduit's
# conformance suite (tests/conformance.sh, which builds the test programs)
# limited to the cases whose names are PAR ones (TSAN_CASES below),
# and fails if a case fails or if any process wrote a ThreadSanitizer
# report; each report is printed at the end. Not part of `make check`.
#
# TSan sees the threads of one process only; the smp conduit's nodes are
# processes that share memory, and what travels between them is ordered by
# the shared-memory layer's own annotations (conduits/shm/shm_internal.h). No report
# needs suppressing at present; should one be known not to be a race and
# be impossible to avoid, tests/tsan/tsan.supp (TSan's suppressions format,
# one entry per report, each with a comment saying why it is no race) is
# used when it exists.
#
# Environment:
#   GASNET_TSAN_NODES=LIST   node counts of every case (default 1,2,3)
#   GASNET_TSAN_CASES=REGEX  the cases to run (default: TSAN_CASES below)
#   GASNET_TSAN_EXCLUDE=REGEX  the cases not to run (default: TSAN_EXCLUDE
#                            below; empty runs every case GASNET_TSAN_CASES names)
#   GASNET_TSAN_TIMEOUT_SCALE=N  times each case's timeout (default 4)
#   GASNET_TSAN_LOGDIR=DIR   keep the case logs and TSan reports in DIR
#                            (default: a temporary directory, kept only
#                            when something failed)
#   GASNET_EXIT_RUNS         runs per job of the collective-exit cases
#                            (default here 10; tests/exit/collective.sh)
#   TSAN_OPTIONS             added after this script's own options
set -u

# PAR programs: the core tests' -par builds and testthreads, the
# collectives' (testcollnb-par, testprogress, testimageserr, testimages-par,
# collperf-par), the extended API's (testputget-par, testbarrier-par) and
# testexit-par (exit_flush_*, which also needs testexit and sigdfl).
TSAN_CASES='_par($|_)|^threads$|progress|^imageserr_|^images_(par|uneven|team_halves|team_reverse|team_solo|barrier)|^exit_flush_'
# The full testputget-par runs take many minutes under TSan; their -quick
# forms (ext_putget_par_8, ext_putget_par_am_8) run the same code at every
# node count here.
TSAN_EXCLUDE='^ext_putget_par(_am)?$'

die() {
  echo "run_tsan: $*" >&2
  exit 2
}

[ $# -eq 1 ] || die "usage: $0 BUILDDIR"
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
builddir=$(cd "$1" 2>/dev/null && pwd) || die "no build dir '$1'"
[ -f "$builddir/Makefile" ] || die "$builddir is not configured"
grep -Eq '^SANITIZE_FLAGS = .*-fsanitize=([a-z,]*,)?thread' "$builddir/Makefile" ||
  die "$builddir was not configured with --enable-sanitize=thread"

echo "run_tsan: building in $builddir"
make -C "$builddir" -s -j2 all >"$builddir/tsan-make.log" 2>&1 ||
  { tail -30 "$builddir/tsan-make.log" >&2; die "the build failed"; }

if [ -n "${GASNET_TSAN_LOGDIR:-}" ]; then
  logdir=$GASNET_TSAN_LOGDIR
  keep=1
else
  logdir=$(mktemp -d "${TMPDIR:-/tmp}/run_tsan.XXXXXX") || die "mktemp failed"
  keep=0
fi
mkdir -p "$logdir/cases" "$logdir/tsan" || die "cannot create $logdir"
rm -f "$logdir"/tsan/report.*

supp=$srcdir/tests/tsan/tsan.supp
opts="halt_on_error=0 second_deadlock_stack=1 log_path=$logdir/tsan/report"
[ -f "$supp" ] && opts="$opts suppressions=$supp"
TSAN_OPTIONS="$opts ${TSAN_OPTIONS:-}"
GASNET_CONFORMANCE_FILTER=${GASNET_TSAN_CASES:-$TSAN_CASES}
GASNET_CONFORMANCE_EXCLUDE=${GASNET_TSAN_EXCLUDE-$TSAN_EXCLUDE}
GASNET_TEST_NODES=${GASNET_TSAN_NODES:-1,2,3}
GASNET_TEST_TIMEOUT_SCALE=${GASNET_TSAN_TIMEOUT_SCALE:-4}
GASNET_TEST_LOGDIR=$logdir/cases
GASNET_EXIT_RUNS=${GASNET_EXIT_RUNS:-10}
export TSAN_OPTIONS GASNET_CONFORMANCE_FILTER GASNET_CONFORMANCE_EXCLUDE GASNET_TEST_NODES GASNET_TEST_TIMEOUT_SCALE GASNET_TEST_LOGDIR \
  GASNET_EXIT_RUNS

echo "run_tsan: cases /$GASNET_CONFORMANCE_FILTER/${GASNET_CONFORMANCE_EXCLUDE:+ but not /$GASNET_CONFORMANCE_EXCLUDE/} at $GASNET_TEST_NODES nodes; TSAN_OPTIONS=$TSAN_OPTIONS"
sh "$srcdir/tests/conformance.sh" -b "$builddir" -l tsan smp
harness_rc=$?

# Every report, wherever it went: the log_path files, and a case's output
# in case a process wrote to stderr after all.
reports=0
for f in "$logdir"/tsan/report.* "$logdir"/cases/*; do
  [ -f "$f" ] || continue
  n=$(grep -c 'WARNING: ThreadSanitizer\|ERROR: ThreadSanitizer' "$f")
  [ "$n" -gt 0 ] || continue
  reports=$((reports + n))
  echo "=== $f: $n ThreadSanitizer report(s)"
  cat "$f"
done

status=0
if [ "$reports" -gt 0 ]; then
  echo "run_tsan: FAIL: $reports ThreadSanitizer report(s) (above)"
  status=1
else
  echo "run_tsan: no ThreadSanitizer reports"
fi
if [ "$harness_rc" -ne 0 ]; then
  echo "run_tsan: FAIL: the harness failed (exit $harness_rc)"
  status=1
fi
if [ $status -ne 0 ] || [ $keep = 1 ]; then
  echo "run_tsan: logs in $logdir"
else
  rm -rf "$logdir"
fi
exit $status

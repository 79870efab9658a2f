#!/bin/sh
# run_launch.sh BUILDDIR: how ucx jobs start. First a bad setting under
# gasnetrun_ucx (GASNET_UCX_CREDITS=0) must end the job naming the
# variable and the value. Then the ucx conduit started by Open MPI's mpirun, its
# PMIx launcher (the way a job spans hosts), instead of gasnetrun_ucx: the
# bootstrap exchange goes through PMIx. Builds the conformance programs
# (tests/conformance.sh -B, nothing to do when the suite built them) and
# runs AMs (every category, order), put/get and a collective at 1 to 3
# processes, each under tests/run_pmix.sh, which skips (77) without Open
# MPI or PMIx. Last, the default segment limit (a share of the host's
# memory per process there) must come out the same at 3 processes under
# gasnetrun_ucx and under mpirun with Open MPI's local-size variable
# removed, as another PMIx launcher leaves it: the conduit counts the
# host's processes itself. Exits 0 when all pass, 77 when skipped, else 1.
set -u
[ $# -eq 1 ] || { echo "usage: run_launch.sh BUILDDIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
sh "$src/tests/conformance.sh" -B -b "$build" ucx >/dev/null || { echo "FAIL: building the programs"; exit 1; }
progs=$build/conformance/ucx/tests
failed=0
out=$(GASNET_UCX_CREDITS=0 timeout 60 "$build/conduits/ucx/gasnetrun_ucx" -n 2 "$progs/testam" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && echo "$out" | grep -q 'GASNET_UCX_CREDITS=0 is not from 1 to 4096'; then
  echo "PASS GASNET_UCX_CREDITS=0 refused (exit $rc)"
else
  echo "FAIL GASNET_UCX_CREDITS=0: exit $rc"
  echo "$out" | tail -5 | sed 's/^/    | /'
  failed=1
fi
for n in 1 2 3; do
  for prog in testam testamorder ext/testputget coll/testcoll; do
    timeout 120 sh "$src/tests/run_pmix.sh" "$n" "$progs/$prog" >"$build/ucx_mpirun.out" 2>&1
    rc=$?
    if [ "$rc" -eq 77 ]; then
      cat "$build/ucx_mpirun.out"
      exit $((failed ? 1 : 77))
    fi
    if [ "$rc" -eq 0 ]; then
      echo "PASS $prog n=$n (mpirun)"
    else
      echo "FAIL $prog n=$n (mpirun): exit $rc"
      tail -15 "$build/ucx_mpirun.out" | sed 's/^/    | /'
      failed=1
    fi
  done
done

# The listed default of GASNET_MAX_SEGSIZE (node 0, GASNET_VERBOSEENV).
segsize_default() {
  grep -E 'ENV parameter: GASNET_MAX_SEGSIZE .*\(default\)' | head -1 | sed -E 's/.*= *([^ ]+).*/\1/'
}
ours=$(GASNET_VERBOSEENV=1 timeout 60 "$build/conduits/ucx/gasnetrun_ucx" -n 3 "$progs/testsegment" 2>&1 |
  segsize_default)
GASNET_VERBOSEENV=1 timeout 120 sh "$src/tests/run_pmix.sh" 3 -u OMPI_COMM_WORLD_LOCAL_SIZE \
  "$progs/testsegment" >"$build/ucx_mpirun.out" 2>&1
rc=$?
theirs=$(segsize_default <"$build/ucx_mpirun.out")
if [ "$rc" -eq 0 ] && [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
  echo "PASS default segment limit at 3 processes: $ours under both launchers"
else
  echo "FAIL default segment limit: '$ours' under gasnetrun_ucx, '$theirs' under mpirun (exit $rc)"
  tail -5 "$build/ucx_mpirun.out" | sed 's/^/    | /'
  failed=1
fi
exit $failed

#!/bin/sh
# check.sh: set everything up, then run the test suite in three builds: a
# normal build (every conduit found: smp, and mpi over Open MPI, the
# default mpicc, and the template, which must fail every feature cleanly),
# the mpi conduit built against MPICH (a subset, at 2 nodes), and a
# debug build under Address- and UndefinedBehaviorSanitizer (smp only, at
# 1 and 3 nodes, benchmarks excluded), which then runs a subset again with
# put/get as active messages (GASNET_SMP_PUTGET=am). The checks of the
# source tree itself (layers, conformance_deps) run in the normal build
# only.
# Ends with the line "N passed, N failed".
# It takes no arguments (the variables named below change what it runs).
set -u
if [ $# -ne 0 ]; then
  echo "usage: $0 (no arguments: it runs every build and suite; see its comments for the variables)" >&2
  exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
skipped=0
started=$(date +%s)

# The seconds since the start, on each suite's line: where CI's time goes.
elapsed() { echo "$(($(date +%s) - started)) s"; }

run_suite() { # NAME CONFIGURE-OPTIONS...
  name=$1
  shift
  echo "=== suite: $name build ${*:+($*)} (at $(elapsed))"
  if ! sh "$top/scripts/setup.sh" "$name" "$@"; then
    echo "FAIL build $name"
    failed=$((failed + 1))
    return 1
  fi
  run_checks "$name" check.log
}

run_checks() { # NAME LOG: make check in the configured build NAME, counted
  name=$1
  log="$top/_build/$name/$2"
  echo "=== $name: make check (at $(elapsed))"
  make -C "$top/_build/$name" -s -j2 check 2>&1 | tee "$log"
  totals=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$totals" ]; then
    echo "FAIL suite $name: the harness printed no totals"
    failed=$((failed + 1))
    return
  fi
  p=$(echo "$totals" | sed -E 's/^([0-9]+) passed.*/\1/')
  f=$(echo "$totals" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
  s=$(echo "$totals" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + ${s:-0}))
}

run_suite default --enable-template
# MPICH: the mpi conduit alone (--disable-smp), built with mpicc.mpich, runs
# its conformance suite (its own default transport: the TCP variant is
# Open MPI's) without the benchmarks and without the slowest variants that
# the Open MPI build covers (threaded put/get, the alternative collective
# algorithms, the misuse checks of testexterr, which fail before MPI is
# called), the flood and backlog with a one-receive pool (MPICH's own
# queue of unexpected messages), the put/get and AM suites with RMA forced
# on (MPICH's RMA waits for the target's progress) and the no-polling test,
# every exit and signal case under MPICH's launcher (the hosts line, at its
# 4 ranks in pretend hosts of 2), and the client compatibility suite, at 2
# nodes (1 node runs over Open MPI), with 5 runs per collective-exit case
# (and 5 and 10 in the compatibility suite). This build has tracing and statistics compiled in,
# so the trace case runs on the mpi conduit here (on smp in the sanitizer
# build, a debug build; the default build checks they compile out).
# GASNET_MPICH_NODES, GASNET_MPICH_FILTER (cases and
# suites of the top run) and GASNET_MPICH_EXCLUDE (cases inside the
# conformance suites) change that.
run_mpich_suite() {
  if ! command -v mpicc.mpich >/dev/null 2>&1; then
    echo "=== suite: mpich: SKIP (no mpicc.mpich; apt-get install libmpich-dev mpich)"
    skipped=$((skipped + 1))
    return
  fi
  GASNET_TEST_NODES=${GASNET_MPICH_NODES:-2}
  TESTS_FILTER=${GASNET_MPICH_FILTER:-'^(mpi_conformance_(shm|tcp|hosts|rma_shm)|mpi_rma_nopoll|mpi_flood_pool1|mpi_backlog_pool1|compat_mpi)$'}
  GASNET_CONFORMANCE_EXCLUDE=${GASNET_MPICH_EXCLUDE:-'perf|^ext_putget_par|^coll_(knomial|knomial_r5|binary|binomial|flat|put_ampath)$|^(amorder_par|amchain_par|ext_barrier_amdissem|reduce_flat|ext_errors)$'}
  GASNET_EXIT_RUNS=5
  COMPAT_EXIT_RUNS=5
  COMPAT_LATE_RUNS=10
  export GASNET_TEST_NODES TESTS_FILTER GASNET_CONFORMANCE_EXCLUDE GASNET_EXIT_RUNS
  export COMPAT_EXIT_RUNS COMPAT_LATE_RUNS
  run_suite mpich MPICC=mpicc.mpich --disable-smp --disable-ucx --enable-trace --enable-stats
  unset GASNET_TEST_NODES TESTS_FILTER GASNET_CONFORMANCE_EXCLUDE GASNET_EXIT_RUNS
  unset COMPAT_EXIT_RUNS COMPAT_LATE_RUNS
}
run_mpich_suite
# The sanitizer pass runs every test program again, at 1 and 3 nodes (3:
# not a power of two), without the benchmarks and without the mpi and ucx
# conduits (the mpi suite is the longest, and Open MPI's and UCX's own
# allocations, which they free only at MPI_Finalize / ucp_cleanup, trip
# LeakSanitizer), so that both passes fit CI's time budget on a 2-core
# machine; the collectives soak with data up to 4 MiB (coll_soak_big_smp)
# stays out too (its smaller twin, coll_soak, runs), and so do the exit and
# signal cases and the collectives' argument checks, which end their jobs
# by design (they run in the normal build). The compatibility suite's
# collective-exit loops, a race check of the exit path more than of memory,
# run 5 and 10 times here instead of 50 and 60. The node counts replace
# the suites' own lists too (GASNET_CONFORMANCE_NODES): the coalescing
# suite runs at 1 and 3 nodes here, at 2, 3 and 4 in the normal build.
GASNET_TEST_NODES=${GASNET_SANITIZE_NODES:-1,3}
GASNET_CONFORMANCE_NODES=$GASNET_TEST_NODES
GASNET_CONFORMANCE_EXCLUDE=${GASNET_SANITIZE_EXCLUDE:-perf|soak_big|^(exit|collerr|imageserr)_}
TESTS_EXCLUDE='^(layers|conformance_deps)$'
COMPAT_EXIT_RUNS=5
COMPAT_LATE_RUNS=10
export GASNET_TEST_NODES GASNET_CONFORMANCE_NODES GASNET_CONFORMANCE_EXCLUDE TESTS_EXCLUDE
export COMPAT_EXIT_RUNS COMPAT_LATE_RUNS
if run_suite sanitize --enable-debug --enable-sanitize=address,undefined --disable-mpi --disable-ucx; then
  # The same build with every put and get of the job as active messages,
  # the only data path the mpi conduit has (which this pass does not run):
  # the programs that use put/get and have no -am twin among the cases
  # (testcoll's checks, testbarrier's stress phase with and without a
  # polling thread, testexterr's bounds checks), and the put collectives
  # with many outstanding and with images. About 30 s on 2 cores.
  # GASNET_SANITIZE_AM_FILTER changes the cases.
  echo "=== suite: sanitize build, GASNET_SMP_PUTGET=am (at $(elapsed))"
  TESTS_FILTER='^smp_conformance$'
  GASNET_CONFORMANCE_FILTER=${GASNET_SANITIZE_AM_FILTER:-'^(ext_barrier|ext_barrier_par_smp|ext_errors|coll_(broadcast|scatter|gather|gather_all|exchange)|collnb_put|images_par_put)$'}
  GASNET_SMP_PUTGET=am
  export TESTS_FILTER GASNET_CONFORMANCE_FILTER GASNET_SMP_PUTGET
  run_checks sanitize check-am.log
  unset TESTS_FILTER GASNET_CONFORMANCE_FILTER GASNET_SMP_PUTGET
fi

echo "=== all suites (in $(elapsed))"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]

#!/bin/sh
# perf_tables.sh BUILDDIR [NODELIST] [LAUNCHER]: the extended API benchmark
# tables. For each node count (default 2,4,8): putgetperf on the conduit's
# default path and on the AM path (-am), and barrierperf for each barrier
# implementation. LAUNCHER defaults to BUILDDIR/conduits/smp/gasnetrun_smp
# and gets "-n N" appended.
set -u
builddir=${1:?usage: perf_tables.sh BUILDDIR [NODELIST] [LAUNCHER]}
nodelist=${2:-2,4,8}
launcher=${3:-$builddir/conduits/smp/gasnetrun_smp}
barriers=${PERF_BARRIERS:-AMDISSEM AMCENTRAL SMP}
for n in $(echo "$nodelist" | tr ',' ' '); do
  for path in "" -am; do
    echo
    $launcher -n "$n" "$builddir/tests/perf/putgetperf" $path ${PUTGETPERF_ARGS:-}
  done
done
echo
echo "barrierperf: microseconds per barrier (slowest node, median of repetitions)"
"$builddir/tests/perf/barrierperf" -h
for n in $(echo "$nodelist" | tr ',' ' '); do
  for b in $barriers; do
    $launcher -n "$n" "$builddir/tests/perf/barrierperf" -barrier "$b" ${BARRIERPERF_ARGS:-}
  done
done

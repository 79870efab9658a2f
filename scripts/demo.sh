#!/bin/sh
# demo.sh: set everything up, then run the demo job on the smp conduit with
# 4 processes: the collectives benchmark (every operation, the selector's
# algorithm, 8 B to 1 MiB). Arguments are passed to it (e.g. -c for CSV);
# DEMO=amperf runs the active message benchmark instead.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/scripts/setup.sh" default
build="$top/_build/default"
demo=${DEMO:-collperf}
# The benchmarks are built for each conduit by the conformance suite's build.
sh "$top/tests/conformance.sh" -B -b "$build" smp >/dev/null
echo "demo: $demo on the smp conduit, 4 processes"
exec timeout 900 "$build/conduits/smp/gasnetrun_smp" -n 4 "$build/conformance/smp/tests/perf/$demo" "$@"

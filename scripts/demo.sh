#!/bin/sh
# demo.sh: set everything up, then run the demo job on the smp conduit with
# 4 processes: the active message benchmark.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/scripts/setup.sh" default
build="$top/_build/default"
make -C "$build" -s tests/perf/amperf >/dev/null
echo "demo: AM benchmark on the smp conduit, 4 processes"
exec timeout 600 "$build/conduits/smp/gasnetrun_smp" -n 4 "$build/tests/perf/amperf" "$@"

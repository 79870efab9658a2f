#!/bin/sh
# run_pmix.sh N [-u VAR] PROGRAM [ARGS...]: run PROGRAM as N processes
# under Open MPI's mpirun, a PMIx launcher, for the PMIx backend of the
# bootstrap exchange (src/gasnet_bootstrap_pmix.c). -u VAR removes VAR
# from every process's environment (e.g. OMPI_COMM_WORLD_LOCAL_SIZE, which
# another PMIx launcher would not set). Skips (exit 77) when there is no
# Open MPI mpirun or PROGRAM was built without PMIx; otherwise exits with
# mpirun's code.
set -u
[ $# -ge 2 ] || { echo "usage: run_pmix.sh N [-u VAR] PROGRAM [ARGS...]" >&2; exit 2; }
n=$1
shift
unset_var=
if [ "$1" = -u ]; then
  [ $# -ge 3 ] || { echo "usage: run_pmix.sh N [-u VAR] PROGRAM [ARGS...]" >&2; exit 2; }
  unset_var=$2
  shift 2
fi
if ! nm "$1" 2>/dev/null | grep -q 'U PMIx_Init'; then
  echo "run_pmix.sh: $1 was built without PMIx (configure found no libpmix): skipped"
  exit 77
fi
mpirun=
for m in mpirun.openmpi mpirun; do
  if command -v "$m" >/dev/null 2>&1 && "$m" --version 2>&1 | grep -q "Open MPI"; then
    mpirun=$m
    break
  fi
done
if [ -z "$mpirun" ]; then
  echo "run_pmix.sh: no Open MPI mpirun to start a PMIx job: skipped"
  exit 77
fi
extra=
[ "$(id -u)" = 0 ] && extra="--allow-run-as-root"
# Under AddressSanitizer (the sanitizer build): libpmix's own leftovers are
# not reported (tests/lsan_pmix.supp); anything of ours still is.
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(cd "$(dirname "$0")" && pwd)/lsan_pmix.supp"
export LSAN_OPTIONS
[ -z "$unset_var" ] || set -- env -u "$unset_var" "$@"
exec "$mpirun" $extra --oversubscribe -x LSAN_OPTIONS -np "$n" "$@"

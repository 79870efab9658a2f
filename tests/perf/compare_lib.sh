# compare_lib.sh: what the benchmark-against-MPI scripts (compare_mpi.sh,
# compare_am_mpi.sh) share; sourced, not run. The caller sets $limit (the
# time limit of a job, seconds) and $tmp (its scratch directory).
# shellcheck shell=sh disable=SC2034,SC2154 # variables set for, and by, the caller

# compare_mpirun_setup GASNETRUN_MPI NODES: MPIRUN (mpirun as gasnetrun_mpi
# runs it, or $GASNET_MPIRUN), mpirun_opts (what this machine needs: root,
# more processes than cores), and the transports as tests/mpi/mpi_lib.sh
# names them, SHM_ARGS and TCP_ARGS.
compare_mpirun_setup() {
  # shellcheck disable=SC2016 # a literal ${ in the pattern
  MPIRUN=$(sed -n 's/^MPIRUN=\${GASNET_MPIRUN:-\(.*\)}$/\1/p' "$1")
  MPIRUN=${GASNET_MPIRUN:-$MPIRUN}
  mpirun_opts=
  [ "$(id -u)" = 0 ] && mpirun_opts="--allow-run-as-root"
  cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
  [ "$2" -gt "$cores" ] && mpirun_opts="$mpirun_opts --oversubscribe"
  SHM_ARGS="--mca btl self,vader"
  TCP_ARGS="--mca btl self,tcp --mca btl_tcp_if_include lo"
}

# compare_job SCRIPT NAME ROUND SKIP COMMAND...: runs one job under $limit;
# keeps its CSV rows but the header (and those whose first field matches
# the regex SKIP, unless it is empty) as NAME,ROW in $tmp/all. A failed or
# timed-out job ends the script (exit 1), naming it and showing its stderr.
compare_job() {
  script=$1 name=$2 round=$3 skip=$4
  shift 4
  timeout -k 5 "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    [ $rc -eq 124 ] && echo "$script: timed out after $limit s:" >&2
    echo "$script: failed ($name, round $round, exit $rc): $*" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  awk -F, -v n="$name" -v skip="$skip" 'NR > 1 && (skip == "" || $1 !~ skip) { print n "," $0 }' \
    "$tmp/out" >>"$tmp/all"
}

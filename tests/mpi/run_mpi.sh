#!/bin/sh
# run_mpi.sh: run one program on the mpi conduit under every transport and
# node count, and check how each job ends.
#
# Usage: run_mpi.sh BUILDDIR NODELIST EXPECT [TRANSPORTS=LIST] [VAR=VALUE...] PROGRAM [ARGS...]
#
#   NODELIST   comma list of node counts (GASNET_TEST_NODES overrides it)
#   EXPECT     the job's exit code: a number or !0
#   TRANSPORTS=LIST  a comma list replacing GASNET_MPI_TRANSPORTS
#   VAR=VALUE  environment for the job; LAUNCH=mpirun runs plain
#              `mpirun -np N` (with only the options this machine needs)
#              instead of gasnetrun_mpi; MATCH=REGEX requires the job's
#              output (stdout and stderr) to match REGEX (grep -E)
#   PROGRAM    relative to BUILDDIR; @N@ in ARGS becomes the node count
#
# Transports: GASNET_MPI_TRANSPORTS (default "vader tcp" under Open MPI,
# the MPI's own default under MPICH). Over tcp a job runs without shared
# memory (GASNET_SUPERNODE_MAXSIZE=1, mpi_lib.sh) unless it sets its own.
# A job expected to exit 0 must also leave stderr free of mpirun's error
# banners. After each job: no process of PROGRAM and no gasnet file left.
set -eu

if [ $# -lt 4 ]; then
  echo "usage: $0 BUILDDIR NODELIST EXPECT [VAR=VALUE...] PROGRAM [ARGS...]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
NODELIST=$2
EXPECT=$3
shift 3
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup

ENVS=""
PLAIN=0
MATCH=""
while [ $# -gt 0 ]; do
  case $1 in
    TRANSPORTS=*) TRANSPORTS=$(mpi_transports "$(echo "${1#TRANSPORTS=}" | tr ',' ' ')"); shift ;;
    LAUNCH=mpirun) PLAIN=1; shift ;;
    MATCH=*) MATCH=${1#MATCH=}; shift ;;
    LAUNCH=*) echo "run_mpi.sh: unknown $1" >&2; exit 2 ;;
    *=*) ENVS="$ENVS $1"; shift ;;
    *) break ;;
  esac
done
need_transports
PROG=$BUILDDIR/$1
# A conduit-generic program is built by the conformance suite's build
# (quick when it is up to date).
case $1 in
  conformance/mpi/*)
    sh "$(dirname "$0")/../conformance.sh" -B -b "$BUILDDIR" mpi >"$WORK/build.out" 2>&1 ||
      { cat "$WORK/build.out"; echo "FAIL setup: the conformance programs do not build"; exit 1; } ;;
esac
shift
[ -x "$PROG" ] || { echo "FAIL setup: $PROG is missing (make check builds it)"; exit 1; }
LIMIT=${GASNET_MPI_JOB_LIMIT:-600}

run_one() { # $1 = transport, $2 = node count
  tr=$1
  n=$2
  label="$(basename "$PROG") $ARGS_LABEL n=$n $tr${ENVS:+ $ENVS}"
  [ $PLAIN -eq 1 ] && label="$label (plain mpirun)"
  out=$WORK/out
  err=$WORK/err
  gasnet_files >"$WORK/files.before"
  if [ $PLAIN -eq 1 ]; then
    extra=""
    if [ "$MPI_KIND" = openmpi ]; then
      [ "$(id -u)" = 0 ] && extra="--allow-run-as-root"
      extra="$extra --oversubscribe"
    fi
    set -- "$MPIRUN" $extra $(transport_args "$tr") -np "$n" "$PROG"
  else
    set -- "$LAUNCHER" -n "$n" "$PROG"
  fi
  for a in $ARGS; do set -- "$@" "$(echo "$a" | sed "s/@N@/$n/g")"; done
  start=$(now_ms)
  rc=0
  # shellcheck disable=SC2086 # ENVS is a list of words on purpose
  GASNET_MPIRUN_ARGS="$(transport_args "$tr") ${GASNET_MPIRUN_ARGS:-}" \
    timeout -k 5 "$LIMIT" env $(transport_env "$tr") $ENVS "$@" >"$out" 2>"$err" </dev/null || rc=$?
  took=$(($(now_ms) - start))
  ok=0
  detail="rc=$rc, $((took / 1000)).$(printf '%03d' $((took % 1000)))s"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && [ "$took" -ge $((LIMIT * 1000 - 500)) ]; then
    detail="$detail (hung: killed after ${LIMIT} s)"
    ok=1
  elif ! rc_matches "$rc" "$EXPECT"; then
    detail="$detail (expected $EXPECT)"
    ok=1
  elif [ "$EXPECT" = 0 ] && has_mpi_spew "$err"; then
    detail="$detail (mpirun printed errors)"
    ok=1
  elif [ -n "$MATCH" ] && ! cat "$out" "$err" | grep -Eq -- "$MATCH"; then
    detail="$detail (the output does not match /$MATCH/)"
    ok=1
  fi
  if ! check_leftovers "$PROG"; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "$label: $detail"
  if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
}

ARGS="$*"
ARGS_LABEL="$*"
for tr in $TRANSPORTS; do
  for n in $(node_list "$NODELIST"); do
    run_one "$tr" "$n"
  done
done
mpi_finish

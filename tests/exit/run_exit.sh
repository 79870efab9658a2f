#!/bin/sh
# run_exit.sh: run one testexit scenario under the smp launcher at several
# node counts and check how the job ends.
#
# Usage: run_exit.sh BUILDDIR NODELIST EXPECT MAXSEC [VAR=VALUE...] MODE [ARGS...]
#
#   NODELIST  comma list of node counts (GASNET_TEST_NODES overrides it)
#   EXPECT    the job's exit code: a number or !0
#   MAXSEC    the longest the job may take to end after testexit's EVENT line
#             (the moment the exit or fault happened), in seconds
#   VAR=VALUE environment for the job (e.g. GASNET_EXITTIMEOUT=2); the
#             pseudo-assignment LAUNCH=self runs testexit without the launcher,
#             with GASNET_PSHM_NODES set to the node count (self-launch)
#   MODE ARGS passed to testexit (see tests/exit/testexit.c); the word {N}
#             is replaced by the node count
#
# Checks, per node count: the exit code, that every node started (READY
# lines), that the job ended within MAXSEC of the event, that no testexit
# process survives the job and that no gasnet file appeared in /dev/shm or
# /tmp.
set -eu

if [ $# -lt 5 ]; then
  echo "usage: $0 BUILDDIR NODELIST EXPECT MAXSEC [VAR=VALUE...] MODE [ARGS...]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
NODELIST=$2
EXPECT=$3
MAXSEC=$4
shift 4
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
setup_paths

# Environment assignments come first; what follows is testexit's command line.
ENVS=""
SELF=0
while [ $# -gt 0 ]; do
  case $1 in
    LAUNCH=self) SELF=1; shift ;;
    LAUNCH=*) echo "run_exit.sh: unknown $1" >&2; exit 2 ;;
    *=*) ENVS="$ENVS $1"; shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "run_exit.sh: missing MODE" >&2; exit 2; }
LABEL="$*"
[ $SELF -eq 1 ] && LABEL="$LABEL (self-launched)"
# The job must end on its own well before testexit's own 30 s give-up time;
# this limit only keeps a broken library from hanging the script.
JOB_LIMIT=45

run_one() { # $1 = node count; the rest = testexit arguments
  n=$1
  shift
  for a in "$@"; do # {N} -> the node count, keeping every other word as it is
    shift
    if [ "$a" = "{N}" ]; then set -- "$@" "$n"; else set -- "$@" "$a"; fi
  done
  out=$WORK/out.$n
  err=$WORK/err.$n
  snapshot_files
  start=$(now_ms)
  rc=0
  if [ $SELF -eq 1 ]; then
    set -- env GASNET_PSHM_NODES="$n" "$PROG" "$@"
  else
    set -- "$LAUNCHER" -n "$n" "$PROG" "$@"
  fi
  # shellcheck disable=SC2086 # ENVS is a list of words on purpose
  timeout -k 2 $JOB_LIMIT env $ENVS "$@" >"$out" 2>"$err" || rc=$?
  end=$(now_ms)
  ok=0
  detail="rc=$rc"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    detail="$detail (hung: killed after ${JOB_LIMIT} s)"
    ok=1
  elif ! rc_matches "$rc" "$EXPECT"; then
    detail="$detail (expected $EXPECT)"
    ok=1
  fi
  ready=$(ready_count "$out")
  if [ "$ready" -ne "$n" ]; then
    detail="$detail, only $ready of $n nodes started"
    ok=1
  fi
  ev=$(event_ms "$out")
  if [ -n "$ev" ]; then
    took=$((end - ev))
    detail="$detail, ended $(fmt_ms "$took") after the event"
    if [ "$took" -gt $((MAXSEC * 1000)) ]; then
      detail="$detail (limit ${MAXSEC}s)"
      ok=1
    fi
  else
    detail="$detail, took $(fmt_ms $((end - start)))"
  fi
  if ! check_leaks; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "$LABEL n=$n" "$detail"
  if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
}

for n in $(node_list "$NODELIST"); do
  run_one "$n" "$@"
done
finish

#!/bin/sh
# run_exit.sh: run one testexit scenario under the conduit's launcher
# (tests/conformance.sh names it) at several node counts and check how the
# job ends.
#
# Usage: run_exit.sh BUILDDIR NODELIST EXPECT MAXSEC [VAR=VALUE...] MODE [ARGS...]
#
#   NODELIST  comma list of node counts (GASNET_TEST_NODES overrides it)
#   EXPECT    the job's exit code: a number or !0
#   MAXSEC    the longest the job may take to end after testexit's EVENT line
#             (the moment the exit or fault happened), in seconds
#   VAR=VALUE environment for the job (e.g. GASNET_EXITTIMEOUT=2), or one of
#             these pseudo-assignments:
#               LAUNCH=self:VAR  run testexit without the launcher, with
#                             VAR set to the node count (a conduit that
#                             starts itself from VAR, e.g. smp's
#                             GASNET_PSHM_NODES)
#               EXPECT_<conduit>=CODE  the code on that conduit, instead
#                             of EXPECT (see expected_code in lib.sh)
#               QUIT=all|others  this many nodes print "QUIT node=I" (their
#                             SIGQUIT handler ran: testexit -q): every node,
#                             or all but one
#               FATAL=SIGSEGV(11)  stderr has "*** Caught a fatal signal:
#                             SIGSEGV(11) on node I/N"
#               BACKTRACE=yes stderr has a backtrace ("Backtrace of ...")
#               QUIET=yes     stderr is empty (a job that ends well prints
#                             nothing there, the launcher included)
#               MIN_NODES=K   skip node counts below K (GASNET_TEST_NODES
#                             may ask for any)
#   MODE ARGS passed to testexit (see tests/exit/testexit.c); the word {N}
#             is replaced by the node count
#
# Checks, per node count: the exit code, that every node started (READY
# lines), that the job ended within MAXSEC of the event, what the
# pseudo-assignments ask for, that no testexit process survives the job
# and that no gasnet file appeared in /dev/shm or /tmp.
set -eu

if [ $# -lt 5 ]; then
  echo "usage: $0 BUILDDIR NODELIST EXPECT MAXSEC [VAR=VALUE...] MODE [ARGS...]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
NODELIST=$2
EXPECT=$3
EXPECT_HERE=
MAXSEC=$4
shift 4
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
setup_paths

# Environment assignments come first; what follows is testexit's command line.
ENVS=""
SELF=
QUIT=""
FATAL=""
BACKTRACE=""
QUIET=""
MIN_NODES=1
while [ $# -gt 0 ]; do
  case $1 in
    LAUNCH=self:[A-Z]*) SELF=${1#LAUNCH=self:}; shift ;;
    EXPECT_*=*)
      [ "${1%%=*}" = "EXPECT_${GASNET_CONFORMANCE_CONDUIT:-}" ] && EXPECT_HERE=${1#*=}
      shift ;;
    LAUNCH=*) echo "run_exit.sh: unknown $1" >&2; exit 2 ;;
    QUIT=all | QUIT=others) QUIT=${1#QUIT=}; shift ;;
    QUIT=*) echo "run_exit.sh: unknown $1" >&2; exit 2 ;;
    FATAL=*) FATAL=${1#FATAL=}; shift ;;
    BACKTRACE=yes) BACKTRACE=yes; shift ;;
    QUIET=yes) QUIET=yes; shift ;;
    MIN_NODES=*) MIN_NODES=${1#MIN_NODES=}; shift ;;
    *=*) ENVS="$ENVS $1"; shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "run_exit.sh: missing MODE" >&2; exit 2; }
EXPECT=$(expected_code "$EXPECT" "${EXPECT_HERE:-}")
LABEL="$*"
[ -n "$SELF" ] && LABEL="$LABEL (self-launched)"
# The job must end on its own well before testexit's own 30 s give-up time;
# this limit only keeps a broken library from hanging the script.
JOB_LIMIT=45

# What QUIT=, FATAL=, BACKTRACE= and QUIET= ask of a job of $1 nodes (stdout $2,
# stderr $3); prints what is missing and returns 1 if anything is.
check_extras() {
  missing=""
  if [ -n "$QUIT" ]; then
    want=$1
    [ "$QUIT" = others ] && want=$(($1 - 1))
    got=$(grep -c '^QUIT node=' "$2" || true)
    [ "$got" -eq "$want" ] || missing="$missing $got of $want QUIT lines;"
  fi
  if [ -n "$FATAL" ] &&
    ! grep -F "*** Caught a fatal signal: $FATAL on node " "$3" | grep -q "/$1\$"; then
    missing="$missing no '*** Caught a fatal signal: $FATAL on node i/$1' line;"
  fi
  if [ -n "$BACKTRACE" ] && ! grep -q '^Backtrace of ' "$3"; then
    missing="$missing no backtrace;"
  fi
  if [ -n "$QUIET" ] && [ -s "$3" ]; then
    missing="$missing stderr not empty: $(head -c 200 "$3" | tr '\n' ' ');"
  fi
  [ -z "$missing" ] && return 0
  echo "$missing" | sed 's/^ //; s/;$//'
  return 1
}

# Did mpirun itself (not a node) die of SIGSEGV in PMIx_server_finalize?
launcher_crashed_in_finalize() { # RC STDERR-FILE
  [ "$1" -eq 139 ] && grep -q 'PMIx_server_finalize' "$2" && grep -q 'mpirun' "$2"
}

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
  if [ -n "$SELF" ]; then
    set -- env "$SELF=$n" "$PROG" "$@"
  else
    set -- "$LAUNCHER" -n "$n" "$PROG" "$@"
  fi
  # Open MPI 4.1's mpirun now and then segfaults in its own PMIx server's
  # finalize after the job's processes have ended (a known launcher race:
  # open-mpi/ompi#13650), turning the job's code into 139. That one crash,
  # recognised by mpirun's own backtrace, gets the scenario one more run.
  tries=0
  while :; do
    tries=$((tries + 1))
    start=$(now_ms)
    rc=0
    # shellcheck disable=SC2086 # ENVS is a list of words on purpose
    timeout -k 2 $JOB_LIMIT env $ENVS "$@" >"$out" 2>"$err" || rc=$?
    end=$(now_ms)
    [ "$tries" -lt 2 ] && launcher_crashed_in_finalize "$rc" "$err" || break
    echo "note: $LABEL n=$n: mpirun crashed in PMIx_server_finalize after the job (rc=$rc); running it again"
  done
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
  if ! extra=$(check_extras "$n" "$out" "$err"); then
    detail="$detail, $extra"
    ok=1
  fi
  if ! check_leaks; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "$LABEL n=$n" "$detail"
  if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
}

for n in $(node_list "$NODELIST"); do
  if [ "$n" -lt "$MIN_NODES" ]; then
    echo "SKIP $LABEL n=$n (needs $MIN_NODES nodes)"
    continue
  fi
  run_one "$n" "$@"
done
finish

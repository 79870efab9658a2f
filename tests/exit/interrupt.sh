#!/bin/sh
# interrupt.sh: start `<launcher> -n N testexit hang` in the background
# (the conduit's launcher, named by tests/conformance.sh), signal it from
# outside once every node is waiting, and check that the whole job goes away.
#
# Usage: interrupt.sh BUILDDIR NODELIST SIGNAL TARGET [OPTION=VALUE...]
#
#   SIGNAL  a signal name for kill -s: INT, TERM, KILL, ...
#   TARGET  launcher:   the launcher process only
#           group:      the launcher's whole process group (what ^C does)
#           supervisor: the parent of the nodes (skipped at 1 node)
#           node:       node 1 (node 0 at 1 node), as if it crashed
#   HANDLER=CODE  every node installs a SIGQUIT handler that prints
#                 "QUIT node=I" and calls gasnet_exit(CODE) (testexit -q)
#   EXPECT=CODE   the job's exit code (default: any non-zero one)
#   EXPECT_<conduit>=CODE  the code on that conduit instead (lib.sh's
#                 expected_code)
#   QUIT=all      every node printed its QUIT line (its handler ran)
#   CAUGHT=yes    the signalled node printed "*** Caught a signal:
#                 SIGxxx(n) on node I/N" (TARGET node)
#
# Checks, per node count: the job (launcher) ends within 5 s of the signal
# with the expected status, what the options ask for, no testexit process
# is left, and no gasnet file appeared in /dev/shm or /tmp.
set -eu

if [ $# -lt 4 ]; then
  echo "usage: $0 BUILDDIR NODELIST SIGNAL TARGET [OPTION=VALUE...]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
NODELIST=$2
SIG=$3
TARGET=$4
shift 4
case $TARGET in
  launcher | group | supervisor | node) ;;
  *) echo "interrupt.sh: unknown TARGET '$TARGET'" >&2; exit 2 ;;
esac
HANDLER=""
EXPECT='!0'
EXPECT_HERE=
QUIT=""
CAUGHT=""
for opt in "$@"; do
  case $opt in
    HANDLER=*) HANDLER=${opt#HANDLER=} ;;
    EXPECT=*) EXPECT=${opt#EXPECT=} ;;
    EXPECT_*=*) [ "${opt%%=*}" = "EXPECT_${GASNET_CONFORMANCE_CONDUIT:-}" ] && EXPECT_HERE=${opt#*=} ;;
    QUIT=all) QUIT=all ;;
    CAUGHT=yes) CAUGHT=yes ;;
    *) echo "interrupt.sh: unknown option '$opt'" >&2; exit 2 ;;
  esac
done
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
setup_paths
signalled=
case $TARGET in launcher | group) signalled=launcher ;; esac
EXPECT=$(expected_code "$EXPECT" "$EXPECT_HERE" $signalled)

END_LIMIT_MS=5000   # how long the job may take to end after the signal
START_LIMIT_MS=30000 # how long N nodes may take to start (oversubscribed)

# Is process $1 still running (not gone, not a zombie waiting to be reaped)?
running() {
  st=$(ps -o stat= -p "$1" 2>/dev/null || true)
  case $st in
    Z*) return 1 ;;
    "") kill -0 "$1" 2>/dev/null ;; # ps can miss a process in the middle of exec
    *) return 0 ;;
  esac
}

# Wait until file $1 holds $2 READY lines while process $3 runs.
wait_ready() {
  wr_end=$(($(now_ms) + START_LIMIT_MS))
  while [ "$(ready_count "$1")" -lt "$2" ]; do
    running "$3" || return 1
    [ "$(now_ms)" -lt "$wr_end" ] || return 1
    nap
  done
}

# The pid of node $2 (or, with $3 = ppid, its parent) from READY lines in $1.
node_pid() {
  sed -n "s/^READY node=$2 nodes=[0-9]* pid=\\([0-9]*\\) ppid=\\([0-9]*\\)\$/\\1 \\2/p" "$1" |
    { read -r p pp || true; if [ "${3:-}" = ppid ]; then echo "${pp:-}"; else echo "${p:-}"; fi; }
}

# Send the signal; prints nothing, returns 1 when there is no target.
send_signal() { # $1 = launcher pid, $2 = node count, $3 = output file
  case $TARGET in
    launcher) kill -s "$SIG" "$1" ;;
    group) kill -s "$SIG" -- "-$1" ;;
    supervisor)
      sv=$(node_pid "$3" 0 ppid)
      [ -n "$sv" ] || return 1
      kill -s "$SIG" "$sv"
      ;;
    node)
      victim=$(node_pid "$3" $(($2 > 1 ? 1 : 0)))
      [ -n "$victim" ] || return 1
      kill -s "$SIG" "$victim"
      ;;
  esac
}

# Wait up to END_LIMIT_MS for the launcher to end; 1 when it did not.
wait_end() { # $1 = launcher pid, $2 = time of the signal
  while running "$1"; do
    [ "$(now_ms)" -lt $(($2 + END_LIMIT_MS)) ] || return 1
    nap
  done
}

run_one() { # $1 = node count
  n=$1
  out=$WORK/out.$n
  err=$WORK/err.$n
  label="$SIG to $TARGET${HANDLER:+ (SIGQUIT handler)} n=$n"
  if [ "$TARGET" = supervisor ] && [ "$n" -lt 2 ]; then
    echo "SKIP $label (one node has no supervisor)"
    return 0
  fi
  snapshot_files
  group_opt=""
  [ "$TARGET" = group ] && group_opt=-g
  quit_opt=""
  [ -n "$HANDLER" ] && quit_opt="-q $HANDLER"
  # shellcheck disable=SC2086 # group_opt and quit_opt are empty or words
  "$SIGDFL" $group_opt "$LAUNCHER" -n "$n" "$PROG" $quit_opt hang >"$out" 2>"$err" &
  job=$!
  ok=0
  detail=""
  if ! wait_ready "$out" "$n" "$job"; then
    detail="only $(ready_count "$out") of $n nodes started"
    ok=1
  else
    sleep 1 # let every node settle into its wait
    t0=$(now_ms)
    if ! send_signal "$job" "$n" "$out"; then
      detail="no pid to signal in the READY lines"
      ok=1
    elif ! wait_end "$job" "$t0"; then
      detail="job still running $((END_LIMIT_MS / 1000)) s after SIG$SIG"
      ok=1
    else
      took=$(($(now_ms) - t0))
      detail="ended $(fmt_ms "$took") after SIG$SIG"
    fi
  fi
  if running "$job"; then
    kill -KILL "$job" 2>/dev/null || true
  fi
  rc=0
  wait "$job" || rc=$?
  detail="rc=$rc, $detail"
  if ! rc_matches "$rc" "$EXPECT"; then
    detail="$detail (expected $EXPECT)"
    ok=1
  fi
  if [ "$QUIT" = all ]; then
    quits=$(grep -c '^QUIT node=' "$out" || true)
    if [ "$quits" -ne "$n" ]; then
      detail="$detail, $quits of $n QUIT lines"
      ok=1
    fi
  fi
  if [ -n "$CAUGHT" ] &&
    ! grep -q "^\*\*\* Caught a signal: SIG$SIG([0-9]*) on node [0-9]*/$n\$" "$err"; then
    detail="$detail, no '*** Caught a signal: SIG$SIG' line"
    ok=1
  fi
  if ! check_leaks; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "$label" "$detail"
  if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
}

for n in $(node_list "$NODELIST"); do
  run_one "$n"
done
finish

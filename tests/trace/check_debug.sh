#!/bin/sh
# check_debug.sh PROGDIR CASE: the debugging aids, with testfault
# (PROGDIR/tests/trace/testfault) at 2 nodes under the conformance
# launcher. CASE is one of:
#   backtrace_fatal  GASNET_BACKTRACE=1: a fatal error prints the message and
#                    a backtrace naming testfault_bad_put and main; the job
#                    ends non-zero
#   backtrace_segv   the same for SIGSEGV in testfault_crash
#   backtrace_gdb    GASNET_BACKTRACE_TYPE=GDB: gdb's backtrace names
#                    testfault_bad_put (skipped without gdb)
#   backtrace_off    without GASNET_BACKTRACE: no stack, the hint to set it
#   freeze           GASNET_FREEZE=1: every node stops in gasnet_init and
#                    says so with its pid; the job does not go on until each
#                    is sent SIGCONT, then ends 0
#   freeze_error     GASNET_FREEZE_ON_ERROR=1: the node with the fatal error
#                    stops after the message; SIGCONT lets it end the job
#                    non-zero
#   freeze_gdb       a frozen node goes on when gdb sets gasnet_frozen = 0,
#                    as the message says (skipped without gdb)
set -u
prog=$1/tests/trace/testfault
case_name=$2
launcher=${GASNET_CONFORMANCE_LAUNCHER:?run by tests/conformance.sh}
work=$(mktemp -d "${TMPDIR:-/tmp}/debug-check.XXXXXX")
job=
# On the way out, a job still running is ended through timeout (which
# passes SIGTERM on to the launcher), not left behind.
trap 'if [ -n "$job" ]; then pkill -TERM -P $job 2>/dev/null; fi; rm -rf "$work"' EXIT

fail() {
  echo "FAIL $case_name: $*"
  [ -f "$work/out" ] && sed 's/^/    | /' "$work/out" | tail -n 30
  exit 1
}

# run MODE [VAR=VALUE...]: the job in the foreground; sets rc, output in $work/out.
run() {
  mode=$1
  shift
  env "$@" timeout -k 5 120 $launcher -n 2 "$prog" "$mode" >"$work/out" 2>&1
  rc=$?
}

has() { grep -Eq -- "$1" "$work/out"; }

# start MODE [VAR=VALUE...]: the job in the background (its pid in $job);
# its exit code goes to $work/rc when it ends, which a running() check
# sees at once (kill -0 would still find the unreaped job).
start() {
  mode=$1
  shift
  : >"$work/out" # before the job, so wait_frozen never reads a missing file
  rm -f "$work/rc"
  (
    env "$@" timeout -k 5 120 $launcher -n 2 "$prog" "$mode" >>"$work/out" 2>&1
    echo $? >"$work/rc"
  ) &
  job=$!
}

running() { [ ! -f "$work/rc" ]; }

# wait_frozen COUNT: until COUNT nodes say they are frozen; their pids in
# $pids. Fails (showing the job's output) when the job ends first, as it
# does when gasnet_init fails before the freeze.
wait_frozen() {
  i=0
  while [ "$(grep -c 'frozen for a debugger' "$work/out")" -lt "$1" ]; do
    i=$((i + 1))
    [ $i -le 600 ] || fail "$1 node(s) never said they were frozen"
    running || fail "the job ended before $1 node(s) froze"
    sleep 0.1
  done
  pids=$(sed -n 's/.*frozen for a debugger.*pid \([0-9][0-9]*\).*/\1/p' "$work/out")
}

# finish: wait for the background job; sets rc.
finish() {
  wait $job
  rc=$(cat "$work/rc")
  job=
}

# still_frozen: the job has not gone on by itself in a second.
still_frozen() {
  sleep 1
  running || fail "the job went on without SIGCONT"
  ! has 'testfault: ok' || fail "the job went on without SIGCONT"
}

case $case_name in
  backtrace_fatal)
    run fatal GASNET_BACKTRACE=1
    [ $rc -ne 0 ] || fail "the job ended 0"
    has 'FATAL ERROR.*gasnet_put: node [0-9]+ is out of range' || fail "no fatal error message"
    has 'testfault_bad_put' || fail "no backtrace line names testfault_bad_put"
    has '\bmain\b' || fail "no backtrace line names main"
    ;;
  backtrace_segv)
    run segv GASNET_BACKTRACE=1
    [ $rc -ne 0 ] || fail "the job ended 0"
    has 'Caught a fatal signal: SIGSEGV' || fail "no fatal-signal message"
    has 'testfault_crash' || fail "no backtrace line names testfault_crash"
    ;;
  backtrace_gdb)
    command -v gdb >/dev/null 2>&1 || { echo "SKIP: no gdb"; exit 77; }
    run fatal GASNET_BACKTRACE=1 GASNET_BACKTRACE_TYPE=GDB
    [ $rc -ne 0 ] || fail "the job ended 0"
    has 'Backtrace of .*GDB' || fail "no GDB backtrace header"
    has 'testfault_bad_put' || fail "gdb's backtrace does not name testfault_bad_put"
    ;;
  backtrace_off)
    run fatal
    [ $rc -ne 0 ] || fail "the job ended 0"
    has 'FATAL ERROR' || fail "no fatal error message"
    ! has 'testfault_bad_put' || fail "a backtrace without GASNET_BACKTRACE"
    has 'GASNET_BACKTRACE=1' || fail "no hint to set GASNET_BACKTRACE"
    ;;
  freeze)
    start ok GASNET_FREEZE=1
    wait_frozen 2
    still_frozen
    for p in $pids; do kill -CONT "$p" || fail "cannot signal pid $p"; done
    finish
    [ $rc -eq 0 ] || fail "the job ended $rc after SIGCONT"
    has 'testfault: ok' || fail "the job did not run after SIGCONT"
    ;;
  freeze_error)
    start fatal GASNET_FREEZE_ON_ERROR=1
    wait_frozen 1
    has 'FATAL ERROR' || fail "no fatal error before the freeze"
    sleep 1
    running || fail "the job ended while its node was frozen"
    kill -CONT "$pids" || fail "cannot signal pid $pids"
    finish
    [ $rc -ne 0 ] || fail "the job ended 0 after the fatal error"
    ;;
  freeze_gdb)
    command -v gdb >/dev/null 2>&1 || { echo "SKIP: no gdb"; exit 77; }
    start ok GASNET_FREEZE=1
    wait_frozen 2
    still_frozen
    for p in $pids; do
      timeout 60 gdb -nx -batch -p "$p" -ex 'set var gasnet_frozen = 0' >"$work/gdb.out" 2>&1 ||
        fail "gdb could not set gasnet_frozen in pid $p: $(tail -n 3 "$work/gdb.out")"
    done
    finish
    [ $rc -eq 0 ] || fail "the job ended $rc after gdb thawed it"
    has 'testfault: ok' || fail "the job did not run after gdb thawed it"
    ;;
  *)
    echo "usage: check_debug.sh PROGDIR CASE (see the top of $0)" >&2
    exit 2
    ;;
esac
echo "ok   $case_name"

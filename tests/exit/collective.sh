#!/bin/sh
# collective.sh: a collective exit loses nothing. Runs `testexit-par flush
# HOW` (every node prints a line after a final barrier and returns from main
# or calls gasnet_exit(0), while a second thread of it keeps polling) RUNS
# times in a row at each node count, and checks every run: exit code 0, a
# LINE from every node, and (HOW=return) an ATEXIT line from every node's
# atexit handler; then that nothing was left behind. LOAD=N keeps N busy
# loops running beside the jobs: on a host with more work than cores the
# exiting thread must still get the conduit's lock from a thread that
# polls in a tight loop, and the late nodes must still be let finish.
#
# Usage: collective.sh BUILDDIR NODELIST RUNS [LOAD=N] return|exit
#   GASNET_EXIT_RUNS overrides RUNS (e.g. 2000 for a long soak).
set -eu

if [ $# -lt 4 ] || [ $# -gt 5 ]; then
  echo "usage: $0 BUILDDIR NODELIST RUNS [LOAD=N] return|exit" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
NODELIST=$2
RUNS=${GASNET_EXIT_RUNS:-$3}
LOAD=0
case $4 in
  LOAD=*) LOAD=${4#LOAD=}; shift ;;
esac
HOW=${4:-}
case $LOAD in
  '' | *[!0-9]*) echo "collective.sh: LOAD must be a count, not '$LOAD'" >&2; exit 2 ;;
esac
case $HOW in
  return | exit) ;;
  *) echo "collective.sh: HOW must be return or exit, not '$HOW'" >&2; exit 2 ;;
esac
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
setup_paths
PROG=$BUILDDIR/tests/exit/testexit-par
[ -x "$PROG" ] || { echo "FAIL setup: $PROG is missing (run make check first)"; exit 1; }
JOB_LIMIT=30 # seconds; a run takes well under one

# check_run N OUT ERR RC: prints what is wrong with one run, nothing if fine.
check_run() {
  [ "$4" -eq 0 ] || echo "rc=$4"
  lines=$(grep -c '^LINE node=' "$2" || true)
  [ "$lines" -eq "$1" ] || echo "$lines of $1 LINE lines"
  if [ "$HOW" = return ]; then
    ends=$(grep -c '^ATEXIT node=' "$2" || true)
    [ "$ends" -eq "$1" ] || echo "$ends of $1 ATEXIT lines"
  fi
  if [ -s "$3" ]; then echo "stderr not empty"; fi
}

run_count() { # $1 = node count
  n=$1
  out=$WORK/out err=$WORK/err
  snapshot_files
  start=$(now_ms)
  bad=0
  i=1
  while [ "$i" -le "$RUNS" ]; do
    rc=0
    timeout -k 2 $JOB_LIMIT "$LAUNCHER" -n "$n" "$PROG" flush "$HOW" >"$out" 2>"$err" || rc=$?
    what=$(check_run "$n" "$out" "$err" "$rc" | tr '\n' ',' | sed 's/,$//')
    if [ -n "$what" ]; then
      bad=$((bad + 1))
      if [ "$bad" -le 3 ]; then
        echo "  run $i: $what"
        show_output "$out" "$err"
      fi
    fi
    i=$((i + 1))
  done
  took=$(($(now_ms) - start))
  ok=0
  detail="$RUNS runs in $(fmt_ms "$took")"
  if [ "$bad" -ne 0 ]; then
    detail="$detail, $bad lost output or failed"
    ok=1
  fi
  if ! check_leaks; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "flush $HOW n=$n${HOGS:+ beside $LOAD busy loops}" "$detail"
}

# Busy loops that end with this script (stop_load, or the EXIT trap).
HOGS=
start_load() {
  i=0
  while [ "$i" -lt "$LOAD" ]; do
    sh -c 'while :; do :; done' &
    HOGS="$HOGS $!"
    i=$((i + 1))
  done
}
stop_load() {
  # shellcheck disable=SC2086 # HOGS is a list of pids
  [ -z "$HOGS" ] || kill $HOGS 2>/dev/null || true
  HOGS=
}
trap 'stop_load; cleanup_work' EXIT

start_load
for n in $(node_list "$NODELIST"); do
  run_count "$n"
done
stop_load
finish

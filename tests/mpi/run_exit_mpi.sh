#!/bin/sh
# run_exit_mpi.sh: how a job ends on the mpi conduit. Runs tests/exit's
# testexit (built against the mpi library as tests/mpi/conf/tests/exit/testexit)
# under gasnetrun_mpi, under every transport, and checks each scenario's
# exit code, that every node started, how soon after the event the job
# ended, and that no process or file is left behind.
#
# Usage: run_exit_mpi.sh BUILDDIR [SCENARIO-REGEX]
set -eu

if [ $# -lt 1 ]; then
  echo "usage: $0 BUILDDIR [SCENARIO-REGEX]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
ONLY=${2:-.}
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup
PROG=$BUILDDIR/tests/mpi/conf/tests/exit/testexit
[ -x "$PROG" ] || { echo "FAIL setup: $PROG is missing (make check builds it)"; exit 1; }

START_LIMIT_MS=30000 # N nodes may take this long to start (oversubscribed)
JOB_LIMIT=60         # seconds; testexit gives up by itself after 30

running() {
  st=$(ps -o stat= -p "$1" 2>/dev/null || true)
  case $st in "" | Z*) return 1 ;; *) return 0 ;; esac
}
node_pid() { # file, node
  sed -n "s/^READY node=$2 nodes=[0-9]* pid=\\([0-9]*\\) .*/\\1/p" "$1" | head -n 1
}

# scenario NAME NODELIST EXPECT MAXSEC SPEW [VAR=VALUE...] -- testexit ARGS ({N}: node count)
#   MAXSEC  the job must end within this many seconds of testexit's EVENT
#   SPEW    clean: stderr must be free of mpirun's error banners
scenario() {
  name=$1 nodes=$2 expect=$3 maxsec=$4 spew=$5
  shift 5
  envs=""
  while [ "$1" != -- ]; do envs="$envs $1"; shift; done
  shift
  echo "$name" | grep -Eq -- "$ONLY" || return 0
  for tr in $TRANSPORTS; do
    for n in $(node_list "$nodes"); do
      args=""
      for a in "$@"; do [ "$a" = "{N}" ] && a=$n; args="$args $a"; done
      out=$WORK/out err=$WORK/err
      gasnet_files >"$WORK/files.before"
      rc=0
      # shellcheck disable=SC2086
      GASNET_MPIRUN_ARGS="$(transport_args "$tr")" timeout -k 2 $JOB_LIMIT \
        env $envs "$LAUNCHER" -n "$n" "$PROG" $args >"$out" 2>"$err" </dev/null || rc=$?
      end=$(now_ms)
      judge "$name n=$n $tr" "$n" "$expect" "$maxsec" "$spew" "$rc" "$end"
    done
  done
}

# judge LABEL N EXPECT MAXSEC SPEW RC END_MS (reads $out, $err)
judge() {
  ok=0
  detail="rc=$6"
  if [ "$6" -eq 124 ] || [ "$6" -eq 137 ]; then
    detail="$detail (hung)"
    ok=1
  elif ! rc_matches "$6" "$3"; then
    detail="$detail (expected $3)"
    ok=1
  fi
  ready=$(ready_count "$out")
  if [ "$ready" -ne "$2" ]; then
    detail="$detail, $ready of $2 nodes started"
    ok=1
  fi
  ev=$(event_ms "$out")
  if [ -n "$ev" ]; then
    took=$(($7 - ev))
    detail="$detail, ended $((took / 1000)).$(printf '%03d' $((took % 1000)))s after the event"
    if [ "$took" -gt $(($4 * 1000)) ]; then
      detail="$detail (limit $4 s)"
      ok=1
    fi
  fi
  if [ "$5" = clean ] && has_mpi_spew "$err"; then
    detail="$detail, mpirun printed errors"
    ok=1
  fi
  if ! check_leftovers "$PROG"; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "$1: $detail"
  if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
}

# signal NAME NODELIST SIGNAL TARGET: start a job of waiting nodes, send
# SIGNAL to TARGET (launcher: mpirun itself; node: node 1), and check the
# job ends within 5 s, non-zero, leaving nothing.
signal_case() {
  name=$1 nodes=$2 sig=$3 target=$4
  echo "$name" | grep -Eq -- "$ONLY" || return 0
  for tr in $TRANSPORTS; do
    for n in $(node_list "$nodes"); do
      out=$WORK/out err=$WORK/err
      gasnet_files >"$WORK/files.before"
      GASNET_MPIRUN_ARGS="$(transport_args "$tr")" "$LAUNCHER" -n "$n" "$PROG" hang \
        >"$out" 2>"$err" </dev/null &
      job=$!
      limit=$(($(now_ms) + START_LIMIT_MS))
      while [ "$(ready_count "$out")" -lt "$n" ] && running $job && [ "$(now_ms)" -lt $limit ]; do
        nap
      done
      victim=$job
      [ "$target" = node ] && victim=$(node_pid "$out" $((n > 1 ? 1 : 0)))
      sent=$(now_ms)
      kill -s "$sig" "$victim" 2>/dev/null || true
      # Wait for the job, at most JOB_LIMIT.
      limit=$(($(now_ms) + JOB_LIMIT * 1000))
      while running $job && [ "$(now_ms)" -lt $limit ]; do nap; done
      if running $job; then kill -KILL $job 2>/dev/null || true; fi
      rc=0
      wait $job || rc=$?
      end=$(now_ms)
      took=$((end - sent))
      ok=0
      detail="rc=$rc, ended $((took / 1000)).$(printf '%03d' $((took % 1000)))s after SIG$sig to the $target"
      [ "$(ready_count "$out")" -eq "$n" ] || { detail="$detail, not every node started"; ok=1; }
      [ "$rc" -ne 0 ] || { detail="$detail (expected non-zero)"; ok=1; }
      [ "$took" -le 5000 ] || { detail="$detail (limit 5 s)"; ok=1; }
      if ! check_leftovers "$PROG"; then
        detail="$detail, leaked"
        ok=1
      fi
      verdict $ok "$name n=$n $tr: $detail"
      if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
    done
  done
}

#        NAME            NODES    EXPECT MAXSEC SPEW         ENV -- testexit ARGS
scenario normal          1,2,3,4  0      5      clean        -- normal {N}
scenario return_all      1,2,4    3      5      any          -- return 3
scenario code_last       1,2,3,4  42     5      any          -- exit 42 last block
scenario code_node0      2,4      42     5      any          -- exit 42 0 block
scenario code_compute    2,4      42     7      any          GASNET_EXITTIMEOUT=2 -- exit 42 last compute
scenario zero_compute    2        0      7      any          GASNET_EXITTIMEOUT=2 -- exit 0 last compute
scenario libc_exit       2,4      7      5      any          -- libcexit 7 last
scenario return_one      2,4      5      5      any          -- return 5 1
scenario segv            1,2,4    '!0'   5      any          -- segv 1
scenario abort           2,4      '!0'   5      any          -- abort 1
signal_case kill_node    2,4      KILL   node
signal_case term_node    2,4      TERM   node
signal_case int_launcher 1,2,4    INT    launcher
signal_case term_launcher 2,4     TERM   launcher
signal_case kill_launcher 2,4     KILL   launcher
mpi_finish

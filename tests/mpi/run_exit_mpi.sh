#!/bin/sh
# run_exit_mpi.sh: how a job ends on the mpi conduit. Runs tests/exit's
# testexit (built against the mpi library as tests/mpi/conf/tests/exit/testexit,
# and testexit-par in the PAR mode) under gasnetrun_mpi, under every
# transport, and checks each scenario's exit code, that every node started,
# how soon after the event the job ended, the lines the scenario asks for
# (SIGQUIT handlers, fatal-signal reports), and that no process or file is
# left behind.
#
# Usage: run_exit_mpi.sh BUILDDIR [SCENARIO-REGEX]
#   GASNET_EXIT_RUNS sets the run count of the collective-exit scenarios.
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
PROG_PAR=$BUILDDIR/tests/mpi/conf/tests/exit/testexit-par
for p in "$PROG" "$PROG_PAR"; do
  [ -x "$p" ] || { echo "FAIL setup: $p is missing (make check builds it)"; exit 1; }
done

START_LIMIT_MS=30000 # N nodes may take this long to start (oversubscribed)
JOB_LIMIT=60         # seconds; testexit gives up by itself after 30

running() {
  st=$(ps -o stat= -p "$1" 2>/dev/null || true)
  case $st in
    Z*) return 1 ;;
    "") kill -0 "$1" 2>/dev/null ;; # ps can miss a process in the middle of exec
    *) return 0 ;;
  esac
}
ends_in_newline() { [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; }
node_pid() { # file, node
  sed -n "s/^READY node=$2 nodes=[0-9]* pid=\\([0-9]*\\) .*/\\1/p" "$1" | head -n 1
}

# scenario NAME NODELIST EXPECT MAXSEC SPEW [VAR=VALUE...] -- testexit ARGS ({N}: node count)
#   MAXSEC  the job must end within this many seconds of testexit's EVENT
#   SPEW    clean: stderr must be free of mpirun's error banners
#   VAR=VALUE  environment, or a check: QUIT=others (every node but one
#           printed "QUIT node=I": its SIGQUIT handler ran), FATAL=SIGSEGV(11)
#           (stderr has "*** Caught a fatal signal: SIGSEGV(11) on node
#           i/N"), BACKTRACE=yes (stderr has a backtrace), MIN_NODES=K (skip
#           node counts below K)
scenario() {
  name=$1 nodes=$2 expect=$3 maxsec=$4 spew=$5
  shift 5
  envs="" quit="" fatal="" backtrace="" min_nodes=1
  while [ "$1" != -- ]; do
    case $1 in
      QUIT=*) quit=${1#QUIT=} ;;
      FATAL=*) fatal=${1#FATAL=} ;;
      BACKTRACE=*) backtrace=${1#BACKTRACE=} ;;
      MIN_NODES=*) min_nodes=${1#MIN_NODES=} ;;
      *) envs="$envs $1" ;;
    esac
    shift
  done
  shift
  echo "$name" | grep -Eq -- "$ONLY" || return 0
  [ -n "$fatal" ] && expect=$(death_code "$expect")
  for tr in $TRANSPORTS; do
    for n in $(node_list "$nodes"); do
      [ "$n" -ge "$min_nodes" ] || continue
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

# extras N: what QUIT=, FATAL= and BACKTRACE= ask (reads $out, $err, $quit,
# $fatal, $backtrace); prints what is missing.
extras() {
  if [ "$quit" = others ]; then
    got=$(grep -c '^QUIT node=' "$out" || true)
    [ "$got" -eq $(($1 - 1)) ] || printf '%s' ", $got of $(($1 - 1)) QUIT lines"
  fi
  if [ -n "$fatal" ] &&
    ! grep -F "*** Caught a fatal signal: $fatal on node " "$err" | grep -q "/$1\$"; then
    printf '%s' ", no '*** Caught a fatal signal: $fatal on node i/$1' line"
  fi
  if [ -n "$backtrace" ] && ! grep -q '^Backtrace of ' "$err"; then
    printf '%s' ", no backtrace"
  fi
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
  missing=$(extras "$2")
  if [ -n "$missing" ]; then
    detail="$detail$missing"
    ok=1
  fi
  if ! check_leftovers "$PROG"; then
    detail="$detail, leaked"
    ok=1
  fi
  verdict $ok "$1: $detail"
  if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
}

# collective NAME NODELIST RUNS HOW: a collective exit loses nothing. Runs
# `testexit-par flush HOW` (every node prints a line after a final barrier
# and returns from main or calls gasnet_exit(0) while a second thread
# polls) RUNS times (GASNET_EXIT_RUNS overrides) per node count and
# transport; every run must exit 0 with a LINE (and, HOW=return, an ATEXIT
# line) from every node and nothing on stderr.
collective() {
  name=$1 nodes=$2 runs=${GASNET_EXIT_RUNS:-$3} how=$4
  echo "$name" | grep -Eq -- "$ONLY" || return 0
  for tr in $TRANSPORTS; do
    for n in $(node_list "$nodes"); do
      out=$WORK/out err=$WORK/err
      gasnet_files >"$WORK/files.before"
      start=$(now_ms) bad=0 first="" i=1
      while [ "$i" -le "$runs" ]; do
        rc=0
        GASNET_MPIRUN_ARGS="$(transport_args "$tr")" timeout -k 2 $JOB_LIMIT \
          "$LAUNCHER" -n "$n" "$PROG_PAR" flush "$how" >"$out" 2>"$err" </dev/null || rc=$?
        lines=$(grep -c '^LINE node=' "$out" || true)
        ends=$n
        [ "$how" = return ] && ends=$(grep -c '^ATEXIT node=' "$out" || true)
        if [ "$rc" -ne 0 ] || [ "$lines" -ne "$n" ] || [ "$ends" -ne "$n" ] || [ -s "$err" ]; then
          bad=$((bad + 1))
          [ -n "$first" ] || first="run $i: rc=$rc, $lines LINE and $ends ATEXIT lines of $n"
        fi
        i=$((i + 1))
      done
      took=$(($(now_ms) - start))
      ok=0
      detail="$runs runs in $((took / 1000)).$(printf '%03d' $((took % 1000)))s"
      if [ "$bad" -ne 0 ]; then
        detail="$detail, $bad lost output or failed (first: $first)"
        ok=1
      fi
      if ! check_leftovers "$PROG_PAR"; then
        detail="$detail, leaked"
        ok=1
      fi
      verdict $ok "$name n=$n $tr: $detail"
      if [ $ok -ne 0 ]; then show_output "$out" "$err"; fi
    done
  done
}

# signal_case NAME NODELIST SIGNAL TARGET [OPTION=VALUE...]: start a job of
# waiting nodes, send SIGNAL to TARGET (launcher: mpirun itself; node: node
# 1), and check the job ends within 5 s, with the expected code (default:
# non-zero), leaving nothing. Options: HANDLER=CODE (testexit -q CODE: a
# SIGQUIT handler printing QUIT and calling gasnet_exit(CODE)), EXPECT=CODE,
# QUIT=all (every node's handler ran), CAUGHT=yes (the node printed "***
# Caught a signal: SIGxxx(n) on node 1/N").
signal_case() {
  name=$1 nodes=$2 sig=$3 target=$4
  shift 4
  handler="" expect='!0' quit="" caught=""
  for opt in "$@"; do
    case $opt in
      HANDLER=*) handler="-q ${opt#HANDLER=}" ;;
      EXPECT=*) expect=${opt#EXPECT=} ;;
      QUIT=*) quit=${opt#QUIT=} ;;
      CAUGHT=*) caught=${opt#CAUGHT=} ;;
      *) echo "run_exit_mpi.sh: unknown option $opt" >&2; exit 2 ;;
    esac
  done
  echo "$name" | grep -Eq -- "$ONLY" || return 0
  [ "$sig" = KILL ] && [ "$target" = node ] && expect=$(death_code "$expect")
  # MPICH's Hydra ends every process on SIGINT or SIGTERM but may itself
  # exit 0 then: its code is not checked.
  [ "$MPI_KIND" = hydra ] && [ "$target" = launcher ] && [ "$sig" != KILL ] && expect=any
  for tr in $TRANSPORTS; do
    for n in $(node_list "$nodes"); do
      out=$WORK/out err=$WORK/err
      gasnet_files >"$WORK/files.before"
      # shellcheck disable=SC2086 # handler is empty or two words
      GASNET_MPIRUN_ARGS="$(transport_args "$tr")" "$LAUNCHER" -n "$n" "$PROG" $handler hang \
        >"$out" 2>"$err" </dev/null &
      job=$!
      limit=$(($(now_ms) + START_LIMIT_MS))
      # mpirun forwards output in pieces: wait for whole lines, or the pid
      # read from the last one may be cut short.
      while { [ "$(ready_count "$out")" -lt "$n" ] || ! ends_in_newline "$out"; } &&
        running $job && [ "$(now_ms)" -lt $limit ]; do
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
      [ "$expect" = any ] || rc_matches "$rc" "$expect" || { detail="$detail (expected $expect)"; ok=1; }
      if [ "$quit" = all ]; then
        got=$(grep -c '^QUIT node=' "$out" || true)
        [ "$got" -eq "$n" ] || { detail="$detail, $got of $n QUIT lines"; ok=1; }
      fi
      if [ -n "$caught" ] && ! grep -qF "*** Caught a signal: SIG$sig(" "$err"; then
        detail="$detail, no '*** Caught a signal: SIG$sig' line"
        ok=1
      fi
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

# Each code: a node that exits alone decides it; the others' SIGQUIT
# handlers (testexit -q 9) run and may replace a 0 with theirs; a node that
# exits before a peer has finished gasnet_attach still ends the job at once.
#        NAME            NODES    EXPECT MAXSEC SPEW         ENV -- testexit ARGS
scenario normal          1,2,3,4  0      5      clean        -- normal {N}
scenario return_all      1,2,4    3      5      any          -- return 3
scenario code_last       1,2,3,4  42     5      any          -- exit 42 last block
scenario code_node0      2,4      42     5      any          -- exit 42 0 block
scenario code_barrier    2,4      42     5      any          -- exit 42 last barrier
scenario code_compute    2,4      42     7      any          GASNET_EXITTIMEOUT=2 -- exit 42 last compute
scenario zero_compute    2        0      7      any          GASNET_EXITTIMEOUT=2 -- exit 0 last compute
scenario libc_exit       2,4      7      5      any          -- libcexit 7 last
scenario return_one      2,4      5      5      any          -- return 5 1
scenario preattach       2,4      7      2      any          -- preattach 7 last
scenario preattach_node0 2,4      7      2      any          -- preattach 7 0
scenario q_remote_zero   2,4      9      5      any          MIN_NODES=2 QUIT=others -- -q 9 exit 0 last block
scenario q_remote_code   2,4      42     5      any          QUIT=others -- -q 9 exit 42 0 block
scenario q_remote_return 2,4      5      5      any          QUIT=others -- -q 9 return 5 1
# Fatal signals: the node reports it; the job's code is mpirun's, 128 + the
# signal (Hydra: any non-zero code, see death_code); the others' SIGQUIT
# handlers run before mpirun ends them.
scenario segv            1,2,4    139    5      any          'FATAL=SIGSEGV(11)' -- segv 1
scenario segv_trace      2        139    5      any          GASNET_BACKTRACE=1 'FATAL=SIGSEGV(11)' BACKTRACE=yes -- segv 1
scenario abort           2,4      134    5      any          'FATAL=SIGABRT(6)' -- abort 1
scenario q_remote_segv   2,4      139    5      any          QUIT=others 'FATAL=SIGSEGV(11)' -- -q 9 segv 1
# A collective exit loses nothing (NAME NODES RUNS HOW).
collective flush_return  2,4      25     return
collective flush_exit    3        25     exit
# Signals: SIGINT/SIGTERM at a node become SIGQUIT (the client's handler
# decides the code; without one the job ends with 128 + the signal).
# Signals to the launcher are mpirun's business: it ends every process
# and exits 1.
signal_case kill_node    2,4      KILL   node     EXPECT=137
signal_case term_node    2,4      TERM   node     EXPECT=143 CAUGHT=yes
signal_case int_node     2,4      INT    node     EXPECT=130 CAUGHT=yes
signal_case q_int_node   2,4      INT    node     HANDLER=9 EXPECT=9 QUIT=all CAUGHT=yes
signal_case q_term_node  2,4      TERM   node     HANDLER=9 EXPECT=9 QUIT=all CAUGHT=yes
signal_case int_launcher 1,2,4    INT    launcher
signal_case term_launcher 2,4     TERM   launcher
signal_case kill_launcher 2,4     KILL   launcher
mpi_finish

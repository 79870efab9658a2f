# job_lib.sh: helpers for scripts that run whole jobs and judge how they
# end, whatever the conduit (sourced by tests/exit/lib.sh and
# tests/mpi/mpi_lib.sh, not run).

# The node counts to run: the script's own list, unless the harness user
# overrides every list with GASNET_TEST_NODES.
node_list() {
  echo "${GASNET_TEST_NODES:-$1}" | tr ',' ' '
}

# Milliseconds of wall-clock time (CLOCK_REALTIME, as testexit's EVENT lines).
now_ms() {
  t=$(date +%s%N 2>/dev/null || true)
  case $t in
    *[!0-9]* | "") echo $(($(date +%s) * 1000)) ;;
    *) echo $((t / 1000000)) ;;
  esac
}

# Milliseconds as seconds with three decimals.
fmt_ms() { echo "$(($1 / 1000)).$(printf '%03d' $(($1 % 1000)))s"; }

nap() { sleep 0.1 2>/dev/null || sleep 1; }

# Every file named like gasnet in the places a leak would show.
gasnet_files() {
  for f in /dev/shm/*gasnet* /dev/shm/*GASNET* /tmp/*gasnet* /tmp/*GASNET*; do
    [ -e "$f" ] && echo "$f"
  done | sort
}

# rc matches EXPECT (an exact code, !0, or any)?
rc_matches() {
  case $2 in
    any) true ;;
    '!0') [ "$1" -ne 0 ] ;;
    *) [ "$1" -eq "$2" ] ;;
  esac
}

# The EVENT time printed by testexit in file $1, or nothing.
event_ms() {
  sed -n 's/^EVENT node=[0-9]* ms=\([0-9]*\)$/\1/p' "$1" | head -n 1
}

ready_count() {
  grep -c '^READY node=' "$1" 2>/dev/null || true
}

show_output() {
  for f in "$@"; do
    [ -s "$f" ] || continue
    echo "  --- tail of $(basename "$f")"
    tail -n 15 "$f" | sed 's/^/  | /'
  done
}

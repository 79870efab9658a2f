#!/bin/sh
# ucx_floor.sh: the floor a conduit over UCX is measured against: UCX's own
# benchmark (ucx_perftest, package ucx-utils) between two processes of this
# host, over UCX_TLS=tcp (through the kernel's network stack on lo, as
# between hosts) and over UCX's shared memory (posix,sysv,cma,self).
# UCP active messages (latency, and bandwidth and rate with a window), put
# and get; the transports alternate within each round, and each cell is
# the median over the rounds.
#
# Usage: ucx_floor.sh [-k ROUNDS] [-t tcp|shm|both] [-s SIZES] [-n ITERS]
#   -k ROUNDS  rounds (default 5)
#   -t WHICH   transports (default both)
#   -s SIZES   comma list of message sizes in bytes (default
#              8,4096,65536,1048576,4194304)
#   -n ITERS   iterations of the smallest size (default 20000); larger
#              sizes run fewer, at least 50, about 64 MiB per test
# Prints CSV: transport,test,bytes,metric,min,median,max, where metric is
# latency_us (the latency tests: ucx_perftest's 50th percentile of half a
# round trip), MB_s (the bandwidth tests, 2^20 bytes per second) or msg_s
# (ucp_am_bw's message rate). Exits 77 when ucx_perftest is not installed,
# 1 when a run fails.
set -u
rounds=5 which=both sizes=8,4096,65536,1048576,4194304 iters=20000
while getopts k:t:s:n: opt; do
  case $opt in
    k) rounds=$OPTARG ;;
    t) which=$OPTARG ;;
    s) sizes=$OPTARG ;;
    n) iters=$OPTARG ;;
    *) exit 2 ;;
  esac
done
command -v ucx_perftest >/dev/null 2>&1 || {
  echo "ucx_floor.sh: no ucx_perftest (apt-get install ucx-utils): skipped"
  exit 77
}
case $which in
  tcp) transports=tcp ;;
  shm) transports=shm ;;
  both) transports="tcp shm" ;;
  *) echo "ucx_floor.sh: -t $which: not tcp, shm or both" >&2; exit 2 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ucxfloor.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

tls_of() { [ "$1" = tcp ] && echo tcp || echo posix,sysv,cma,self; }

# Iterations for a size: ITERS at the smallest, about 64 MiB per test above.
iters_for() {
  awk -v s="$1" -v n="$iters" 'BEGIN { m = int(67108864 / (s > 0 ? s : 1));
    if (m > n) m = n; if (m < 50) m = 50; print m }'
}

# One ucx_perftest pair (server, then client on 127.0.0.1); appends the
# client's final numbers, one transport,test,bytes,metric,value row each,
# to $tmp/all. Every pair listens on a port of its own (no wait for the
# last one's to be free again).
pairs=0
run_pair() { # TRANSPORT TEST SIZE
  port=$(( 20000 + ($$ + 7 * pairs) % 20000 ))
  pairs=$((pairs + 1))
  n=$(iters_for "$3")
  UCX_TLS=$(tls_of "$1") timeout -k 5 120 ucx_perftest -p "$port" >"$tmp/srv" 2>&1 &
  srv=$!
  sleep 0.3
  UCX_TLS=$(tls_of "$1") timeout -k 5 120 ucx_perftest 127.0.0.1 -p "$port" -t "$2" -s "$3" \
    -n "$n" -w $(( n / 10 + 1 )) -O 16 -f >"$tmp/cli" 2>&1
  rc=$?
  wait "$srv"
  if [ $rc -ne 0 ]; then
    echo "ucx_floor.sh: ucx_perftest -t $2 -s $3 over $1 failed (exit $rc):" >&2
    tail -5 "$tmp/cli" "$tmp/srv" >&2
    exit 1
  fi
  # The final line: iterations, latency (50th percentile, average,
  # overall), bandwidth (average, overall), rate (average, overall).
  awk -v t="$1" -v test="$2" -v s="$3" '$1 ~ /^[0-9]+$/ && NF >= 8 { row = $0 }
    END { if (row == "") exit 1; split(row, f); cell = t "," test "," s;
      if (test ~ /_lat$/) { print cell ",latency_us," f[2]; exit }
      print cell ",MB_s," f[6]; if (test == "ucp_am_bw") print cell ",msg_s," f[8] }' \
    "$tmp/cli" >>"$tmp/all" || {
    echo "ucx_floor.sh: no result line from ucx_perftest -t $2 -s $3 over $1" >&2
    exit 1
  }
}

: >"$tmp/all"
r=1
while [ $r -le "$rounds" ]; do
  for size in $(echo "$sizes" | tr , ' '); do
    for t in $transports; do
      for test in ucp_am_lat ucp_am_bw ucp_put_lat ucp_put_bw ucp_get; do
        run_pair "$t" "$test" "$size"
      done
    done
  done
  r=$((r + 1))
done

# Per cell, the rows sorted by value: the first is the minimum, the last
# the maximum, the middle one (or the mean of the middle two) the median.
echo "transport,test,bytes,metric,min,median,max"
sort -t, -k1,1 -k2,2 -k3,3n -k4,4 -k5,5g "$tmp/all" | awk -F, '
  function flush() { if (c) print cell "," v[1] "," (c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2) "," v[c] }
  { k = $1 "," $2 "," $3 "," $4; if (k != cell) { flush(); cell = k; c = 0 } v[++c] = $5 }
  END { flush() }'

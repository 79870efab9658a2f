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
# Prints CSV: transport,test,bytes,latency_us,MB_s,msg_s (a latency test
# leaves the rates empty, a bandwidth test the latency). Exits 77 when
# ucx_perftest is not installed, 1 when a run fails.
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
# client's final numbers as transport,test,bytes,lat,mbs,rate to $tmp/all.
run_pair() { # TRANSPORT TEST SIZE
  port=$(( 20000 + ($$ + ${RANDOM_SEED:-0}) % 20000 ))
  RANDOM_SEED=$(( ${RANDOM_SEED:-0} + 7 ))
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
    END { if (row == "") exit 1; split(row, f);
      print t "," test "," s "," f[2] "," f[6] "," f[8] }' "$tmp/cli" >>"$tmp/all" || {
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

# Medians per cell; latency tests keep the latency, the others the rates.
echo "transport,test,bytes,latency_us,MB_s,msg_s"
sort -t, -k1,1 -k2,2 -k3,3n "$tmp/all" | awk -F, '
  function median(list, n,   a, i, j, x) { split(list, a, " ");
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function flush() { if (key == "") return;
    lat = test ~ /_lat$/; print key "," (lat ? median(L, c) : "") "," (lat ? "" : median(B, c)) "," (lat ? "" : median(R, c)) }
  { k = $1 "," $2 "," $3; if (k != key) { flush(); key = k; test = $2; L = B = R = ""; c = 0 }
    L = L " " $4; B = B " " $5; R = R " " $6; c++ }
  END { flush() }'

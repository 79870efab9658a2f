#!/bin/sh
# check_trace.sh PROGDIR: runs testtrace (PROGDIR/tests/trace/testtrace) at
# 1, 2 and 3 nodes (GASNET_TRACE_TEST_NODES) under the conformance
# launcher with every node's trace and statistics files, and checks them
# against the program's known mix (the top of testtrace.c), K = 3:
#   - each node's trace holds exactly the mix's lines of the client's own
#     events: its AM requests, replies and handler runs (handlers 128-131),
#     puts and gets with their sizes and peer (a put's data, category D),
#     syncs, locks, barriers 7000.. and 9999, collectives initiated and
#     completed, collective syncs, its GASNETT_TRACE_PRINTF lines with their
#     source line (category N), the forced line, init, attach and exit;
#     and categories P, G, S, L, H, U, X have no other line;
#   - each node's statistics count the same events;
#   - gasnet_trace's job totals (--tsv) are the sums over the nodes, from
#     the traces and from the statistics, and its --json timeline parses
#     and holds one span per collective per node;
#   - GASNET_TRACEMASK=PG leaves lines of P and G only (and the one U line,
#     which no mask suppresses), GASNET_STATSMASK=A
#     counts only A, and GASNET_TRACELOCAL=0 on one node (the peer is the
#     node itself) leaves the puts and gets out of the trace but counted.
# Skips (exit 77) when the library has neither tracing nor statistics
# compiled in. Exits 1 on the first mismatch, naming it.
set -u
progdir=$1
prog=$progdir/tests/trace/testtrace
launcher=${GASNET_CONFORMANCE_LAUNCHER:?run by tests/conformance.sh}
here=$(dirname "$(readlink -f "$0")")
tool=$here/../../scripts/gasnet_trace
K=3

features=$("$prog" -features) || { echo "FAIL: $prog -features"; exit 1; }
case $features in
  'trace=0 stats=0') echo "SKIP: the library compiles in neither tracing nor statistics"; exit 77 ;;
  'trace=1 stats=1') ;;
  *) echo "FAIL: this check wants both compiled in, the library has: $features"; exit 1 ;;
esac
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed by gasnet_trace"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/trace-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*"
  exit 1
}

# expect FILE COUNT REGEX: exactly COUNT lines of FILE match REGEX.
expect() {
  got=$(grep -Ec -- "$3" "$1")
  [ "$got" -eq "$2" ] || fail "$(basename "$1"): $got lines match '$3', expected $2"
}

# run N DIR [VAR=VALUE...]: testtrace at N nodes, files in DIR.
run() {
  n=$1 dir=$2
  shift 2
  mkdir -p "$dir"
  out=$(env GASNET_TRACEFILE="$dir/trace-%" GASNET_STATSFILE="$dir/stats-%" "$@" \
    timeout -k 5 120 $launcher -n "$n" "$prog" -k $K 2>&1) || fail "testtrace at $n nodes: $out"
  case $out in *'testtrace: PASS'*) ;; *) fail "testtrace at $n nodes printed no PASS: $out" ;; esac
}

check_trace_node() { # FILE NODE NODES
  src=$1 me=$2 n=$3
  # Every line after a GASNETT_TRACE_SETSOURCELINE carries that position
  # (category N): the checks below look at the lines without it, but the
  # client's own lines.
  f=$work/$(basename "$(dirname "$src")")-$(basename "$src").plain
  sed -E 's/ @[^ ]*:[0-9]+$//' "$src" >"$f"
  p=$(((me + 1) % n)) q=$(((me + n - 1) % n))
  K3=$((3 * K)) K2=$((2 * K))
  head -n 1 "$f" | grep -q "^# gasnet trace: node $me of $n, " || fail "$src: header"
  expect "$f" $K " A AMREQUEST_SHORT dest=$p handler=128 args=1 bytes=0$"
  expect "$f" $K " A AMREQUEST_MEDIUM dest=$p handler=129 args=1 bytes=64 data="
  expect "$f" $K " A AMREQUEST_LONG dest=$p handler=130 args=1 bytes=128 data="
  expect "$f" $K3 " A AMREPLY_SHORT dest=$q handler=131 args=0 bytes=0$"
  expect "$f" $K " A AMHANDLER_REQUEST_SHORT src=$q handler=128 "
  expect "$f" $K " A AMHANDLER_REQUEST_MEDIUM src=$q handler=129 args=1 bytes=64"
  expect "$f" $K " A AMHANDLER_REQUEST_LONG src=$q handler=130 args=1 bytes=128"
  expect "$f" $K3 " A AMHANDLER_REPLY_SHORT src=$p handler=131 "
  expect "$f" $K " P gasnet_put node=$p bytes=8 remote=0x[0-9a-f]+ data=a5a5a5a5a5a5a5a5$"
  expect "$f" $K " P gasnet_put_nbi node=$p bytes=16 remote=0x[0-9a-f]+ data=(a5){16}$"
  expect "$f" $K2 " P "
  expect "$f" $K " G gasnet_get node=$p bytes=8 remote="
  expect "$f" $K " G gasnet_get_nb node=$p bytes=32 remote="
  expect "$f" $K2 " G "
  expect "$f" $K " S gasnet_wait_syncnb time_us=[0-9.]+$"
  expect "$f" $K " S gasnet_wait_syncnbi_all time_us=[0-9.]+$"
  expect "$f" $K2 " S "
  expect "$f" $K " L gasnet_hsl_lock hsl="
  expect "$f" $K2 " L gasnet_hsl_unlock hsl="
  expect "$f" $K " L gasnet_hsl_trylock hsl=0x[0-9a-f]+ result=ok$"
  expect "$f" $((4 * K)) " L "
  expect "$f" $K " B gasnet_barrier_notify id=70[0-9][0-9] flags=0x0$"
  expect "$f" $K " B gasnet_barrier_wait id=70[0-9][0-9] flags=0x0 result=ok time_us="
  expect "$f" 1 " B gasnet_barrier_notify id=9999 "
  expect "$f" 1 " B gasnet_barrier_wait id=9999 flags=0x0 result=ok "
  expect "$f" $K " W COLL_INIT op=broadcast team=[0-9]+ seq=[0-9]+ root=[0-9]+ bytes=64 flags=0x[0-9a-f]+ alg=[a-z_0-9]+ call=gasnet_coll_broadcast"
  expect "$f" $K " W COLL_INIT op=gather_all team=[0-9]+ seq=[0-9]+ root=[0-9]+ bytes=16 .*call=gasnet_coll_gather_all"
  expect "$f" $K " W COLL_DONE op=broadcast team=[0-9]+ seq=[0-9]+ alg=[a-z_0-9]+ time_us="
  expect "$f" $K " W COLL_DONE op=gather_all "
  expect "$f" $K2 " W COLL_INIT "
  expect "$f" $K2 " W COLL_DONE "
  expect "$f" $K2 " X gasnet_coll_wait_sync time_us="
  expect "$f" $K2 " X "
  expect "$src" $K " H testtrace iteration [0-9]+ @[^ ]*testtrace.c:[0-9]+$"
  expect "$f" $K " H "
  expect "$f" 1 " U testtrace done"
  expect "$f" 1 " I INIT nodes=$n pid="
  expect "$f" 1 " I ATTACH segaddr="
  expect "$f" 1 " I EXIT code=0$"
  # every line: NODE THREAD MICROSECONDS CAT TEXT
  bad=$(grep -v '^#' "$f" | grep -Evc "^$me [0-9]+ [0-9]+\.[0-9]{3} [A-Z] [^ ]")
  [ "$bad" -eq 0 ] || fail "$f: $bad lines not of the form 'NODE THREAD US CAT TEXT'"
}

# stat FILE COUNT REGEX: the statistics line matching REGEX says count=COUNT.
stat_count() {
  line=$(grep -E -- "$3" "$1" | head -n 1)
  [ -n "$line" ] || fail "$(basename "$1"): no statistics line matches '$3'"
  got=$(echo "$line" | sed -E 's/.* count=([0-9]+) .*/\1/')
  [ "$got" -eq "$2" ] || fail "$(basename "$1"): '$line' counts $got, expected $2"
}

check_stats_node() { # FILE NODE NODES
  f=$1 me=$2 n=$3
  head -n 1 "$f" | grep -q "^# gasnet statistics: node $me of $n, " || fail "$f: header"
  stat_count "$f" $K "^A AMREQUEST_SHORT count="
  stat_count "$f" $K "^A AMREQUEST_MEDIUM count=[0-9]+ unit=B total=$((64 * K)) "
  stat_count "$f" $K "^A AMREQUEST_LONG count=[0-9]+ unit=B total=$((128 * K)) "
  stat_count "$f" $((3 * K)) "^A AMREPLY_SHORT count="
  stat_count "$f" $((3 * K)) "^A AMHANDLER_REPLY_SHORT count="
  stat_count "$f" $K "^P gasnet_put count=[0-9]+ unit=B total=$((8 * K)) min=8 max=8 hist=8:$K$"
  stat_count "$f" $K "^P gasnet_put_nbi count=[0-9]+ unit=B total=$((16 * K)) "
  stat_count "$f" $K "^G gasnet_get count=[0-9]+ unit=B total=$((8 * K)) "
  stat_count "$f" $K "^G gasnet_get_nb count=[0-9]+ unit=B total=$((32 * K)) "
  stat_count "$f" $K "^S gasnet_wait_syncnb count=[0-9]+ unit=ns "
  stat_count "$f" $K "^S gasnet_wait_syncnbi_all count=[0-9]+ unit=ns "
  stat_count "$f" $((2 * K)) "^L gasnet_hsl_unlock count=[0-9]+ unit=-$"
  stat_count "$f" $((2 * K)) "^X gasnet_coll_wait_sync count=[0-9]+ unit=ns "
  for op in broadcast gather_all; do
    got=$(awk -v op="$op" '$1 == "W" && $2 == op && / unit=B / { sub(/.* count=/, ""); sub(/ .*/, ""); s += $0 } END { print s + 0 }' "$f")
    [ "$got" -eq $K ] || fail "$(basename "$f"): $got ${op}s counted, expected $K"
  done
}

# tsv_count TSV SCOPE CAT EVENT: the count gasnet_trace --tsv gives.
tsv_count() {
  awk -F '\t' -v s="$2" -v c="$3" -v e="$4" '$1 == s && $2 == c && $3 == e { n += $5 } END { print n + 0 }' "$1"
}

check_tool() { # DIR NODES
  dir=$1 n=$2
  python3 "$tool" --tsv --json "$dir/timeline.json" "$dir"/trace-* >"$dir/trace.tsv" ||
    fail "gasnet_trace on the traces"
  python3 "$tool" --tsv "$dir"/stats-* >"$dir/stats.tsv" || fail "gasnet_trace on the statistics"
  python3 "$tool" "$dir"/trace-* >/dev/null || fail "gasnet_trace's tables"
  for ev in gasnet_put gasnet_get_nb gasnet_wait_syncnb; do
    case $ev in gasnet_put) c=P ;; gasnet_get_nb) c=G ;; *) c=S ;; esac
    sum=0
    for f in "$dir"/trace-*; do sum=$((sum + $(grep -c " $c $ev " "$f"))); done
    [ "$(tsv_count "$dir/trace.tsv" job $c $ev)" -eq $sum ] ||
      fail "gasnet_trace --tsv (traces): job $c $ev is not the nodes' $sum"
    [ "$(tsv_count "$dir/stats.tsv" job $c $ev)" -eq $((n * K)) ] ||
      fail "gasnet_trace --tsv (statistics): job $c $ev is not $((n * K))"
  done
  python3 - "$dir" "$n" <<'EOF' || fail "the --json timeline"
import json, sys, glob, collections
d, n = sys.argv[1], int(sys.argv[2])
events = json.load(open(d + "/timeline.json"))["traceEvents"]
spans = collections.Counter(e["pid"] for e in events if e.get("ph") == "X" and e.get("cat") == "coll")
for node in range(n):
    inits = sum(1 for line in open("%s/trace-%d" % (d, node)) if " W COLL_INIT " in line)
    if spans[node] != inits or inits == 0:
        sys.exit("node %d: %d spans for %d collectives" % (node, spans[node], inits))
EOF
}

nodes_list=${GASNET_TRACE_TEST_NODES:-1 2 3}
for n in $nodes_list; do
  dir=$work/n$n
  run "$n" "$dir"
  r=0
  while [ $r -lt "$n" ]; do
    [ -f "$dir/trace-$r" ] || fail "no trace file of node $r at $n nodes"
    [ -f "$dir/stats-$r" ] || fail "no statistics file of node $r at $n nodes"
    check_trace_node "$dir/trace-$r" $r "$n"
    check_stats_node "$dir/stats-$r" $r "$n"
    r=$((r + 1))
  done
  check_tool "$dir" "$n"
  echo "ok   $n node(s): traces, statistics and gasnet_trace agree with the mix"
done

# Masks: only the categories asked for.
n=2
dir=$work/mask
run $n "$dir" GASNET_TRACEMASK=PG GASNET_STATSMASK=A
for f in "$dir"/trace-*; do
  other=$(grep -v '^#' "$f" | grep -Evc '^[0-9]+ [0-9]+ [0-9.]+ [PGU] ')
  [ "$other" -eq 0 ] || fail "GASNET_TRACEMASK=PG: $f has $other lines of other categories (U, unsuppressable, aside)"
  expect "$f" $((2 * K)) " P "
done
for f in "$dir"/stats-*; do
  other=$(grep -v '^#' "$f" | grep -vc '^A ')
  [ "$other" -eq 0 ] || fail "GASNET_STATSMASK=A: $f counts $other kinds of other categories"
done
echo "ok   GASNET_TRACEMASK=PG and GASNET_STATSMASK=A keep the other categories out"

# TRACELOCAL: at one node every put and get is local.
dir=$work/local
run 1 "$dir" GASNET_TRACELOCAL=0
expect "$dir/trace-0" 0 " [PG] "
stat_count "$dir/stats-0" $K "^P gasnet_put count="
echo "ok   GASNET_TRACELOCAL=0 leaves local puts and gets out of the trace, counted"
echo "check_trace: PASS"

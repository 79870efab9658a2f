#!/bin/sh
# collperf_all.sh [-n NODES] [-b BUILDDIR] [-c] [COLLPERF-ARGS...]
# collperf_all.sh -f CSVFILE      (format the CSV of an earlier -c run)
#
# Runs tests/perf/collperf once with the selector's choice ("auto") and
# once per algorithm name (collperf -a ALG forces it for every op that has
# it; the selector reads GASNET_COLL_<OP>_ALG only in gasnet_coll_init, so
# each algorithm is a separate job), then joins the results: for each op
# and sync variant, a table with one row per block size and one column per
# algorithm (median latency in microseconds). With -c, prints the joined
# CSV instead. Extra arguments go to every collperf run (e.g. -m 64K -r 5).
#
#   NODES     node count (default 4)
#   BUILDDIR  the top build dir (default: the current directory)
set -u
nodes=4
builddir=.
csv=0
from=
while [ $# -gt 0 ]; do
  case $1 in
    -n) nodes=$2; shift 2 ;;
    -b) builddir=$2; shift 2 ;;
    -c) csv=1; shift ;;
    -f) from=$2; shift 2 ;;
    *) break ;;
  esac
done

# format CSV: op,alg,nodes,bytes,sync,usec_median,usec_min,images_per_node
# -> one table per (op, sync).
format() {
  awk -F, '
  NR == 1 { next }
  {
    key = $1 SUBSEP $5
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
    if (!(($1, $2) in hasalg)) { hasalg[$1, $2] = 1; algs[$1] = algs[$1] " " $2 }
    if (!(($1, $4) in hassize)) { hassize[$1, $4] = 1; sizes[$1] = sizes[$1] " " $4 }
    v[$1, $5, $2, $4] = $6
    nodes = $3
  }
  END {
    syncname["all"] = "IN_ALLSYNC|OUT_ALLSYNC"
    syncname["no"] = "IN_NOSYNC|OUT_NOSYNC"
    syncname["my"] = "IN_MYSYNC|OUT_MYSYNC"
    for (k = 1; k <= nk; k++) {
      split(keys[k], ks, SUBSEP)
      op = ks[1]; sync = ks[2]
      na = split(substr(algs[op], 2), al, " ")
      ns = split(substr(sizes[op], 2), sz, " ")
      printf "\n%s, %s, %d nodes: median latency (us)\n", op, syncname[sync], nodes
      printf "%10s", "bytes"
      for (a = 1; a <= na; a++) printf " %12s", al[a]
      printf "\n"
      for (s = 1; s <= ns; s++) {
        printf "%10s", sz[s]
        for (a = 1; a <= na; a++) {
          x = v[op, sync, al[a], sz[s]]
          if (x == "") printf " %12s", "-"; else printf " %12.2f", x
        }
        printf "\n"
      }
    }
  }' "$1"
}

if [ -n "$from" ]; then
  format "$from"
  exit $?
fi

perf=$builddir/conformance/smp/tests/perf/collperf
sh "$(dirname "$0")/../conformance.sh" -B -b "$builddir" smp >/dev/null 2>&1 ||
  { echo "collperf_all: collperf does not build for the smp conduit" >&2; exit 2; }
launcher=${GASNET_TEST_LAUNCHER:-$builddir/conduits/smp/gasnetrun_smp}
[ -x "$perf" ] || { echo "collperf_all: no $perf (build it with make)" >&2; exit 2; }

tmp=$(mktemp "${TMPDIR:-/tmp}/collperf_all.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

first=1
for alg in auto flat binomial binary knomial dissem gather_bcast staggered bruck put put_tree direct pipe scatter_allgather flow ring pairwise chain; do
  "$launcher" -n "$nodes" "$perf" -c -a "$alg" "$@" >"$tmp.one" 2>"$tmp.err" || {
    echo "collperf_all: collperf -a $alg failed:" >&2
    cat "$tmp.err" >&2
    rm -f "$tmp.one" "$tmp.err"
    exit 1
  }
  if [ $first = 1 ]; then cat "$tmp.one"; first=0; else tail -n +2 "$tmp.one"; fi
done >"$tmp"
rm -f "$tmp.one" "$tmp.err"

if [ $csv = 1 ]; then
  cat "$tmp"
  exit 0
fi

format "$tmp"

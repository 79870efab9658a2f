#!/bin/sh
# compare_mpi.sh [-b BUILDDIR] [-n NODES] [-k RUNS] [-t TABLES] [-s SYNC]
#                [-o OPS] [-l SIZES] [-d BUFFERS] [-T SECONDS] [-c] [BENCH-ARGS...]
#
# The collectives against Open MPI's own, measured in one run: each of RUNS
# rounds runs, one after the other, tests/perf/collperf on the smp conduit,
# on the mpi conduit with its shared memory and on the mpi conduit over TCP
# without it, and tests/perf/mpicollperf (the same loops through
# MPI_Bcast, MPI_Scatter, ...) over Open MPI's shared-memory and TCP
# transports, so every program sees the same share of a noisy machine.
# Per (op, bytes) a cell is the median over the rounds of each run's
# median; the tables give ours, Open MPI's and ours / Open MPI, and the
# copy floor: one memcpy of the same size by every process at once
# (mpicollperf's memcpy, in the shared-memory job; 0 without table shm or
# pshm); and beside gather_all and exchange what moving their bytes takes
# when each is copied once: every process copies its own block, then reads
# each other process's straight from its buffer (mpicollperf's
# move_gather_all and move_exchange; 0 where the kernel refuses
# cross-memory reads), and the same bytes copied twice through shared
# memory, with no cross-memory read (stage_gather_all and stage_exchange:
# faster than the move only while the processes share a core's caches,
# docs/performance.md). Tables shm and pshm divide by the same Open MPI
# job, so their ours/MPI columns compare the two conduits too. Every round
# starts each job anew, so the last two columns, the slowest round's time
# over the fastest's for each side, say how far separate runs of the same
# point spread (the min / median / max of every point are in the CSV).
#
#   BUILDDIR  the top build dir (default .); it needs tests/perf/mpicollperf
#             (`make`) and collperf built for the smp conduit and, for tables
#             pshm and mpi, the mpi conduit (conformance/<conduit>/tests/perf/collperf:
#             this script builds them with tests/conformance.sh -B)
#   NODES     processes (default 2); mpirun gets --oversubscribe when they
#             outnumber the cores
#   RUNS      rounds (default 3)
#   TABLES    comma list (default shm,pshm,tcp,mpi):
#               shm  smp conduit  vs Open MPI, --mca btl self,vader
#               pshm mpi conduit with its shared memory (one supernode,
#                    the default on one host) vs Open MPI, self,vader
#               tcp  smp conduit  vs Open MPI, --mca btl self,tcp (loopback)
#               mpi  mpi conduit over TCP (GASNET_SUPERNODE_MAXSIZE=1: every
#                    AM through MPI) vs Open MPI over TCP (the same
#                    transport options, through GASNET_MPIRUN_ARGS)
#             and, when asked for (not in the default):
#               ucx    ucx conduit (the host's processes one supernode:
#                      the shared-memory layer) vs Open MPI over its UCX
#                      pml with UCX's default transports (its shared memory
#                      here)
#               ucxshm the same, ours with GASNET_SUPERNODE_MAXSIZE=1:
#                      every AM through UCX's shared memory too
#               ucxtcp ours with GASNET_SUPERNODE_MAXSIZE=1, both with
#                      UCX_TLS=tcp,self
#   SYNC      my (default) or all: ours with IN_MYSYNC|OUT_MYSYNC or
#             IN_ALLSYNC|OUT_ALLSYNC; mpicollperf's twin of each (the top
#             of tests/perf/mpicollperf.c)
#   OPS       default broadcast,scatter,gather,gather_all,exchange,reduce,scan
#   SIZES     default 8,4K,64K,1M
#   BUFFERS   local (default) or segment: ours with malloc'd buffers and
#             LOCAL addressing (collperf -O), as MPI's are, or with
#             buffers in the segment and SRC_/DST_IN_SEGMENT (collperf's
#             default), where the put-based algorithms are eligible.
#             Open MPI always uses its own malloc'd buffers.
#   SECONDS   the time limit of each job (default 600); a job that runs
#             out of it fails the script, naming the job
#   -c        CSV instead: table,op,bytes,sync,nodes,ours_us,mpi_us,ratio,memcpy_us,buffers,
#             move_us,stage_us (both 0 but for gather_all and exchange),
#             ours_min_us,ours_max_us,mpi_min_us,mpi_max_us (over the rounds)
#   BENCH-ARGS  more options for both programs (e.g. -i 50 -r 5)
#
# Every call of ours is the blocking form with LOCAL addressing. Exits 1
# if a job fails or a table lacks a cell (every op at every size), 2 on
# bad usage or a missing program.
set -u
builddir=.
nodes=2
runs=3
tables=shm,pshm,tcp,mpi
sync=my
ops=broadcast,scatter,gather,gather_all,exchange,reduce,scan
sizes=8,4K,64K,1M
buffers=local
csv=0
limit=600
while [ $# -gt 0 ]; do
  case $1 in
    -b) builddir=$2; shift 2 ;;
    -n) nodes=$2; shift 2 ;;
    -k) runs=$2; shift 2 ;;
    -t) tables=$2; shift 2 ;;
    -s) sync=$2; shift 2 ;;
    -o) ops=$2; shift 2 ;;
    -l) sizes=$2; shift 2 ;;
    -d) buffers=$2; shift 2 ;;
    -T) limit=$2; shift 2 ;;
    -c) csv=1; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done
case $sync in my | all) ;; *) echo "compare_mpi: -s is my or all" >&2; exit 2 ;; esac
case $buffers in
  local) where=-O ;;
  segment) where= ;;
  *) echo "compare_mpi: -d is local or segment, not '$buffers'" >&2; exit 2 ;;
esac

need() { # $1 = program, $2 = how to get it
  [ -x "$1" ] || { echo "compare_mpi: no $1 ($2)" >&2; exit 2; }
}
smp_run=$builddir/conduits/smp/gasnetrun_smp
mpi_run=$builddir/conduits/mpi/gasnetrun_mpi
ours=$builddir/conformance/smp/tests/perf/collperf
ours_mpi=$builddir/conformance/mpi/tests/perf/collperf
ours_ucx=$builddir/conformance/ucx/tests/perf/collperf
ucx_run=$builddir/conduits/ucx/gasnetrun_ucx
twin=$builddir/tests/perf/mpicollperf
if [ ! -x "$mpi_run" ]; then
  echo "SKIP: $mpi_run is missing (configure found no MPI)"
  exit 77
fi
need "$twin" "make tests/perf/mpicollperf"
build_ours() { # CONDUIT
  sh "$(dirname "$0")/../conformance.sh" -B -b "$builddir" "$1" >/dev/null 2>&1 ||
    { echo "compare_mpi: the test programs do not build for the $1 conduit" >&2; exit 2; }
}
build_ours smp
need "$ours" "tests/conformance.sh -B smp"
case ,$tables, in *,mpi,* | *,pshm,*) build_ours mpi; need "$ours_mpi" "tests/conformance.sh -B mpi" ;; esac
case ,$tables, in *,ucx,* | *,ucxshm,* | *,ucxtcp,*) build_ours ucx; need "$ours_ucx" "configure found UCX" ;; esac
# Open MPI over UCX: its UCX pml, allowed every transport and device UCX
# offers (by default Open MPI takes the pml only on InfiniBand-class ones).
UCX_PML_ARGS="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"

# shellcheck source=tests/perf/compare_lib.sh
. "$(dirname "$0")/compare_lib.sh"
compare_mpirun_setup "$mpi_run" "$nodes"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_mpi.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# job NAME ROUND COMMAND...: one job (compare_job); collperf's yardstick
# rows (reduce_floors, ...) go.
job() {
  jn=$1 jr=$2
  shift 2
  compare_job compare_mpi "$jn" "$jr" '_floors$' "$@"
}

bench="-c -s $sync -o $ops -l $sizes"
has() { case ,$tables, in *,$1,*) return 0 ;; esac; return 1; }
: >"$tmp/all"
r=1
while [ "$r" -le "$runs" ]; do
  # shellcheck disable=SC2086 # option lists are split into words on purpose
  {
    job ours_smp "$r" "$smp_run" -n "$nodes" "$ours" $where $bench "$@"
    if has pshm; then
      job ours_pshm "$r" env GASNET_MPIRUN_ARGS="$SHM_ARGS" "$mpi_run" -n "$nodes" "$ours_mpi" $where $bench "$@"
    fi
    if has mpi; then
      job ours_mpi "$r" env GASNET_MPIRUN_ARGS="$TCP_ARGS" GASNET_SUPERNODE_MAXSIZE=1 "$mpi_run" -n "$nodes" "$ours_mpi" $where $bench "$@"
    fi
    if has shm || has pshm; then
      job mpi_shm "$r" "$MPIRUN" $mpirun_opts $SHM_ARGS -np "$nodes" "$twin" -c -s "$sync" -o "$ops,memcpy,move_gather_all,move_exchange,stage_gather_all,stage_exchange" -l "$sizes" "$@"
    fi
    if has tcp || has mpi; then
      job mpi_tcp "$r" "$MPIRUN" $mpirun_opts $TCP_ARGS -np "$nodes" "$twin" $bench "$@"
    fi
    if has ucx || has ucxshm; then
      job mpi_ucx "$r" "$MPIRUN" $mpirun_opts $UCX_PML_ARGS -np "$nodes" "$twin" $bench "$@"
    fi
    if has ucx; then
      job ours_ucx "$r" "$ucx_run" -n "$nodes" "$ours_ucx" $where $bench "$@"
    fi
    if has ucxshm; then
      job ours_ucxshm "$r" env GASNET_SUPERNODE_MAXSIZE=1 "$ucx_run" -n "$nodes" "$ours_ucx" $where $bench "$@"
    fi
    if has ucxtcp; then
      job ours_ucxtcp "$r" env UCX_TLS=tcp,self GASNET_SUPERNODE_MAXSIZE=1 "$ucx_run" -n "$nodes" "$ours_ucx" $where $bench "$@"
      job mpi_ucxtcp "$r" "$MPIRUN" $mpirun_opts $UCX_PML_ARGS -x UCX_TLS=tcp,self -np "$nodes" "$twin" $bench "$@"
    fi
  }
  r=$((r + 1))
done

# The tables: NAME, ours' job, MPI's job, title.
{
  has shm && echo "shm,ours_smp,mpi_shm,smp conduit vs Open MPI over shared memory ($SHM_ARGS)"
  has pshm && echo "pshm,ours_pshm,mpi_shm,mpi conduit with shared memory vs Open MPI over shared memory ($SHM_ARGS)"
  has tcp && echo "tcp,ours_smp,mpi_tcp,smp conduit vs Open MPI over TCP ($TCP_ARGS)"
  has mpi && echo "mpi,ours_mpi,mpi_tcp,mpi conduit over TCP, no shared memory, vs Open MPI over TCP ($TCP_ARGS)"
  has ucx && echo "ucx,ours_ucx,mpi_ucx,ucx conduit vs Open MPI over its UCX pml, UCX's default transports"
  has ucxshm && echo "ucxshm,ours_ucxshm,mpi_ucx,ucx conduit without supernodes (UCX's shared memory) vs Open MPI over its UCX pml"
  has ucxtcp && echo "ucxtcp,ours_ucxtcp,mpi_ucxtcp,ucx conduit vs Open MPI over its UCX pml, both UCX_TLS=tcp,self"
} >"$tmp/tables"

# Rows NAME,op,alg,nodes,bytes,sync,med,min,images -> the tables (or the
# CSV); exit 1 when a table lacks (op, bytes) for some op or size.
awk -F, -v csv="$csv" -v buffers="$buffers" -v ops="$ops" -v nsizes="$(echo "$sizes" | tr , '\n' | grep -c .)" -v runs="$runs" -v nodes="$nodes" -v sync="$sync" '
  function median(key,    n, i, j, t, a) {
    n = cnt[key]
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  # The fastest (want < 0) or slowest round of key.
  function extreme(key, want,    i, v) {
    v = val[key, 1]
    for (i = 2; i <= cnt[key]; i++) if ((val[key, i] - v) * want > 0) v = val[key, i]
    return v
  }
  function spread(key,    lo) { lo = extreme(key, -1); return lo > 0 ? extreme(key, 1) / lo : 0 }
  # The schedule `kind` (move, stage) of op o at z bytes in the
  # shared-memory twin job: only gather_all and exchange have one; 0 without.
  function schedule(kind, o, z,    k) {
    k = "mpi_shm" SUBSEP kind "_" o SUBSEP z
    return (k in cnt) ? median(k) : 0
  }
  function cell(v) { return v > 0 ? sprintf("%.2f", v) : "-" }
  FILENAME ~ /tables$/ { nt++; tname[nt] = $1; tours[nt] = $2; tmpi[nt] = $3
                         ttitle[nt] = substr($0, length($1 $2 $3) + 4); next }
  {
    key = $1 SUBSEP $2 SUBSEP $5
    val[key, ++cnt[key]] = $7
    if (!(($2, $5) in seen)) { seen[$2, $5] = 1; sizes[$2] = sizes[$2] " " $5 }
  }
  END {
    nops = split(ops, op, ",")
    syncname = sync == "my" ? "IN_MYSYNC|OUT_MYSYNC" : "IN_ALLSYNC|OUT_ALLSYNC"
    if (csv) print "table,op,bytes,sync,nodes,ours_us,mpi_us,ratio,memcpy_us,buffers,move_us,stage_us," \
                   "ours_min_us,ours_max_us,mpi_min_us,mpi_max_us"
    bufname = buffers == "local" ? "malloc'\''d buffers" : "buffers in the segment (SRC_/DST_IN_SEGMENT)"
    bad = 0
    for (t = 1; t <= nt; t++) {
      if (!csv) {
        printf "\n%s, %d processes\n", ttitle[t], nodes
        printf "ours: %s, LOCAL, %s; Open MPI: %s; median of %d runs (us)\n", \
          syncname, bufname, sync == "my" ? "the calls back to back" : "MPI_Barrier, call, MPI_Barrier", runs
        printf "%-11s %8s %11s %11s %9s %9s %9s %9s %12s %11s\n", "op", "bytes", "ours", "Open MPI", "ours/MPI", \
          "memcpy", "move", "stage", "ours max/min", "MPI max/min"
      }
      for (o = 1; o <= nops; o++) {
        ns = split(substr(sizes[op[o]], 2), sz, " ")
        if (ns != nsizes) {
          printf "compare_mpi: %s has %d sizes, not %d\n", op[o], ns, nsizes > "/dev/stderr"; bad = 1
        }
        for (s = 1; s <= ns; s++) {
          ko = tours[t] SUBSEP op[o] SUBSEP sz[s]; km = tmpi[t] SUBSEP op[o] SUBSEP sz[s]
          if (!(ko in cnt) || !(km in cnt)) {
            printf "compare_mpi: table %s lacks %s at %s bytes\n", tname[t], op[o], sz[s] > "/dev/stderr"
            bad = 1; continue
          }
          a = median(ko); b = median(km); ratio = b > 0 ? a / b : 0
          kf = "mpi_shm" SUBSEP "memcpy" SUBSEP sz[s]; f = (kf in cnt) ? median(kf) : 0
          mv = schedule("move", op[o], sz[s]); sg = schedule("stage", op[o], sz[s])
          if (csv) printf "%s,%s,%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", \
            tname[t], op[o], sz[s], sync, nodes, a, b, ratio, f, buffers, mv, sg, \
            extreme(ko, -1), extreme(ko, 1), extreme(km, -1), extreme(km, 1)
          else printf "%-11s %8s %11.2f %11.2f %9.2f %9.2f %9s %9s %12.2f %11.2f\n", op[o], sz[s], a, b, \
            ratio, f, cell(mv), cell(sg), spread(ko), spread(km)
        }
      }
    }
    exit bad
  }' "$tmp/tables" "$tmp/all"

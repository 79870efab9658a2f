#!/bin/sh
# compare_am_mpi.sh [-b BUILDDIR] [-n NODES] [-k RUNS] [-t TABLES] [-T SECONDS]
#                   [-c] [BENCH-ARGS...]
#
# Active-message throughput against MPI point-to-point, measured in one
# run: each of RUNS rounds runs, one after the other, tests/perf/amflood
# on the smp conduit, on the mpi conduit with its shared memory and on the
# mpi conduit over TCP without it, and tests/perf/mpiamflood (the same
# floods and frontier through MPI_Isend/Irecv/Testsome) over Open MPI's
# shared-memory and TCP transports, so that every program sees the same
# share of a noisy machine. A cell is the median over the rounds of each
# run's rate (messages or updates per second); ours/MPI above 1 means
# ours is faster. After each table, the line "frontier_a vs MPI's best
# frontier_b" sets ours one-update-per-message rate against MPI's best
# packed rate (what a client gains by not packing by hand).
#
#   BUILDDIR  the top build dir (default .): it needs tests/perf/mpiamflood
#             (`make`); amflood is built here for the smp and mpi conduits
#             (tests/conformance.sh -B)
#   NODES     processes (default 2); --oversubscribe when they outnumber
#             the cores
#   RUNS      rounds (default 3)
#   TABLES    comma list (default shm,pshm,mpi):
#               shm  smp conduit vs Open MPI, --mca btl self,vader
#               pshm mpi conduit with its shared memory vs the same
#               mpi  mpi conduit over TCP (GASNET_SUPERNODE_MAXSIZE=1) vs
#                    Open MPI over TCP (--mca btl self,tcp, loopback)
#   SECONDS   the time limit of each job (default 600)
#   -c        CSV: table,test,kind,bytes,nodes,ours_rate,mpi_rate,ratio
#   BENCH-ARGS  options for both programs (amflood_common.h: -i -r -w -m
#             -R -u -t -T -v)
#
# Exits 1 if a job fails (a lost or damaged message fails it) or a row of
# ours has no twin, 2 on bad usage or a missing program, 77 without MPI.
set -u
builddir=.
nodes=2
runs=3
tables=shm,pshm,mpi
csv=0
limit=600
while [ $# -gt 0 ]; do
  case $1 in
    -b) builddir=$2; shift 2 ;;
    -n) nodes=$2; shift 2 ;;
    -k) runs=$2; shift 2 ;;
    -t) tables=$2; shift 2 ;;
    -T) limit=$2; shift 2 ;;
    -c) csv=1; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done

smp_run=$builddir/conduits/smp/gasnetrun_smp
mpi_run=$builddir/conduits/mpi/gasnetrun_mpi
ours=$builddir/conformance/smp/tests/perf/amflood
ours_mpi=$builddir/conformance/mpi/tests/perf/amflood
twin=$builddir/tests/perf/mpiamflood
if [ ! -x "$mpi_run" ]; then
  echo "SKIP: $mpi_run is missing (configure found no MPI)"
  exit 77
fi
need() { [ -x "$1" ] || { echo "compare_am_mpi: no $1 ($2)" >&2; exit 2; }; }
need "$twin" "make tests/perf/mpiamflood"
has() { case ,$tables, in *,$1,*) return 0 ;; esac; return 1; }
for c in smp mpi; do
  sh "$(dirname "$0")/../conformance.sh" -B -b "$builddir" "$c" >/dev/null 2>&1 ||
    { echo "compare_am_mpi: the test programs do not build for the $c conduit" >&2; exit 2; }
done
need "$ours" "tests/conformance.sh -B smp"
need "$ours_mpi" "tests/conformance.sh -B mpi"

# shellcheck source=tests/perf/compare_lib.sh
. "$(dirname "$0")/compare_lib.sh"
compare_mpirun_setup "$mpi_run" "$nodes"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_am.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# job NAME ROUND COMMAND...: one job (compare_job), every row kept.
job() {
  jn=$1 jr=$2
  shift 2
  compare_job compare_am_mpi "$jn" "$jr" '' "$@"
}

: >"$tmp/all"
r=1
while [ "$r" -le "$runs" ]; do
  # shellcheck disable=SC2086 # option lists are split into words on purpose
  {
    has shm && job ours_smp "$r" "$smp_run" -n "$nodes" "$ours" -c "$@"
    has pshm && job ours_pshm "$r" env GASNET_MPIRUN_ARGS="$SHM_ARGS" "$mpi_run" -n "$nodes" "$ours_mpi" -c "$@"
    has mpi && job ours_mpi "$r" env GASNET_MPIRUN_ARGS="$TCP_ARGS" GASNET_SUPERNODE_MAXSIZE=1 "$mpi_run" -n "$nodes" "$ours_mpi" -c "$@"
    if has shm || has pshm; then
      job mpi_shm "$r" "$MPIRUN" $mpirun_opts $SHM_ARGS -np "$nodes" "$twin" -c "$@"
    fi
    has mpi && job mpi_tcp "$r" "$MPIRUN" $mpirun_opts $TCP_ARGS -np "$nodes" "$twin" -c "$@"
  }
  r=$((r + 1))
done

{
  has shm && echo "shm,ours_smp,mpi_shm,smp conduit vs Open MPI over shared memory ($SHM_ARGS)"
  has pshm && echo "pshm,ours_pshm,mpi_shm,mpi conduit with shared memory vs Open MPI over shared memory ($SHM_ARGS)"
  has mpi && echo "mpi,ours_mpi,mpi_tcp,mpi conduit over TCP, no shared memory, vs Open MPI over TCP ($TCP_ARGS)"
} >"$tmp/tables"

# Rows NAME,test,kind,bytes,nodes,window,count,usec,rate,mbs -> tables.
awk -F, -v csv="$csv" -v runs="$runs" -v nodes="$nodes" '
  function median(key,    n, i, j, t, a) {
    n = cnt[key]
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  FILENAME ~ /tables$/ { nt++; tname[nt] = $1; tours[nt] = $2; tmpi[nt] = $3
                         ttitle[nt] = substr($0, length($1 $2 $3) + 4); next }
  {
    row = $2 SUBSEP $3 SUBSEP $4
    key = $1 SUBSEP row
    val[key, ++cnt[key]] = $9
    if (!(($1, "order", row) in seen)) { seen[$1, "order", row] = 1; order[$1, ++nrows[$1]] = row }
  }
  END {
    if (csv) print "table,test,kind,bytes,nodes,ours_rate,mpi_rate,ratio"
    bad = 0
    for (t = 1; t <= nt; t++) {
      o = tours[t]; m = tmpi[t]
      if (!nrows[o]) { printf "compare_am_mpi: no rows from %s\n", o > "/dev/stderr"; bad = 1; continue }
      if (!csv) {
        printf "\n%s, %d processes, median of %d runs\n", ttitle[t], nodes, runs
        printf "%-10s %-6s %8s %14s %14s %9s\n", "test", "kind", "bytes", "ours/s", "MPI/s", "ours/MPI"
      }
      best_b = 0; ours_a = 0
      for (i = 1; i <= nrows[o]; i++) {
        row = order[o, i]; split(row, f, SUBSEP)
        if (!((m SUBSEP row) in cnt)) {
          printf "compare_am_mpi: table %s: %s %s %s has no MPI twin\n", tname[t], f[1], f[2], f[3] > "/dev/stderr"
          bad = 1; continue
        }
        a = median(o SUBSEP row); b = median(m SUBSEP row); ratio = b > 0 ? a / b : 0
        if (f[1] == "frontier_a") ours_a = a
        if (f[1] == "frontier_b" && b > best_b) best_b = b
        if (csv) printf "%s,%s,%s,%s,%d,%.0f,%.0f,%.3f\n", tname[t], f[1], f[2], f[3], nodes, a, b, ratio
        else printf "%-10s %-6s %8s %14.0f %14.0f %9.2f\n", f[1], f[2], f[3], a, b, ratio
      }
      if (ours_a > 0 && best_b > 0) {
        if (csv) printf "%s,frontier_a_vs_mpi_best_b,poll1,16,%d,%.0f,%.0f,%.3f\n", tname[t], nodes, ours_a, best_b, ours_a / best_b
        else printf "frontier_a vs MPI'"'"'s best frontier_b: %.2f\n", ours_a / best_b
      }
    }
    exit bad
  }' "$tmp/tables" "$tmp/all"

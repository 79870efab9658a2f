#!/bin/sh
# compare_putget_mpi.sh: the mpi conduit's put/get against MPI's own, in
# one run: for each transport, putgetperf with one-sided RMA off (the AM
# protocols) and on, and mpiputperf (MPI_Put / MPI_Get on the same kind of
# window, and MPI's ping-pong), round after round, so every program sees
# the same share of a noisy machine. Prints, per transport, a latency and
# a bandwidth table of the medians over the rounds (each round's figure is
# already a median of -r repetitions), and the put bandwidth as a share
# of MPI's.
#
# Usage: compare_putget_mpi.sh -b BUILDDIR [-k ROUNDS] [-r REPS] [-i ITERS]
#                              [-m MAXSIZE] [-t TRANSPORTS] [-T SECONDS]
#   -k  rounds (default 3)          -r  repetitions per round (default 3)
#   -i  iterations (default 500)    -m  largest size (default 4194304)
#   -t  comma list of vader, tcp (Open MPI's) or default (no options:
#       MPICH) (default vader,tcp)
#   -T  time limit of one job (default 600 s)
# Over TCP, Open MPI makes no window with Debian's defaults, so RMA runs
# there with osc/ucx (OMPI_MCA_osc=ucx, for the conduit and mpiputperf
# alike), which waits for the target's progress: docs/mpi-conduit.md.
set -u
builddir= rounds=3 reps=3 iters=500 maxsize=4194304 transports=vader,tcp limit=600
while [ $# -gt 0 ]; do
  case $1 in
    -b) builddir=$2; shift 2 ;;
    -k) rounds=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -i) iters=$2; shift 2 ;;
    -m) maxsize=$2; shift 2 ;;
    -t) transports=$2; shift 2 ;;
    -T) limit=$2; shift 2 ;;
    *) echo "usage: $0 -b BUILDDIR [-k ROUNDS] [-r REPS] [-i ITERS] [-m MAX] [-t LIST] [-T S]" >&2
       exit 2 ;;
  esac
done
[ -n "$builddir" ] || { echo "compare_putget_mpi: -b BUILDDIR is required" >&2; exit 2; }
run=$builddir/conduits/mpi/gasnetrun_mpi
ours=$builddir/conformance/mpi/tests/perf/putgetperf
twin=$builddir/tests/perf/mpiputperf
[ -x "$run" ] || { echo "SKIP: $run is missing (configure found no MPI)"; exit 77; }
for p in "$ours" "$twin"; do
  [ -x "$p" ] || { echo "compare_putget_mpi: no $p (make ${p#"$builddir"/})" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_putget.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

transport_args() {
  case $1 in
    vader) echo "--mca btl self,vader" ;;
    tcp) echo "--mca btl tcp,self --mca btl_tcp_if_include lo" ;;
    default) echo "" ;;
    *) echo "compare_putget_mpi: unknown transport $1" >&2; exit 2 ;;
  esac
}

# job TRANSPORT NAME COMMAND...: one job; its CSV rows kept as TRANSPORT,NAME,ROW.
job() {
  tr=$1 name=$2
  shift 2
  GASNET_MPIRUN_ARGS=$(transport_args "$tr") timeout -k 5 "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "compare_putget_mpi: failed ($tr $name, exit $rc): $*" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  awk -F, -v p="$tr,$name" 'NR > 1 { print p "," $0 }' "$tmp/out" >>"$tmp/all"
}

opts="-c -r $reps -i $iters -m $maxsize"
: >"$tmp/all"
k=1
while [ "$k" -le "$rounds" ]; do
  for tr in $(echo "$transports" | tr ',' ' '); do
    osc=
    [ "$tr" = tcp ] && osc=OMPI_MCA_osc=ucx
    # shellcheck disable=SC2086 # option lists are split into words on purpose
    # No supernodes: the two processes would otherwise share memory and
    # copy, and neither the AM nor the RMA path would be measured.
    job "$tr" am env GASNET_SUPERNODE_MAXSIZE=1 GASNET_MPI_RMA=off "$run" -n 2 "$ours" $opts
    job "$tr" rma env $osc GASNET_SUPERNODE_MAXSIZE=1 GASNET_MPI_RMA=on "$run" -n 2 "$ours" $opts
    job "$tr" mpi env $osc "$run" -n 2 "$twin" $opts
  done
  k=$((k + 1))
done

# Rows: TRANSPORT,NAME,nodes,path,bytes,put_us,get_us,put_MBps,get_MBps[,pingpong_us]
awk -F, '
  function median(key,   n, i, j, t, v) {
    n = cnt[key]; if (!n) return "-"
    for (i = 1; i <= n; i++) v[i] = val[key, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return v[int((n + 1) / 2)]
  }
  function add(key, x) { if (x < 0) return; cnt[key]++; val[key, cnt[key]] = x }
  {
    tr = $1; nm = $2; b = $5
    if (!((tr, b) in seen)) { seen[tr, b] = 1; sizes[tr] = sizes[tr] " " b }
    if (!(tr in trseen)) { trseen[tr] = 1; order[++ntr] = tr }
    add(tr SUBSEP nm SUBSEP b SUBSEP "put", $6); add(tr SUBSEP nm SUBSEP b SUBSEP "get", $7)
    add(tr SUBSEP nm SUBSEP b SUBSEP "putbw", $8); add(tr SUBSEP nm SUBSEP b SUBSEP "getbw", $9)
    if (nm == "mpi") add(tr SUBSEP nm SUBSEP b SUBSEP "pp", $10)
  }
  function m(tr, nm, b, k) { return median(tr SUBSEP nm SUBSEP b SUBSEP k) }
  END {
    for (t = 1; t <= ntr; t++) {
      tr = order[t]; n = split(sizes[tr], bs, " ")
      printf "\n%s: latency (us), medians\n\n", tr
      print "| bytes | put AM | put RMA | MPI_Put+flush | get AM | get RMA | MPI_Get+flush_local | MPI ping-pong (half RTT) |"
      print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
      for (i = 1; i <= n; i++) { b = bs[i]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", b, m(tr,"am",b,"put"), m(tr,"rma",b,"put"), m(tr,"mpi",b,"put"), m(tr,"am",b,"get"), m(tr,"rma",b,"get"), m(tr,"mpi",b,"get"), m(tr,"mpi",b,"pp") }
      printf "\n%s: bandwidth (MB/s), medians\n\n", tr
      print "| bytes | put AM | put RMA | MPI_Put | RMA / MPI | get AM | get RMA | MPI_Get |"
      print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
      for (i = 1; i <= n; i++) { b = bs[i]
        r = m(tr,"rma",b,"putbw"); x = m(tr,"mpi",b,"putbw")
        share = (r != "-" && x != "-" && x > 0) ? sprintf("%.0f%%", 100 * r / x) : "-"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", b, m(tr,"am",b,"putbw"), r, x, share, m(tr,"am",b,"getbw"), m(tr,"rma",b,"getbw"), m(tr,"mpi",b,"getbw") }
    }
  }' "$tmp/all"

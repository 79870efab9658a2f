#!/bin/sh
# plot_compare.sh [-t TABLE] OUT.png CSV...
#
# Latency against size, ours and Open MPI's, from compare_mpi.sh's CSV
# (compare_mpi.sh -c ...), one panel per op, with gnuplot (Debian:
# gnuplot-nox). Each CSV is one run (typically one process count: -n 2,
# -n 4); every run gives two lines per panel, ours (solid) and Open MPI's
# (dashed), in one colour per process count; the first run's memcpy column
# is the grey copy floor. Both axes are logarithmic.
#
#   TABLE   which of compare_mpi.sh's tables to plot (default shm: the smp
#           conduit against Open MPI over shared memory; tcp, mpi)
#
# Example (from the build directory):
#   sh ../../tests/perf/compare_mpi.sh -b . -n 2 -k 3 -t shm -c -i 50 -r 7 > cmp2.csv
#   sh ../../tests/perf/compare_mpi.sh -b . -n 4 -k 3 -t shm -c -i 20 -r 5 > cmp4.csv
#   sh ../../tests/perf/plot_compare.sh ../../docs/img/coll_vs_mpi.png cmp2.csv cmp4.csv
set -eu
table=shm
if [ "${1:-}" = -t ]; then
  table=$2
  shift 2
fi
[ $# -ge 2 ] || { echo "usage: plot_compare.sh [-t TABLE] OUT.png CSV..." >&2; exit 2; }
out=$1
shift
command -v gnuplot >/dev/null 2>&1 || { echo "plot_compare: no gnuplot (apt-get install gnuplot-nox)" >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "plot_compare: cannot read $f" >&2; exit 2; }; done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plot_compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Per run i and op: "bytes ours mpi memcpy" rows, sorted by size, in
# $tmp/run<i>_<op>.dat; the ops in CSV order in $tmp/ops, each run's
# process count in $tmp/nodes<i>.
i=0
for f in "$@"; do
  i=$((i + 1))
  awk -F, -v t="$table" -v dir="$tmp" -v run="$i" '
    NR == 1 { next }
    $1 == t {
      if (!($2 in seen)) { seen[$2] = 1; if (run == 1) print $2 > (dir "/ops") }
      print $3, $6, $7, $9 > (dir "/run" run "_" $2 ".raw")
      nodes = $5
    }
    END { print nodes > (dir "/nodes" run) }' "$f"
done
[ -s "$tmp/ops" ] || { echo "plot_compare: no rows of table $table in $1" >&2; exit 1; }
for raw in "$tmp"/*.raw; do sort -n "$raw" >"${raw%.raw}.dat"; done

nops=$(wc -l <"$tmp/ops")
cols=$(( nops < 4 ? nops : 4 ))
rows=$(( (nops + cols - 1) / cols ))
colours="#1f77b4 #d62728 #2ca02c #9467bd"
{
  echo "set terminal pngcairo size $((cols * 420)),$((rows * 340)) font ',9'"
  echo "set output '$out'"
  echo "set multiplot layout $rows,$cols title 'collectives, table $table: ours (solid) and Open MPI (dashed), microseconds against bytes per block'"
  echo "set logscale xy"
  echo "set format x '%.0s%cB'"
  echo "set grid"
  echo "set key top left samplen 2 spacing 0.9 font ',8'"
  while read -r op; do
    echo "set title '$op' noenhanced"
    plots="'$tmp/run1_$op.dat' using 1:(\$4 > 0 ? \$4 : 1/0) with lines lc rgb '#999999' dt 3 title 'memcpy'"
    j=0
    for f in "$@"; do
      j=$((j + 1))
      n=$(cat "$tmp/nodes$j")
      c=$(echo "$colours" | cut -d' ' -f$(( (j - 1) % 4 + 1 )))
      plots="$plots, '$tmp/run${j}_$op.dat' using 1:2 with linespoints lc rgb '$c' pt 7 ps 0.6 title 'ours P=$n'"
      plots="$plots, '$tmp/run${j}_$op.dat' using 1:3 with linespoints lc rgb '$c' dt 2 pt 6 ps 0.6 title 'Open MPI P=$n'"
    done
    echo "plot $plots"
  done <"$tmp/ops"
  echo "unset multiplot"
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "plot_compare: wrote $out"

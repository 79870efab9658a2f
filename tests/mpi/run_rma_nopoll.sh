#!/bin/sh
# run_rma_nopoll.sh: which settings complete puts, gets and AM Long
# payloads while the target does not poll (tests/ext/testnopoll: node 0
# sleeps 2 s without calling GASNet while the other nodes move data to and
# from its segment). Each row is one run_mpi.sh job series with the exit
# code this MPI should give, from the measurements in docs/mpi-conduit.md
# ("One-sided transfers"): 0 where MPI completes passive-target RMA by
# itself, !0 where the transfers wait for node 0 (the test must then fail
# for that reason: node 0 finds a put missing).
#
# Usage: run_rma_nopoll.sh BUILDDIR NODELIST
set -eu

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILDDIR NODELIST" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
NODELIST=$2
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/mpi_lib.sh"
mpi_setup
PROG=tests/mpi/conf/tests/ext/testnopoll

# row TRANSPORT EXPECT [VAR=VALUE...] [-- ARGS]: one run_mpi.sh series.
MISSING="MATCH=had not landed after"
row() {
  tr=$1
  expect=$2
  shift 2
  rc=0
  if [ "$expect" = 0 ]; then
    GASNET_MPI_TRANSPORTS=$tr sh "$HERE/run_mpi.sh" "$BUILDDIR" "$NODELIST" 0 "$@" || rc=$?
  else
    GASNET_MPI_TRANSPORTS=$tr sh "$HERE/run_mpi.sh" "$BUILDDIR" "$NODELIST" "$expect" \
      "$MISSING" "$@" || rc=$?
  fi
  verdict "$rc" "testnopoll $tr expecting $expect: $*"
}

if [ "$MPI_KIND" = openmpi ]; then
  # Shared memory: osc/rdma writes with CMA; auto takes it.
  row vader 0 "$PROG" -long
  row vader 0 GASNET_MPI_RMA=on "$PROG" -long
  row vader '!0' GASNET_MPI_RMA=off "$PROG"
  # osc/ucx (Debian disables it; enabled here) waits for the target.
  row vader '!0' GASNET_MPI_RMA=on OMPI_MCA_osc=ucx "$PROG"
  # TCP: no one-sided component creates the window, so auto takes AM.
  row tcp '!0' "$PROG"
else
  # MPICH 4.0 (ch4) completes RMA only when the target calls MPI: auto
  # takes AM, and forcing RMA does not help.
  row default '!0' "$PROG"
  row default '!0' GASNET_MPI_RMA=on "$PROG"
fi
mpi_finish

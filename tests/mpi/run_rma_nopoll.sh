#!/bin/sh
# run_rma_nopoll.sh: which settings complete puts, gets and AM Long
# payloads while the target does not poll (tests/ext/testnopoll: node 0
# sleeps 2 s without calling GASNet while the other nodes move data to and
# from its segment). Each row is one run_mpi.sh job series with the exit
# code this MPI should give, from the measurements in docs/performance.md
# ("One-sided transfers"): 0 where MPI completes passive-target RMA by
# itself, !0 where the transfers wait for node 0 (the test must then fail
# for that reason: node 0 finds a put missing).
#
# Usage: run_rma_nopoll.sh BUILDDIR NODELIST (counts below 2 are left out)
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
PROG=conformance/mpi/tests/ext/testnopoll
# Every node its own supernode: a put to a member of node 0's supernode
# would be a copy, done without node 0 whatever the setting.
GASNET_SUPERNODE_MAXSIZE=1
export GASNET_SUPERNODE_MAXSIZE
# The Long payloads that RMA writes are those that do not fit in a packet
# (64 KiB + 128 bytes by default): smaller ones travel in the packet and
# wait for node 0's poll like any AM.
LONGS="-long 70001 1048589 4194304" # words: unquoted on purpose below
# One node has no peer to wait for it: only counts of 2 and more
# (GASNET_TEST_NODES may bring a 1).
COUNTS=""
for n in $(node_list "$NODELIST"); do
  [ "$n" -ge 2 ] && COUNTS="$COUNTS${COUNTS:+,}$n"
done
if [ -z "$COUNTS" ]; then
  echo "SKIP: testnopoll needs 2 nodes or more (nodes: $(node_list "$NODELIST"))"
  exit 77
fi

# row TRANSPORT EXPECT [VAR=VALUE...] [-- ARGS]: one run_mpi.sh series.
MISSING="MATCH=had not landed after"
row() {
  tr=$1
  expect=$2
  shift 2
  rc=0
  if [ "$expect" = 0 ]; then
    GASNET_TEST_NODES=$COUNTS GASNET_MPI_TRANSPORTS=$tr \
      sh "$HERE/run_mpi.sh" "$BUILDDIR" "$COUNTS" 0 "$@" || rc=$?
  else
    GASNET_TEST_NODES=$COUNTS GASNET_MPI_TRANSPORTS=$tr \
      sh "$HERE/run_mpi.sh" "$BUILDDIR" "$COUNTS" "$expect" "$MISSING" "$@" || rc=$?
  fi
  verdict "$rc" "testnopoll $tr expecting $expect: $*"
}

if [ "$MPI_KIND" = openmpi ]; then
  # Shared memory: osc/rdma writes with CMA; auto takes it.
  row vader 0 "$PROG" $LONGS
  row vader 0 GASNET_MPI_RMA=on "$PROG" $LONGS
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
  # Its progress thread (which needs MPI_THREAD_MULTIPLE) does complete it,
  # spinning on a core of its own: a longer sleep leaves room for that on
  # a machine with fewer cores than threads.
  row default 0 GASNET_MPI_RMA=on GASNET_MPI_THREAD=MULTIPLE MPIR_CVAR_ASYNC_PROGRESS=1 \
    "$PROG" $LONGS -sleep 6
fi
mpi_finish

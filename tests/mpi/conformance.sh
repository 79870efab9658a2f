#!/bin/sh
# conformance.sh (mpi): the conformance suite (tests/conformance.sh) on the
# mpi conduit under one MPI transport.
#
# Usage: conformance.sh BUILDDIR TRANSPORT [VAR=VALUE...] [conformance.sh OPTIONS...]
#
# TRANSPORT is vader (Open MPI's shared-memory BTL), tcp (Open MPI's TCP
# BTL over loopback: every message crosses the network stack; 1-node runs,
# which send nothing, are dropped) or default (the MPI's own choice; the
# one transport run under MPICH, where vader means default and tcp is
# skipped). Node counts above GASNET_MPI_MAX_NODES (default 4) are lowered
# to it. Under MPICH's Hydra, which reports a job ended by a signal only as
# some non-zero code (and may end 0 after forwarding SIGINT or SIGTERM to
# its processes), exact codes of such ends are not checked
# (GASNET_TEST_EXIT_SIGNAL_CODES=any, tests/exit/lib.sh). The collective
# exit scenarios run GASNET_EXIT_RUNS times (default here 25: mpirun takes
# a second or so to start a job).
# VAR=VALUE words set the environment of every job (GASNET_* reach every
# process through the launcher; all run on this host, so OMPI_MCA_* do
# too): e.g. GASNET_MPI_RMA=on. The options after them go to
# tests/conformance.sh (-c CASEFILE, -f REGEX, -l LABEL, ...).
set -eu

if [ $# -lt 2 ]; then
  echo "usage: $0 BUILDDIR TRANSPORT [OPTIONS...]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
shift
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup
TRANSPORTS=$(mpi_transports "$1")
shift
need_transports
SETTINGS=""
while [ $# -gt 0 ]; do
  case $1 in
    [A-Za-z_]*=*) export "${1?}"; SETTINGS="$SETTINGS $1"; shift ;;
    *) break ;;
  esac
done
drop1=
[ "$TRANSPORTS" = tcp ] && drop1=-1
if [ "$MPI_KIND" = hydra ]; then
  GASNET_TEST_EXIT_SIGNAL_CODES=any
  export GASNET_TEST_EXIT_SIGNAL_CODES
fi
GASNET_EXIT_RUNS=${GASNET_EXIT_RUNS:-25}
export GASNET_EXIT_RUNS
GASNET_MPIRUN_ARGS="$(transport_args "$TRANSPORTS") ${GASNET_MPIRUN_ARGS:-}"
export GASNET_MPIRUN_ARGS
echo "=== mpi conduit, transport $TRANSPORTS ($GASNET_MPIRUN_ARGS)${SETTINGS:+,$SETTINGS}"
# shellcheck disable=SC2086 # drop1 is empty or one word
exec sh "$(dirname "$0")/../conformance.sh" -b "$BUILDDIR" -m "${GASNET_MPI_MAX_NODES:-4}" \
  -l "$TRANSPORTS" $drop1 "$@" mpi

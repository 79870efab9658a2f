#!/bin/sh
# check_rma_choice.sh BUILDDIR: how the ucx conduit reaches each peer's
# segment for put and get (docs/ucx-conduit.md, "Put and get"), as node 0
# reports it under GASNET_VERBOSEENV, at 3 nodes without supernodes:
#   - UCX_TLS=tcp,self, GASNET_UCX_RMA_THRESHOLD unset (auto): UCP would
#     emulate RMA with messages, so both peers by AM;
#   - the same with the threshold set to 0: both by UCP RMA;
#   - UCX_TLS=posix,self: UCX maps the peers' segments, both by copies;
#   - a threshold that is neither a size nor auto ends the job naming the
#     variable and the value;
#   - GASNET_VERBOSEENV=0 asks for nothing: no report, no listing.
# Each run is testputget, so the data of every path is checked too.
# Exits 0 when all pass, else 1.
set -u
[ $# -eq 1 ] || { echo "usage: check_rma_choice.sh BUILDDIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
sh "$src/tests/conformance.sh" -B -b "$build" ucx >/dev/null || { echo "FAIL: building the programs"; exit 1; }
run=$build/conduits/ucx/gasnetrun_ucx
prog=$build/conformance/ucx/tests/ext/testputget
failed=0

# expect RC REGEX VAR=VALUE...: one 3-node job with GASNET_VERBOSEENV=1
# (unless VAR=VALUE sets it) whose output matches REGEX, or does not
# when REGEX starts with !.
expect() {
  want_rc=$1 regex=${2#!}
  want_match=1 how=matching
  [ "$regex" = "$2" ] || { want_match=0; how="not matching"; }
  shift 2
  out=$(env GASNET_SUPERNODE_MAXSIZE=1 GASNET_VERBOSEENV=1 "$@" timeout -k 5 180 "$run" -n 3 "$prog" 2>&1)
  rc=$?
  ok=1
  case $want_rc in
    0) [ "$rc" -eq 0 ] || ok=0 ;;
    *) [ "$rc" -ne 0 ] || ok=0 ;;
  esac
  matched=0
  echo "$out" | grep -Eq -- "$regex" && matched=1
  [ "$matched" = "$want_match" ] || ok=0
  if [ "$ok" = 1 ]; then
    echo "PASS $* (exit $rc)"
  else
    echo "FAIL $*: exit $rc, expected $want_rc and output $how '$regex'"
    echo "$out" | grep -E 'ucx conduit|FATAL|FAIL' | tail -8 | sed 's/^/    | /'
    failed=1
  fi
}

expect 0 'THRESHOLD auto\): 0 peers by copies, 0 by UCP RMA, 2 by AM' UCX_TLS=tcp,self
expect 0 'THRESHOLD 0\): 0 peers by copies, 2 by UCP RMA, 0 by AM' UCX_TLS=tcp,self \
  GASNET_UCX_RMA_THRESHOLD=0
expect 0 'THRESHOLD auto\): 2 peers by copies, 0 by UCP RMA, 0 by AM' UCX_TLS=posix,self
expect '!0' 'GASNET_UCX_RMA_THRESHOLD="often" is not a size' UCX_TLS=tcp,self \
  GASNET_UCX_RMA_THRESHOLD=often
expect 0 '!ucx conduit: put/get|ENV parameter' UCX_TLS=tcp,self GASNET_VERBOSEENV=0
exit $failed

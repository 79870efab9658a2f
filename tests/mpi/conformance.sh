#!/bin/sh
# conformance.sh: run the conduit-generic test suites on the mpi conduit.
#
# Usage: conformance.sh BUILDDIR SRCDIR [TRANSPORTS=LIST] [VAR=VALUE...] [CASEFILE...]
#
# CASEFILEs are relative to SRCDIR (default: tests/core.cases and, when
# they exist, tests/ext/ext.cases, tests/coll/coll.cases and
# tests/perf/perf.cases). tests/mpi/local.mk builds their programs against
# the mpi libraries under BUILDDIR/tests/mpi/conf/, laid out like the
# build tree (tests/testam, tests/ext/testputget, ...), so the case files
# run unchanged: tests/harness.sh gets that directory as its build dir, a
# source dir holding only the chosen case files (and links to everything
# else under tests/, for the scripts the cases call), and gasnetrun_mpi as
# its launcher. It runs once per transport (GASNET_MPI_TRANSPORTS, default
# "vader tcp" under Open MPI; TRANSPORTS=LIST, a comma list, overrides
# both), at each case's node counts capped at 4 (see shadow_cases).
# VAR=VALUE words set the environment of every job (GASNET_* reach every
# process through the launcher; all run on this host, so OMPI_MCA_* do
# too): e.g. GASNET_MPI_RMA=on, or GASNET_MPI_CONF_FILTER.
# A case whose program was not built for the mpi conduit fails (no such
# command): add the program to tests/mpi/local.mk. GASNET_MPI_CONF_FILTER
# (a regex) limits the cases run; the outer harness's TESTS_FILTER does not
# reach the inner one.
set -eu

if [ $# -lt 2 ]; then
  echo "usage: $0 BUILDDIR SRCDIR [CASEFILE...]" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
SRCDIR=$(cd "$2" && pwd)
shift 2
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup
case ${1:-} in
  TRANSPORTS=*) TRANSPORTS=$(mpi_transports "$(echo "${1#TRANSPORTS=}" | tr ',' ' ')"); shift ;;
esac
need_transports
SETTINGS=""
while [ $# -gt 0 ]; do
  case $1 in
    *=*) export "${1?}"; SETTINGS="$SETTINGS $1"; shift ;;
    *) break ;;
  esac
done
CONF=$BUILDDIR/tests/mpi/conf
[ -d "$CONF/tests" ] || { echo "FAIL setup: $CONF has no programs (make check builds them)"; exit 1; }

if [ $# -eq 0 ]; then
  set -- tests/core.cases
  for f in tests/ext/ext.cases tests/coll/coll.cases tests/perf/perf.cases; do
    [ -f "$SRCDIR/$f" ] && set -- "$@" "$f"
  done
fi

# The shadow source dir: links to every file under tests/ except case
# files, then copies of the chosen case files.
SHADOW=$WORK/src
mkdir -p "$SHADOW"
(cd "$SRCDIR" && find tests -path tests/mpi -prune -o -type f ! -name '*.cases' -print) |
  while read -r f; do
    mkdir -p "$SHADOW/$(dirname "$f")"
    ln -s "$SRCDIR/$f" "$SHADOW/$f"
  done
for f in "$@"; do
  [ -f "$SRCDIR/$f" ] || { echo "FAIL setup: no case file $SRCDIR/$f"; exit 1; }
  mkdir -p "$SHADOW/$(dirname "$f")"
  cp "$SRCDIR/$f" "$SHADOW/$f"
done
# Cases that are not about a conduit, that drive the smp launcher
# themselves, or that name the smp conduit's own barrier, stay with the smp
# run.
SKIP='^(tools|install_.*|.*_smp)$'

# Node counts: each case's own list with every count above MAXN lowered to
# MAXN (a case run at 1,2,3,5,8 on smp runs at 1,2,3,4 here; an error case
# run at 1,2 stays at 1,2). Under TCP, one node sends nothing over the
# network, so its 1-node runs (the same as the shared-memory ones) are
# dropped. GASNET_TEST_NODES, when set, replaces every list.
MAXN=${GASNET_MPI_MAX_NODES:-4}
export GASNET_TEST_LAUNCHER="$LAUNCHER -n @N@"

# Copy case file $1 to $2: drop the skipped cases, rewrite the node lists
# (drop count 1 when $3 is 1).
shadow_cases() {
  awk -v skip="$SKIP" -v maxn="$MAXN" -v drop1="$3" '
    /^[ \t]*#/ || NF == 0 { print; next }
    $1 ~ skip { next }
    $2 == "-" { print; next }
    {
      n = split($2, c, ","); list = ""; delete seen
      for (i = 1; i <= n; i++) {
        v = c[i] + 0; if (v > maxn) v = maxn
        if ((drop1 && v == 1) || (v in seen)) continue
        seen[v] = 1; list = list (list == "" ? "" : ",") v
      }
      if (list == "") next
      match($0, /^[ \t]*[^ \t]+[ \t]+/); head = substr($0, 1, RLENGTH)
      rest = substr($0, RLENGTH + 1); sub(/^[^ \t]+/, "", rest)
      print head list rest
    }' "$1" >"$2"
}

status=0
for tr in $TRANSPORTS; do
  drop1=0
  [ "$tr" = tcp ] && drop1=1
  echo "=== mpi conduit, transport $tr ($(transport_args "$tr")), nodes up to $MAXN${GASNET_TEST_NODES:+ (GASNET_TEST_NODES=$GASNET_TEST_NODES)}${SETTINGS:+,$SETTINGS}: $*"
  for f in "$@"; do shadow_cases "$SRCDIR/$f" "$SHADOW/$f" $drop1; done
  GASNET_MPIRUN_ARGS="$(transport_args "$tr") ${GASNET_MPIRUN_ARGS:-}" \
    TESTS_FILTER="${GASNET_MPI_CONF_FILTER:-}" GASNET_TEST_LOGDIR= \
    sh "$SRCDIR/tests/harness.sh" "$CONF" "$SHADOW" </dev/null | tee "$WORK/harness.out" || true
  tail -n 3 "$WORK/harness.out" | grep -q '^[1-9][0-9]* passed, 0 failed' || status=1
done
exit $status

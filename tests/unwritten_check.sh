#!/bin/sh
# unwritten_check.sh BUILDDIR CONDUIT: a conduit whose contract functions
# are still the template's (the template itself, or a fresh copy of it)
# must build every conformance program (so the skeleton matches the
# contract and its fragments work) and then fail every feature cleanly:
# every job ends at once, every failed case's output names the contract
# function that is not written yet ("CONDUIT conduit: gasnetc_... is not
# written yet"), no case runs out of time and none passes.
# Runs the conformance suite at 1 node (GASNET_TEST_NODES changes it): an
# unwritten conduit fails in gasnetc_init, whatever the count.
set -u
[ $# -eq 2 ] || { echo "usage: $0 BUILDDIR CONDUIT" >&2; exit 2; }
BUILDDIR=$(cd "$1" && pwd) || exit 2
C=$2
case $C in "" | *[!a-z0-9_]*) echo "$0: '$C' is not a conduit name" >&2; exit 2 ;; esac
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/unwritten_check.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/logs"

GASNET_TEST_LOGDIR=$WORK/logs GASNET_TEST_TIMEOUT_SCALE=0.25 \
  sh "$SRCDIR/tests/conformance.sh" -b "$BUILDDIR" -n "${GASNET_TEST_NODES:-1}" -l unwritten \
  "$C" >"$WORK/out" 2>&1
rc=$?
bad=0
fail() { echo "FAIL: $*"; bad=1; }

grep -q "^=== $C conduit: building" "$WORK/out" || fail "the programs were not built"
grep -q '^FAIL build' "$WORK/out" && fail "a program did not build or link against the $C conduit"
[ $rc -ne 0 ] || fail "the conformance suite exited 0"
totals=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$WORK/out" | tail -n 1)
case $totals in
  '0 passed, '[1-9]*) ;;
  *) fail "expected every case to fail, got: ${totals:-no totals}" ;;
esac
grep -q 'timed out' "$WORK/out" && fail "a case ran out of time: $(grep 'timed out' "$WORK/out" | head -3)"
sed -n "/^=== $C conduit, by feature/,\$p" "$WORK/out" | grep -E '^  (ok|skipped) ' &&
  fail "a feature did not fail"
# Every failed case's log says what is not written (a case skipped at
# this node count has nothing to say). Logs are NNN-NAME[-nN].log.
sed -nE 's/^FAIL ([^ ]+) n=([0-9]+) .*/\1-n\2/p; s/^FAIL ([^ ]+) \(.*/\1/p' "$WORK/out" >"$WORK/failed"
nlogs=0
while read -r failed; do
  for log in "$WORK"/logs/[0-9][0-9][0-9]-"$failed".log; do :; done
  [ -f "$log" ] || { fail "no log for the failed case $failed"; continue; }
  nlogs=$((nlogs + 1))
  grep -q "$C conduit: gasnetc_[a-z_]* is not written yet" "$log" ||
    fail "$(basename "$log") does not name an unwritten function: $(tail -n 3 "$log" | tr '\n' ' ')"
done <"$WORK/failed"
[ $nlogs -gt 0 ] || fail "no failed case's log was kept"

sed -n "/^=== $C conduit, by feature/,\$p" "$WORK/out"
if [ $bad = 0 ]; then
  echo "PASS: the $C conduit builds every program and fails every feature cleanly ($nlogs case runs)"
  exit 0
fi
echo "--- tail of the conformance run"
tail -n 40 "$WORK/out"
exit 1

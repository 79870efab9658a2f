#!/bin/sh
# check_verboseenv.sh PROGDIR: the launcher's -v (GASNET_VERBOSEENV) lists
# every variable the job reads once, from node 0 only, with the value in
# force: testtrace -k 1 at 3 nodes (it starts the collectives, so their
# variables are read too). Checks that no name is listed twice, that the
# variables with defaults show them ("(default)"), among them the barrier,
# the collectives' algorithms, tree radix, thresholds and progress thread,
# and the backtrace and freeze variables, and that a variable set in the
# environment is listed with its value, not as a default.
set -u
prog=$1/tests/trace/testtrace
launcher=${GASNET_CONFORMANCE_LAUNCHER:?run by tests/conformance.sh}
out=$(mktemp "${TMPDIR:-/tmp}/verboseenv.XXXXXX")
trap 'rm -f "$out"' EXIT

fail() {
  echo "FAIL: $*"
  grep '^ENV parameter' "$out" | sed 's/^/    | /'
  exit 1
}

GASNET_COLL_TREE_RADIX=3 timeout -k 5 120 $launcher -v -n 3 "$prog" -k 1 >"$out" 2>&1 ||
  fail "testtrace -k 1 at 3 nodes with -v failed: $(tail -n 5 "$out")"
grep -q 'testtrace: PASS' "$out" || fail "testtrace did not pass"

dups=$(grep '^ENV parameter' "$out" | awk '{ print $3 }' | sort | uniq -d)
[ -z "$dups" ] || fail "listed more than once (by more than one node?): $dups"

# listed NAME REGEX: NAME's one line matches REGEX (after the '=').
listed() {
  line=$(grep "^ENV parameter: $1 " "$out")
  [ -n "$line" ] || fail "$1 is not listed"
  echo "$line" | grep -Eq -- "= $2" || fail "$1 is listed as '$line', expected '= $2'"
}

listed GASNET_BARRIER '[A-Z]+ +\(default\)$'
listed GASNET_COLL_BROADCAST_ALG "the selector's choice +\(default\)$"
listed GASNET_COLL_SCAN_ALG "the selector's choice +\(default\)$"
listed GASNET_COLL_TREE_RADIX '3$'
listed GASNET_COLL_PUT_THRESHOLD '[0-9]+ .*\(default\)$'
listed GASNET_COLL_FLOW_THRESHOLD '[0-9]+ +\(default\)$'
listed GASNET_COLL_DIRECT_THRESHOLD '[0-9]+ \([0-9]+ for a broadcast on more than 2 ranks, [0-9]+ for gather_all and exchange on 2\) +\(default\)$'
listed GASNET_COLL_PROGRESS_THREAD '0 +\(default\)$'
listed GASNET_BACKTRACE 'no +\(default\)$'
listed GASNET_BACKTRACE_TYPE '[A-Z,]+ +\(default\)$'
listed GASNET_FREEZE 'no +\(default\)$'
listed GASNET_FREEZE_ON_ERROR 'no +\(default\)$'
listed GASNET_EXITTIMEOUT '[0-9.]+ +\(default\)$'
notset=$(grep -c '^ENV parameter: .*\*not set\*' "$out")
[ "$notset" -eq 0 ] || fail "$notset variable(s) listed as *not set* instead of their default"
echo "ok   $(grep -c '^ENV parameter' "$out") variables, each listed once, from node 0, defaults shown"

#!/bin/sh
# expect_fail_or_skip.sh REGEX -- COMMAND [ARGS...]
#
# tests/expect_fail.sh for checks that exist only in some builds: succeeds
# (exits 0) if COMMAND exits non-zero and its combined output matches
# REGEX (grep -E, ignoring case); exits 77 (the harness's "skip") if
# COMMAND exits 77, i.e. the test found the check does not apply here (a
# non-debug build, too few nodes); exits 1 otherwise, 2 on misuse.
set -u

if [ $# -lt 3 ] || [ "$2" != -- ]; then
  echo "usage: expect_fail_or_skip.sh REGEX -- COMMAND [ARGS...]" >&2
  exit 2
fi
regex=$1
shift 2

out=$(mktemp "${TMPDIR:-/tmp}/expectfail.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$@" >"$out" 2>&1
rc=$?
cat "$out"

if [ $rc = 77 ]; then
  echo "expect_fail_or_skip: '$*' skipped (exit 77)"
  exit 77
fi
if [ $rc = 0 ]; then
  echo "expect_fail_or_skip: '$*' exited 0; it should have failed" >&2
  exit 1
fi
if ! grep -Eiq -- "$regex" "$out"; then
  echo "expect_fail_or_skip: '$*' failed (exit $rc) but its output does not match /$regex/" >&2
  exit 1
fi
echo "expect_fail_or_skip: '$*' failed as expected (exit $rc, output matches /$regex/)"
exit 0

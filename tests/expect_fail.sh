#!/bin/sh
# expect_fail.sh REGEX -- COMMAND [ARGS...]
#
# For cases that must fail in a particular way: runs COMMAND and succeeds
# (exits 0) only if COMMAND exits non-zero and its combined stdout and
# stderr match REGEX (grep -E, ignoring case). COMMAND's output is passed
# through, so the harness log shows it. Exits 1 otherwise, 2 on misuse.
set -u

if [ $# -lt 3 ] || [ "$2" != -- ]; then
  echo "usage: expect_fail.sh REGEX -- COMMAND [ARGS...]" >&2
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

# EXPECT_FAIL_ALLOW_SKIP=1 (tests/coll/expect_fail_or_skip.sh): a command
# that exits 77 found its check does not apply here; pass the skip on.
if [ "${EXPECT_FAIL_ALLOW_SKIP:-0}" = 1 ] && [ $rc = 77 ]; then
  echo "expect_fail: '$*' skipped (exit 77)"
  exit 77
fi

if [ $rc = 0 ]; then
  echo "expect_fail: '$*' exited 0; it should have failed" >&2
  exit 1
fi
if ! grep -Eiq -- "$regex" "$out"; then
  echo "expect_fail: '$*' failed (exit $rc) but its output does not match /$regex/" >&2
  exit 1
fi
echo "expect_fail: '$*' failed as expected (exit $rc, output matches /$regex/)"
exit 0

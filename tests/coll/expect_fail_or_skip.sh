#!/bin/sh
# expect_fail_or_skip.sh REGEX -- COMMAND [ARGS...]
#
# tests/expect_fail.sh for checks that exist only in some builds: the same
# verdicts, except that COMMAND exiting 77 (the test found the check does
# not apply here: a non-debug build, too few nodes) gives 77, the
# harness's "skip".
EXPECT_FAIL_ALLOW_SKIP=1 exec sh "$(dirname "$0")/../expect_fail.sh" "$@"

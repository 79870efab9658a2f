# lib.sh: helpers shared by the exit and fault scripts (sourced, not run).
#
# A script sets BUILDDIR (absolute) before calling setup_paths. Each check
# prints one line and sets FAILED=1 when it fails; the script's exit status
# is the count of failed scenarios (capped), so the harness sees a failure.

FAILED=0
RAN=0 # scenarios judged: a script that judged none (every node count
      # below what its scenario needs) is skipped, not passed
FAIL_LINES=
NOTES=""

# shellcheck source=../job_lib.sh
. "$(dirname "$0")/../job_lib.sh"

setup_paths() {
  # Run by tests/conformance.sh, which builds the programs into BUILDDIR
  # (its output dir) and names the conduit's launcher.
  LAUNCHER=${GASNET_CONFORMANCE_LAUNCHER:-}
  PROG=$BUILDDIR/tests/exit/testexit
  SIGDFL=$BUILDDIR/tests/exit/sigdfl
  if [ -z "$LAUNCHER" ]; then
    echo "FAIL setup: no launcher; run the exit cases through tests/conformance.sh CONDUIT"
    exit 1
  fi
  for f in "$LAUNCHER" "$PROG" "$SIGDFL"; do
    if [ ! -x "$f" ]; then
      echo "FAIL setup: $f is missing or not executable"
      exit 1
    fi
  done
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/exittest.XXXXXX")
  trap 'cleanup_work' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# The exit code a scenario expects on this conduit: EXPECT_<conduit>=CODE
# among the scenario's options overrides the generic EXPECT (a launcher may
# promise more than the contract asks: the smp launcher ends with 128 + the
# signal it was sent, where the contract asks only for non-zero).
# GASNET_TEST_EXIT_SIGNAL_CODES says what the launcher reports of jobs that
# end by a signal: exact (default: 128 + the signal), nonzero (some
# non-zero code), or any (that, and a job whose launcher was signalled may
# even end 0, as under MPICH's Hydra). The third argument, launcher, marks
# a scenario that signals the launcher.
expected_code() { # GENERIC [OVERRIDE [launcher]]
  code=${2:-$1}
  case ${GASNET_TEST_EXIT_SIGNAL_CODES:-exact} in
    exact) ;;
    nonzero | any)
      if [ "${3:-}" = launcher ] && [ "$GASNET_TEST_EXIT_SIGNAL_CODES" = any ]; then
        code=any
      else
        case $code in '!0') ;; *) [ "$code" -gt 128 ] && code='!0' ;; esac
      fi ;;
    *) echo "GASNET_TEST_EXIT_SIGNAL_CODES=$GASNET_TEST_EXIT_SIGNAL_CODES: not exact, nonzero or any" >&2
       exit 2 ;;
  esac
  echo "$code"
}

cleanup_work() {
  if [ -n "${WORK:-}" ]; then rm -rf "$WORK"; fi
}

snapshot_files() { gasnet_files >"$WORK/files.before"; }

# Does the name of file $1 carry the pid of a live process? Our job's
# processes are gone when this is asked (check_orphans runs first), so such a
# file belongs to another job running on the machine at the same time (say
# another test suite), not to ours.
foreign_file() {
  for num in $(basename "$1" | tr -c '0-9' ' '); do
    if [ "$num" -gt 1 ] 2>/dev/null && kill -0 "$num" 2>/dev/null; then return 0; fi
  done
  return 1
}

# Files that appeared since snapshot_files, minus other live jobs' files.
new_files() {
  gasnet_files >"$WORK/files.after"
  comm -13 "$WORK/files.before" "$WORK/files.after" | while read -r f; do
    if foreign_file "$f"; then
      echo "  (ignoring $f: named after a live process, so another job's)" >&2
    else
      echo "$f"
    fi
  done
}

# Pids of live processes running this build's testexit (argv[0] is its path,
# or the real binary's path when libtool put a wrapper script in front).
# Zombies do not count: they are gone as soon as their parent reaps them.
testexit_pids() {
  ps -eo pid=,stat=,args= | P="$PROG" awk '
    $2 !~ /^Z/ && ($3 == ENVIRON["P"] || $3 == ENVIRON["P"] "-par") { print $1 }'
}

# Wait up to $1 ms for every testexit process to end. Prints the survivors
# (and ends them: they are ours) when some are left.
check_orphans() {
  orph_end=$(($(now_ms) + $1))
  while :; do
    orph=$(testexit_pids)
    [ -z "$orph" ] && return 0
    [ "$(now_ms)" -ge "$orph_end" ] && break
    nap
  done
  echo "  orphans after the job ended: $(echo "$orph" | tr '\n' ' ')"
  ps -o pid=,stat=,args= -p "$(echo "$orph" | tr '\n' ',' | sed 's/,$//')" 2>/dev/null |
    sed 's/^/    /'
  for p in $orph; do kill -KILL "$p" 2>/dev/null || true; done
  return 1
}

# Leak checks after a scenario: orphans, then new files. Returns 1 on a
# leak. A job's processes get 3 s to go: on a loaded machine an MPI
# launcher's daemons take more than a second to end the processes of a
# job whose mpirun was killed.
check_leaks() {
  leak_rc=0
  if ! check_orphans 3000; then leak_rc=1; fi
  lf=$(new_files)
  if [ -n "$lf" ]; then
    echo "  new gasnet files: $(echo "$lf" | tr '\n' ' ')"
    leak_rc=1
  fi
  return $leak_rc
}

verdict() { # $1 = 0 pass / 1 fail, $2 = label, $3 = details
  RAN=$((RAN + 1))
  if [ "$1" -eq 0 ]; then
    echo "PASS $2 $3"
  else
    echo "FAIL $2 $3"
    FAILED=$((FAILED + 1))
    FAIL_LINES="$FAIL_LINES
FAIL $2 $3"
  fi
}

finish() {
  [ -n "$NOTES" ] && printf '%s\n' "$NOTES"
  if [ "$FAILED" -gt 0 ]; then
    printf 'failed:%s\n' "$FAIL_LINES" # again at the end, where a log's tail shows them
    echo "$FAILED scenario(s) failed"
    exit 1
  fi
  if [ "$RAN" -eq 0 ]; then
    echo "no scenario ran at these node counts"
    exit 77
  fi
  exit 0
}

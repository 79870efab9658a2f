#!/bin/sh
# harness.sh: runs the test cases listed in tests/*.cases and tests/*/*.cases.
#
#   sh tests/harness.sh [TOP_BUILDDIR [TOP_SRCDIR]]
# (or with top_builddir / top_srcdir in the environment; `make check` does
# this). Each non-comment line of a case file is
#
#   NAME NODES EXPECT TIMEOUT COMMAND [ARGS...]
#
#   NODES    comma list of node counts: COMMAND runs once per count under
#            the launcher; `-` runs COMMAND directly, once; `suite` runs
#            COMMAND directly, once, as a suite of its own (another harness
#            run, such as tests/conformance.sh): its output is shown as it
#            comes, and the totals it ends with ("N passed, N failed[, N
#            skipped]") are added to this run's instead of one case.
#   EXPECT   the exit code required: a number, or !0 for any non-zero one.
#            A case that exits 77 (and does not expect 77) is skipped.
#   TIMEOUT  seconds; the case runs under `timeout -k 5 TIMEOUT`, and
#            running out of time is a failure.
#   COMMAND  relative to the top build dir (else to the source dir, else
#            found on PATH) unless absolute. In COMMAND and ARGS, @N@ becomes the node count,
#            @BUILDDIR@ / @SRCDIR@ the absolute top build / source dirs, and
#            a word @LAUNCHER@ the launcher words for the count (the launcher
#            is then not put in front: for wrapper scripts).
#
# Fields are separated by blanks; there is no quoting. Lines whose first
# non-blank character is # are comments.
#
# After each run the harness checks that the case left nothing behind: no
# new /dev/shm or /tmp entry named *gasnet*, and no live process that was
# started by the case (found by a tag in its environment) or runs the
# case's program. A leftover process is killed and fails the case.
#
# Environment:
#   TESTS_FILTER=REGEX       run only the cases whose NAME matches (grep -E);
#                            suites are cases too (their own cases are
#                            chosen by the suite: tests/conformance.sh
#                            reads GASNET_CONFORMANCE_FILTER/_EXCLUDE)
#   TESTS_EXCLUDE=REGEX      skip the cases whose NAME matches (grep -E)
#   GASNET_TEST_CASEFILES=LIST  the case files to run, relative to the
#                            source dir (default: every tests/*.cases and
#                            tests/*/*.cases)
#   GASNET_TEST_NODES=LIST   use LIST instead of every case's node list
#   GASNET_TEST_LAUNCHER=CMD the launcher; @N@ in it becomes the count,
#                            else `-n N` is appended. Default:
#                            BUILDDIR/conduits/smp/gasnetrun_smp -n N
#   GASNET_TEST_LOGDIR=DIR   keep every case's output in DIR
#   GASNET_TEST_TIMEOUT_SCALE=N  multiply every case's TIMEOUT by N (slow
#                            builds: ThreadSanitizer, tests/tsan/run_tsan.sh)
#
# Prints one line per run (PASS/FAIL/SKIP, the name, n=N, the time; a
# failure adds the reason and the tail of the output) and finally
# "N passed, N failed[, N skipped]". Exits 1 if anything failed.

set -u

die() {
  echo "harness: $*" >&2
  exit 2
}

builddir=${1:-${top_builddir:-.}}
srcdir=${2:-${top_srcdir:-$builddir}}
builddir=$(cd "$builddir" 2>/dev/null && pwd) || die "no build dir '$builddir'"
srcdir=$(cd "$srcdir" 2>/dev/null && pwd) || die "no source dir '$srcdir'"
command -v timeout >/dev/null 2>&1 || die "the timeout command (coreutils) is needed"

filter=${TESTS_FILTER:-}
exclude=${TESTS_EXCLUDE:-}
nodes_override=${GASNET_TEST_NODES:-}
tmo_scale=${GASNET_TEST_TIMEOUT_SCALE:-1}
case $tmo_scale in
  '' | *[!0-9.]* | .*) die "GASNET_TEST_TIMEOUT_SCALE '$tmo_scale' is not a number" ;;
esac
launcher=${GASNET_TEST_LAUNCHER:-$builddir/conduits/smp/gasnetrun_smp}
case ${GASNET_TEST_LAUNCHER:-} in
  '') launcher_appends_n=1 ;;
  *@N@*) launcher_appends_n=0 ;;
  *) launcher_appends_n=1 ;;
esac

if [ -n "${GASNET_TEST_LOGDIR:-}" ]; then
  logdir=$GASNET_TEST_LOGDIR
  mkdir -p "$logdir" || die "cannot create $logdir"
  keep_logs=1
else
  logdir=$(mktemp -d "${TMPDIR:-/tmp}/harness.XXXXXX") || die "mktemp failed"
  keep_logs=0
fi

passed=0
failed=0
skipped=0
caseno=0
case_pid=
tag_prefix="harness-$$-$(date +%s)"

cleanup() {
  if [ -n "$case_pid" ]; then kill -TERM "$case_pid" 2>/dev/null; fi
  if [ "$keep_logs" = 0 ]; then rm -rf "$logdir"; fi
}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup' EXIT

# ------------------------------------------------------------ helpers

# subst STRING FROM TO: STRING with every FROM replaced by TO (literally).
subst() {
  s=$1 out=''
  while :; do
    case $s in
      *"$2"*)
        out=$out${s%%"$2"*}$3
        s=${s#*"$2"}
        ;;
      *) break ;;
    esac
  done
  printf '%s' "$out$s"
}

# quote WORD: WORD as a single-quoted shell word, for eval.
quote() {
  case $1 in
    *\'*) printf "'%s' " "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf "'%s' " "$1" ;;
  esac
}

now() { date +%s.%N 2>/dev/null | sed 's/N$/0/'; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# The /dev/shm and /tmp entries a leak would leave, one per line.
gasnet_files() {
  for f in /dev/shm/*gasnet* /dev/shm/*GASNET* /tmp/*gasnet* /tmp/*GASNET*; do
    if [ -e "$f" ]; then echo "$f"; fi
  done
}

# PIDs of live processes started by the case: those carrying TAG in their
# environment, and those whose argv[0] is PROG (an absolute path in the
# build dir, or empty). Zombies and this shell do not count.
case_processes() {
  {
    if [ -d /proc/self ]; then
      grep -lzx "GASNET_TEST_HARNESS_TAG=$1" /proc/[0-9]*/environ 2>/dev/null |
        sed -e 's|^/proc/||' -e 's|/environ$||'
    fi
    if [ -n "$2" ]; then
      ps -eo pid=,args= 2>/dev/null | awk -v p="$2" '$2 == p { print $1 }'
    fi
  } | sort -u | while read -r pid; do
    [ "$pid" != "$$" ] || continue
    state=$(ps -o stat= -p "$pid" 2>/dev/null)
    case $state in '' | Z*) ;; *) echo "$pid" ;; esac
  done
}

# Waits up to 3 s for the case's processes to end; kills the rest.
# Prints a description of what was left, if anything.
reap_leftovers() {
  tries=0
  pids=$(case_processes "$1" "$2")
  while [ -n "$pids" ] && [ $tries -lt 15 ]; do
    sleep 0.2
    tries=$((tries + 1))
    pids=$(case_processes "$1" "$2")
  done
  [ -n "$pids" ] || return 0
  for pid in $pids; do
    printf 'left process %s: %s; ' "$pid" "$(ps -o args= -p "$pid" 2>/dev/null | cut -c1-80)"
  done
  for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
}

# Report one run: STATUS NAME LABEL SECONDS [REASON] [LOG]
report() {
  printf '%s %s%s (%ss)' "$1" "$2" "$3" "$4"
  if [ -n "${5:-}" ]; then printf ': %s' "$5"; fi
  printf '\n'
  if [ "$1" = FAIL ] && [ -n "${6:-}" ] && [ -s "$6" ]; then
    echo "    --- last lines of output ---"
    tail -n 20 "$6" | sed 's/^/    | /'
  fi
}

# ------------------------------------------------------------ one run

# run_case NAME LABEL N EXPECT TIMEOUT QUOTED-WORDS
# N is the node count or empty (direct run).
run_case() {
  name=$1 label=$2 count=$3 expect=$4 tmo=$5 words=$6
  caseno=$((caseno + 1))
  tag="$tag_prefix-$caseno"
  log="$logdir/$(printf '%03d' $caseno)-$name${count:+-n$count}.log"

  # Build the command: @N@, @LAUNCHER@, launcher in front, path resolved.
  eval "set -- $words"
  launch_words=
  if [ -n "$count" ]; then
    if [ "$launcher_appends_n" = 1 ]; then
      launch_words="$launcher -n $count"
    else
      launch_words=$(subst "$launcher" @N@ "$count")
    fi
  fi
  cmd='' uses_launcher=0 first=1 prog=''
  for w in "$@"; do
    w=$(subst "$w" @N@ "${count:-1}")
    if [ "$w" = @LAUNCHER@ ]; then
      uses_launcher=1
      for lw in $launch_words; do cmd="$cmd$(quote "$lw")"; done # one word each
      continue
    fi
    if [ $first = 1 ]; then
      first=0
      case $w in
        /*) ;;
        *) if [ -e "$builddir/$w" ]; then w=$builddir/$w; elif [ -e "$srcdir/$w" ]; then w=$srcdir/$w; fi ;;
      esac
      if [ ! -e "$w" ]; then
        report FAIL "$name" "$label" 0 "no such command: $w"
        failed=$((failed + 1))
        return
      fi
      if [ ! -x "$w" ]; then
        case $w in
          *.sh) cmd="${cmd}'sh' " ;;
          *)
            report FAIL "$name" "$label" 0 "not executable: $w"
            failed=$((failed + 1))
            return
            ;;
        esac
      fi
      case $w in "$builddir"/*) prog=$w ;; esac
    fi
    cmd="$cmd$(quote "$w")"
  done
  if [ -n "$count" ] && [ $uses_launcher = 0 ]; then
    pre=
    for lw in $launch_words; do pre="$pre$(quote "$lw")"; done
    cmd="$pre$cmd"
  fi
  if [ -n "$count" ]; then
    # shellcheck disable=SC2086 # the launcher is a list of words
    set -- $launch_words
    if [ ! -x "$1" ] && ! command -v "$1" >/dev/null 2>&1; then
      report FAIL "$name" "$label" 0 "no launcher: $1"
      failed=$((failed + 1))
      return
    fi
  fi

  files_before=$(gasnet_files)
  t0=$(now)
  eval "set -- $cmd"
  (cd "$builddir" && GASNET_TEST_HARNESS_TAG=$tag exec timeout -k 5 "$tmo" "$@") \
    </dev/null >"$log" 2>&1 &
  case_pid=$!
  wait "$case_pid"
  rc=$?
  case_pid=
  t1=$(now)
  secs=$(elapsed "$t0" "$t1")

  # What the case left behind.
  leftovers=$(reap_leftovers "$tag" "$prog")
  newfiles=$(gasnet_files | while read -r f; do
    printf '%s\n' "$files_before" | grep -qxF -- "$f" || printf '%s ' "$f"
  done)

  # timeout exits 124 (137 after -k) when time ran out; a case that exits
  # 124 by itself has not used up its time.
  timed_out=0
  case $rc in
    124 | 137) awk -v s="$secs" -v t="$tmo" 'BEGIN { exit !(s >= t - 0.5) }' && timed_out=1 ;;
  esac
  reason=
  if [ $timed_out = 1 ]; then
    reason="timed out after ${tmo}s"
  elif [ "$expect" = '!0' ]; then
    [ $rc != 0 ] || reason="exit 0, expected non-zero"
  elif [ $rc != "$expect" ]; then
    if [ $rc = 77 ]; then
      report SKIP "$name" "$label" "$secs" "the case asked to be skipped (exit 77)"
      skipped=$((skipped + 1))
      return
    fi
    reason="exit $rc, expected $expect"
  fi
  if [ -n "$leftovers" ]; then reason="${reason:+$reason; }$leftovers"; fi
  if [ -n "$newfiles" ]; then reason="${reason:+$reason; }left files: $newfiles"; fi

  if [ -z "$reason" ]; then
    report PASS "$name" "$label" "$secs"
    passed=$((passed + 1))
  else
    report FAIL "$name" "$label" "$secs" "$reason" "$log"
    failed=$((failed + 1))
  fi
}

# ------------------------------------------------------------ a suite

# run_suite NAME EXPECT TIMEOUT QUOTED-WORDS: runs the command once, showing
# its output as it comes, and adds its totals to ours. A suite that ends
# without totals, with an exit code other than EXPECT while reporting no
# failure, or out of time, counts one failure more; one that exits 77
# without totals is skipped.
run_suite() {
  name=$1 expect=$2 tmo=$3 words=$4
  caseno=$((caseno + 1))
  log="$logdir/$(printf '%03d' $caseno)-$name.log"
  eval "set -- $words"
  first=$1
  case $first in
    /*) ;;
    *) if [ -e "$builddir/$first" ]; then first=$builddir/$first; elif [ -e "$srcdir/$first" ]; then first=$srcdir/$first
       elif command -v "$first" >/dev/null 2>&1; then first=$(command -v "$first"); fi ;;
  esac
  shift
  if [ ! -e "$first" ]; then
    report FAIL "$name" "" 0 "no such command: $first"
    failed=$((failed + 1))
    return
  fi
  case $first in
    *.sh) if [ ! -x "$first" ]; then set -- "$first" "$@"; first=sh; fi ;;
  esac
  echo "=== suite $name"
  t0=$(now)
  rcfile=$logdir/rc.$caseno
  { (cd "$builddir" && exec timeout -k 5 "$tmo" "$first" "$@") </dev/null 2>&1
    echo $? >"$rcfile"; } | tee "$log"
  rc=$(cat "$rcfile" 2>/dev/null || echo 1)
  rm -f "$rcfile"
  secs=$(elapsed "$t0" "$(now)")
  totals=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  p=$(echo "$totals" | sed -nE 's/^([0-9]+) passed.*/\1/p')
  f=$(echo "$totals" | sed -nE 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/p')
  s=$(echo "$totals" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
  if [ -z "$totals" ] && [ "$rc" = 77 ] && [ "$expect" != 77 ]; then
    report SKIP "$name" " (suite)" "$secs" "the suite asked to be skipped (exit 77)"
    skipped=$((skipped + 1))
    return
  fi
  reason=
  if [ -z "$totals" ]; then
    reason="no totals line (exit $rc)"
  elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    reason="timed out after ${tmo}s"
  elif [ "${f:-0}" = 0 ] && [ "$expect" != '!0' ] && [ "$rc" != "$expect" ]; then
    reason="exit $rc, expected $expect"
  fi
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  skipped=$((skipped + ${s:-0}))
  if [ -n "$reason" ]; then
    report FAIL "$name" " (suite)" "$secs" "$reason"
    failed=$((failed + 1))
  else
    echo "=== suite $name: ${totals:-nothing} (${secs}s)"
  fi
}

# ------------------------------------------------------------ case files

bad_line() {
  report FAIL "$1" "" 0 "bad case line $2: $3"
  failed=$((failed + 1))
}

# run_line FILE:LINE WORDS...: checks and runs one case line.
run_line() {
  where=$1
  shift
  if [ $# -lt 5 ]; then
    bad_line "${1:-?}" "$where" "need NAME NODES EXPECT TIMEOUT COMMAND"
    return
  fi
  name=$1 nodes=$2 expect=$3 tmo=$4
  shift 4
  if [ -n "$filter" ] && ! printf '%s\n' "$name" | grep -Eq -- "$filter"; then return; fi
  if [ -n "$exclude" ] && printf '%s\n' "$name" | grep -Eq -- "$exclude"; then return; fi
  case $nodes in
    - | suite) ;;
    *[!0-9,]* | ,* | *, | *,,*) bad_line "$name" "$where" "NODES '$nodes'"; return ;;
  esac
  case $expect in
    '!0') ;;
    '' | *[!0-9]*) bad_line "$name" "$where" "EXPECT '$expect'"; return ;;
  esac
  case $tmo in
    '' | *[!0-9.]*) bad_line "$name" "$where" "TIMEOUT '$tmo'"; return ;;
  esac
  [ "$tmo_scale" = 1 ] || tmo=$(awk -v t="$tmo" -v s="$tmo_scale" 'BEGIN { print t * s }')
  words=
  for w in "$@"; do
    w=$(subst "$w" @BUILDDIR@ "$builddir")
    w=$(subst "$w" @SRCDIR@ "$srcdir")
    words="$words$(quote "$w")"
  done
  if [ "$nodes" = - ]; then
    run_case "$name" "" "" "$expect" "$tmo" "$words"
    return
  fi
  if [ "$nodes" = suite ]; then
    run_suite "$name" "$expect" "$tmo" "$words"
    return
  fi
  [ -z "$nodes_override" ] || nodes=$nodes_override
  for n in $(printf '%s' "$nodes" | tr ',' ' '); do
    run_case "$name" " n=$n" "$n" "$expect" "$tmo" "$words"
  done
}

run_file() {
  file=$1
  lineno=0
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    set -f
    # shellcheck disable=SC2086 # splitting the line into fields is the point
    set -- $line
    set +f
    [ $# -gt 0 ] || continue
    case $1 in \#*) continue ;; esac
    # Nothing a case runs may read the rest of the case file.
    run_line "${file#"$srcdir"/}:$lineno" "$@" </dev/null
  done <"$file"
}

echo "harness: build dir $builddir, source dir $srcdir"
found=0
if [ -n "${GASNET_TEST_CASEFILES:-}" ]; then
  for f in $GASNET_TEST_CASEFILES; do
    [ -f "$srcdir/$f" ] || die "no case file $srcdir/$f"
    found=1
    run_file "$srcdir/$f"
  done
else
  for f in "$srcdir"/tests/*.cases "$srcdir"/tests/*/*.cases; do
    [ -f "$f" ] || continue
    found=1
    run_file "$f"
  done
fi
[ $found = 1 ] || die "no case files under $srcdir/tests"

summary="$passed passed, $failed failed"
[ $skipped = 0 ] || summary="$summary, $skipped skipped"
echo "$summary"
if [ "$keep_logs" = 1 ]; then echo "harness: logs in $logdir"; fi
[ $failed = 0 ]

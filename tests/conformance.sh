#!/bin/sh
# conformance.sh: the conformance suite of one conduit. Builds every
# conduit-generic test program (tests/programs.list) against the conduit's
# libraries, through its client makefile fragments, checks that each
# program really linked that conduit, runs the conduit-generic case files
# (core, extended API, collectives, exit and signals, tracing and
# debugging, benchmarks) with the
# conduit's launcher, and prints a report by feature, ending with
# "N passed, N failed[, N skipped]".
#
# Usage: conformance.sh [OPTIONS] CONDUIT
#   -b DIR     the build tree holding the conduit (default: .): its
#              fragments conduits/C/C-<mode>.mak and launcher
#              conduits/C/gasnetrun_C
#   -p PREFIX  an installed tree instead: PREFIX/include/C-conduit/C-<mode>.mak
#              and PREFIX/bin/gasnetrun_C
#   -o DIR     where the programs go (default: BUILDDIR/conformance/C, or
#              ./conformance-C with -p); each run's files go to DIR/run-LABEL
#   -l LABEL   names this run (default: default), e.g. a transport
#   -n LIST    run every case at these node counts (e.g. 1,2,3,4,8);
#              GASNET_CONFORMANCE_NODES, when set, replaces LIST too (a
#              build that runs every suite at fewer counts: check.sh's
#              sanitizer pass)
#   -m MAX     lower each case's node counts above MAX to MAX
#   -1         drop 1-node runs (shapes where one node exercises nothing new)
#   -f REGEX   run only the cases whose name matches (default:
#              GASNET_CONFORMANCE_FILTER); -x REGEX: skip those too, besides
#              the ones GASNET_CONFORMANCE_EXCLUDE names
#   -B         build and check the programs, run nothing
#   -c FILE    a case file to run, relative to the source tree (repeatable;
#              default: every conduit-generic one)
# conformance.sh --check-link CONDUIT PROGRAM: exits 0 if PROGRAM was
# linked with CONDUIT's library, 1 (saying why) if not.
#
# A case whose name ends in _C, where C is a conduit (a directory
# conduits/C with a gasnet_core.h), runs only on conduit C. Cases that are
# not about a conduit (tools, install_*) are left out. The environment
# reaches every job (e.g. GASNET_MPIRUN_ARGS for the mpi conduit's
# launcher); GASNET_TEST_TIMEOUT_SCALE scales every case's time limit.
set -eu

SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
GENERIC_CASES="tests/core.cases tests/ext/ext.cases tests/coll/coll.cases tests/exit/exit.cases tests/trace/trace.cases tests/perf/perf.cases"

die() {
  echo "conformance: $*" >&2
  exit 2
}

# ------------------------------------------------------------ link check
# A program built for conduit C in mode M carries, from the conduit
# library, the definitions of gasneti_linkcheck_conduit_C and
# gasneti_linkcheck_threadmode_M (include/gasnet.h makes every client
# refer to both, so linking another conduit's or mode's library fails).
check_link() { # CONDUIT PROGRAM [MODE]
  command -v nm >/dev/null 2>&1 || die "nm (binutils) is needed for the link check"
  syms=$(nm "$2" 2>/dev/null | awk '$2 ~ /^[BDCGS]$/ && $3 ~ /^gasneti_linkcheck_/ { print $3 }')
  if ! echo "$syms" | grep -qx "gasneti_linkcheck_conduit_$1"; then
    found=$(echo "$syms" | sed -n 's/^gasneti_linkcheck_conduit_//p' | tr '\n' ' ')
    echo "$2 was not linked with the $1 conduit's library (it holds: ${found:-no conduit library})"
    return 1
  fi
  if [ -n "${3:-}" ] && ! echo "$syms" | grep -qx "gasneti_linkcheck_threadmode_$3"; then
    echo "$2 was not linked with the $3 library of the $1 conduit"
    return 1
  fi
  return 0
}

if [ "${1:-}" = --check-link ]; then
  [ $# -eq 3 ] || die "usage: conformance.sh --check-link CONDUIT PROGRAM"
  check_link "$2" "$3"
  exit $?
fi

# ------------------------------------------------------------ options
# The harness's own settings are the defaults.
BUILDDIR=. PREFIX= OUT= LABEL=default NODES=${GASNET_TEST_NODES:-} MAXN= DROP1=0
FILTER=${GASNET_CONFORMANCE_FILTER:-} EXCLUDE=${GASNET_CONFORMANCE_EXCLUDE:-} BUILD_ONLY=0 CASEFILES=
while getopts b:p:o:l:n:m:1f:x:Bc: opt; do
  case $opt in
    l) LABEL=$OPTARG ;;
    b) BUILDDIR=$OPTARG ;;
    p) PREFIX=$OPTARG ;;
    o) OUT=$OPTARG ;;
    n) NODES=$OPTARG ;;
    m) MAXN=$OPTARG ;;
    1) DROP1=1 ;;
    f) FILTER=$OPTARG ;;
    x) EXCLUDE=${EXCLUDE:+$EXCLUDE|}$OPTARG ;;
    B) BUILD_ONLY=1 ;;
    c) CASEFILES="$CASEFILES $OPTARG" ;;
    *) die "unknown option (see the top of $0)" ;;
  esac
done
shift $((OPTIND - 1))
NODES=${GASNET_CONFORMANCE_NODES:-$NODES}
[ $# -eq 1 ] || die "usage: conformance.sh [OPTIONS] CONDUIT (see the top of $0)"
C=$1
case $C in '' | *[!a-z0-9_]*) die "'$C' is not a conduit name" ;; esac
case $NODES in *[!0-9,]*) die "-n $NODES: not a list of node counts" ;; esac
case $MAXN in *[!0-9]*) die "-m $MAXN: not a node count" ;; esac
CASEFILES=${CASEFILES:-$GENERIC_CASES}

if [ -n "$PREFIX" ]; then
  PREFIX=$(cd "$PREFIX" 2>/dev/null && pwd) || die "no installed tree at $PREFIX"
  FRAGDIR=$PREFIX/include/$C-conduit
  LAUNCHER=$PREFIX/bin/gasnetrun_$C
  OUT=${OUT:-$PWD/conformance-$C}
  TOOLDIR=
else
  BUILDDIR=$(cd "$BUILDDIR" 2>/dev/null && pwd) || die "no build tree at $BUILDDIR"
  FRAGDIR=$BUILDDIR/conduits/$C
  LAUNCHER=$BUILDDIR/conduits/$C/gasnetrun_$C
  OUT=${OUT:-$BUILDDIR/conformance/$C}
  TOOLDIR=$BUILDDIR
fi
for mode in seq par; do
  [ -f "$FRAGDIR/$C-$mode.mak" ] ||
    die "no $FRAGDIR/$C-$mode.mak: is the $C conduit built (configure --enable-$C, make)?"
done
[ -x "$LAUNCHER" ] || die "no launcher $LAUNCHER"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# ------------------------------------------------------------ build
# A makefile in OUT builds every program of tests/programs.list through
# the conduit's two fragments (each read into its own variables), with the
# test sources' include directories and warnings on; -MMD keeps the
# header dependencies (named after the program, -MT, which is the target
# here: the object has no rule of its own). Every program depends on the
# makefile too, which is replaced only when it changes: new flags or rules
# rebuild the programs.
write_makefile() {
  mk=$OUT/Makefile
  {
    echo "# Generated by tests/conformance.sh for the $C conduit: do not edit."
    for mode in seq par; do
      echo "include $FRAGDIR/$C-$mode.mak"
      for v in CC CPPFLAGS CFLAGS LD LDFLAGS LIBS; do echo "${mode}_$v := \$(GASNET_$v)"; done
      echo "${mode}_DEPS := \$(filter %.a,\$(${mode}_LIBS))"
    done
    echo "TEST_CPPFLAGS = -I$SRCDIR/tests -I$SRCDIR/tests/ext"
    echo "TEST_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers"
    printf 'PROGRAMS ='
    awk '!/^#/ && NF >= 3 { printf " %s", $1 }' "$SRCDIR/tests/programs.list"
    echo
    echo "all: \$(PROGRAMS)"
    awk -v src="$SRCDIR" '
      !/^#/ && NF >= 3 {
        prog = $1; source = src "/" $2; mode = $3
        if (mode == "plain") {
          print prog ": " source " Makefile"
          print "\t@mkdir -p $(@D)"
          print "\t$(seq_CC) $(TEST_CFLAGS) -o $@ " source
          next
        }
        if (mode != "seq" && mode != "par") { print "$(error " prog ": mode " mode " is not seq, par or plain)"; next }
        dir = source; sub(/\/[^\/]*$/, "", dir)
        print prog ": " source " Makefile $(" mode "_DEPS)"
        print "\t@mkdir -p $(@D)"
        print "\t$(" mode "_CC) $(" mode "_CPPFLAGS) $(TEST_CPPFLAGS) -I" dir " $(" mode "_CFLAGS) $(TEST_CFLAGS) -MMD -MP -MT $@ -MF $@.d -c -o $@.o " source
        print "\t$(" mode "_LD) $(" mode "_LDFLAGS) -o $@ $@.o $(" mode "_LIBS)"
      }' "$SRCDIR/tests/programs.list"
    echo "-include \$(addsuffix .d,\$(PROGRAMS))"
  } >"$mk.new"
  if cmp -s "$mk.new" "$mk"; then rm -f "$mk.new"; else mv "$mk.new" "$mk"; fi
}

build_programs() {
  write_makefile
  echo "=== $C conduit: building $(awk '!/^#/ && NF >= 3' "$SRCDIR/tests/programs.list" | wc -l) programs in $OUT"
  if ! make -C "$OUT" -s -j"${GASNET_CONFORMANCE_JOBS:-2}" >"$OUT/build.log" 2>&1; then
    tail -n 30 "$OUT/build.log"
    echo "FAIL build: the test programs do not build against the $C conduit (log: $OUT/build.log)"
    return 1
  fi
  bad=0
  while read -r prog _ mode _; do
    case $prog in '#'* | '') continue ;; esac
    [ "$mode" = plain ] && continue
    m=SEQ
    [ "$mode" = par ] && m=PAR
    check_link "$C" "$OUT/$prog" $m || bad=1
  done <"$SRCDIR/tests/programs.list"
  if [ $bad = 1 ]; then
    echo "FAIL build: some programs did not link the $C conduit"
    return 1
  fi
}

if ! build_programs; then
  echo "0 passed, 1 failed"
  exit 1
fi
if [ $BUILD_ONLY = 1 ]; then
  echo "=== $C conduit: every program built and linked the $C conduit"
  exit 0
fi

# ------------------------------------------------------------ cases
# The harness gets OUT as its build dir (the programs sit where the case
# files name them) and a shadow source dir: links to every file under
# tests/ but the case files, and the chosen case files rewritten for this
# conduit (other conduits' cases and conduit-free cases dropped, node
# counts capped).
case $LABEL in '' | */* | .*) die "-l $LABEL: not a plain name" ;; esac
RUN=$OUT/run-$LABEL
SHADOW=$RUN/src
rm -rf "$RUN"
mkdir -p "$SHADOW"
(cd "$SRCDIR" && find tests -type f ! -name '*.cases' -print) | while read -r f; do
  mkdir -p "$SHADOW/$(dirname "$f")"
  ln -s "$SRCDIR/$f" "$SHADOW/$f"
done
others=$(for d in "$SRCDIR"/conduits/*/; do
  n=$(basename "$d")
  if [ -f "$d/gasnet_core.h" ] && [ "$n" != "$C" ]; then printf '%s|' "$n"; fi
done)
SKIP="^(tools|install_.*|.*_(${others%|}))\$"

shadow_cases() { # FROM TO
  awk -v skip="$SKIP" -v maxn="$MAXN" -v drop1="$DROP1" '
    /^[ \t]*#/ || NF == 0 { print; next }
    $1 ~ skip { next }
    $2 == "-" { print; next }
    {
      n = split($2, c, ","); list = ""; delete seen
      for (i = 1; i <= n; i++) {
        v = c[i] + 0; if (maxn != "" && v > maxn + 0) v = maxn + 0
        if ((drop1 && v == 1) || (v in seen)) continue
        seen[v] = 1; list = list (list == "" ? "" : ",") v
      }
      if (list == "") next
      match($0, /^[ \t]*[^ \t]+[ \t]+/); head = substr($0, 1, RLENGTH)
      rest = substr($0, RLENGTH + 1); sub(/^[^ \t]+/, "", rest)
      print head list rest
    }' "$1" >"$2"
}

for f in $CASEFILES; do
  [ -f "$SRCDIR/$f" ] || die "no case file $SRCDIR/$f"
  mkdir -p "$SHADOW/$(dirname "$f")"
  shadow_cases "$SRCDIR/$f" "$SHADOW/$f"
done

echo "=== $C conduit: $CASEFILES${NODES:+ at $NODES nodes}${MAXN:+ (at most $MAXN nodes)}"
LOG=$RUN/harness.out
# What the scripts among the cases need: the launcher, and the build tree
# of the conduit-free helper programs (tests/exit/sigdfl).
GASNET_CONFORMANCE_CONDUIT=$C
GASNET_CONFORMANCE_LAUNCHER=$LAUNCHER
GASNET_CONFORMANCE_TOOLDIR=$TOOLDIR
export GASNET_CONFORMANCE_CONDUIT GASNET_CONFORMANCE_LAUNCHER GASNET_CONFORMANCE_TOOLDIR
GASNET_TEST_LAUNCHER="$LAUNCHER -n @N@" GASNET_TEST_NODES="$NODES" GASNET_TEST_CASEFILES="$CASEFILES" \
  TESTS_FILTER="$FILTER" TESTS_EXCLUDE="$EXCLUDE" \
  sh "$SRCDIR/tests/harness.sh" "$OUT" "$SHADOW" </dev/null | tee "$LOG" || true

# ------------------------------------------------------------ report
# Each case counts toward one feature, by its name.
echo "=== $C conduit, by feature"
awk '
  function feature(name) {
    if (name ~ /^(am|amchain|amorder|handlers|misc|threads|scale)(_|$)/) return "core: active messages, handlers, threads"
    if (name ~ /^(segment|pshm)/) return "core: segments and shared memory"
    if (name ~ /^exit_/) return "exit and signals"
    if (name ~ /^ext_barrier/) return "extended: barriers"
    if (name ~ /^ext_/) return "extended: put/get"
    if (name ~ /^coll_(broadcast|scatter|gather|gather_all|exchange)$/) return "collectives: " substr(name, 6)
    if (name ~ /^(reduce|scan)/) return "collectives: reduce and scan"
    if (name ~ /^(team|collerr_team)/) return "collectives: teams"
    if (name ~ /^(images|imageserr)/) return "collectives: images and M forms"
    if (name ~ /^(collnb|coll_outstanding|coll_progress)/) return "collectives: non-blocking, sync, progress"
    if (name ~ /^collerr/) return "collectives: argument errors"
    if (name ~ /^coll_/) return "collectives: algorithms forced"
    if (name ~ /^(trace|debug_|verboseenv)/) return "tracing, statistics, debugging"
    if (name ~ /perf|^amflood/) return "benchmarks run"
    return "other"
  }
  $1 == "PASS" || $1 == "FAIL" || $1 == "SKIP" {
    f = feature($2); seen[f] = 1; count[f, $1]++
  }
  END {
    n = 0
    for (f in seen) names[++n] = f
    for (i = 2; i <= n; i++) for (j = i; j > 1 && names[j] < names[j - 1]; j--) {
      t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
    }
    for (i = 1; i <= n; i++) {
      f = names[i]
      verdict = count[f, "FAIL"] ? "FAIL" : (count[f, "PASS"] ? "ok" : "skipped")
      printf "  %-4s %-45s %4d passed, %d failed, %d skipped\n", verdict, f,
        count[f, "PASS"], count[f, "FAIL"], count[f, "SKIP"]
    }
  }' "$LOG"
totals=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG" | tail -n 1)
[ -n "$totals" ] || { echo "FAIL the harness printed no totals"; echo "0 passed, 1 failed"; exit 1; }
echo "$totals"
case $totals in
  *' 0 failed'*) case $totals in 0\ passed*) exit 1 ;; esac; exit 0 ;;
  *) exit 1 ;;
esac

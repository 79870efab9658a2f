#!/bin/sh
# test_installed.sh BUILDDIR SRCDIR: install the build under a temporary
# prefix (make install prefix=...), then build and run examples/hello_am
# from the installed tree only, for every conduit built (smp, mpi), the two
# ways GASNet clients do:
#   1. examples/Makefile including include/CONDUIT-conduit/CONDUIT-seq.mak
#   2. pkg-config gasnet-CONDUIT-seq
# Each binary runs with the installed bin/gasnetrun_CONDUIT -n 3 and its
# output is checked. The staging directory is removed at the end.
set -eu

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILDDIR SRCDIR" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
SRCDIR=$(cd "$2" && pwd)
NODES=3
CONDUITS=
for c in smp mpi; do
  [ -e "$BUILDDIR/conduits/$c/gasnetrun_$c" ] && CONDUITS="$CONDUITS $c"
done
if [ -z "$CONDUITS" ]; then
  echo "SKIP install_example: no conduit with a launcher is built in $BUILDDIR"
  exit 77 # the harness's "skipped"
fi

# No "gasnet" in the name: the test harness counts /tmp/*gasnet* as leaks.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/instexample.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
STAGE=$TMP/stage
WORK=$TMP/work

fail() {
  echo "FAIL install_example: $*"
  for log in "$TMP"/*.log; do
    [ -s "$log" ] || continue
    echo "--- tail of $(basename "$log")"
    tail -n 20 "$log" | sed 's/^/| /'
  done
  exit 1
}

# A make started from `make check` would inherit the outer make's flags and
# jobserver; this install is a separate, sequential job.
unset MAKEFLAGS MFLAGS MAKELEVEL || true

# The fragments and .pc files are written at install time and name the
# prefix given then, so the tree is installed with prefix= (not DESTDIR=,
# which stages a tree meant for the configured prefix).
install_tree() {
  timeout 600 make -C "$BUILDDIR" install prefix="$STAGE" >"$TMP/install.log" 2>&1 ||
    fail "make install prefix=$STAGE failed"
  [ -f "$STAGE/include/gasnet.h" ] || fail "no include/gasnet.h in the installed tree"
  PREFIX=$STAGE
  echo "installed into $PREFIX"
}

# The files a client of conduit $1 needs, and where they are.
check_conduit_files() {
  MAK=$PREFIX/include/$1-conduit/$1-seq.mak
  LAUNCH=$PREFIX/bin/gasnetrun_$1
  for f in include/gasnet.h include/gasnet_config.h include/$1-conduit/gasnet_core.h \
    include/$1-conduit/$1-seq.mak include/$1-conduit/$1-par.mak \
    bin/gasnetrun_$1 lib/pkgconfig/gasnet-$1-seq.pc lib/pkgconfig/gasnet-$1-par.pc; do
    [ -e "$PREFIX/$f" ] || fail "the installed tree lacks $f"
  done
  [ -x "$LAUNCH" ] || fail "bin/gasnetrun_$1 is not executable"
}

# A copy outside both trees, so nothing can come from the source or build tree.
prepare_work() {
  mkdir -p "$WORK"
  cp "$SRCDIR/examples/hello_am.c" "$SRCDIR/examples/Makefile" "$WORK/"
}

# The compile and link lines must name only the installed tree.
# The installed prefix itself may lie under the build tree (the configured
# prefix often does), so it is taken out of the lines before they are read.
check_no_tree_paths() { # $1 = log file
  outside=$TMP/outside-stage.log
  awk -v stage="$PREFIX" '{ while ((i = index($0, stage)) > 0) $0 = substr($0, 1, i - 1) "<prefix>" substr($0, i + length(stage)); print }' "$1" >"$outside"
  if grep -F -e "$SRCDIR/" -e "$BUILDDIR/" "$outside" >/dev/null; then
    fail "the build of hello_am used the source or build tree: $(grep -F -e "$SRCDIR/" -e "$BUILDDIR/" "$outside" | head -n 1)"
  fi
}

# A dynamically linked binary must find libgasnet in the installed tree.
check_libs_resolve() { # $1 = binary, $2 = library dir
  if command -v ldd >/dev/null 2>&1; then
    ldd "$1" >"$TMP/ldd.log" 2>&1 || true
    if grep -q 'not found' "$TMP/ldd.log"; then fail "$1: unresolved libraries"; fi
    if grep 'libgasnet' "$TMP/ldd.log" | grep -v -F "$2/" >/dev/null; then
      fail "$1 loads libgasnet from outside $2"
    fi
  fi
}

run_and_check() { # $1 = binary, $2 = label
  rc=0
  (cd "$WORK" && timeout -k 5 60 "$LAUNCH" -n $NODES "$1") \
    >"$TMP/run-$2.log" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || fail "$2: $(basename "$LAUNCH") -n $NODES $1 exited $rc"
  i=0
  while [ $i -lt $NODES ]; do
    prev=$(((i + NODES - 1) % NODES))
    next=$(((i + 1) % NODES))
    want="node $i: received \"hello from node $prev of $NODES\"; node $next acknowledged my greeting"
    grep -q -x -F "$want" "$TMP/run-$2.log" || fail "$2: no line '$want'"
    i=$((i + 1))
  done
  grep -q -x -F "all $NODES nodes passed the barrier" "$TMP/run-$2.log" ||
    fail "$2: node 0 did not report the barrier"
  echo "PASS $2: hello_am ran on $NODES nodes"
}

build_with_mak() { # $1 = conduit
  rm -f "$WORK/hello_am" "$WORK/hello_am.o"
  timeout 300 make -C "$WORK" GASNET_MAK="$MAK" hello_am >"$TMP/build-mak.log" 2>&1 ||
    fail "building hello_am with $MAK failed"
  check_no_tree_paths "$TMP/build-mak.log"
  check_libs_resolve "$WORK/hello_am" "$PREFIX/lib"
  run_and_check ./hello_am "$1 makefile"
}

# The .pc file names the prefix installed under.
build_with_pkgconfig() { # $1 = conduit
  command -v pkg-config >/dev/null 2>&1 || { echo "SKIP pkg-config: not installed"; return 0; }
  pc() { PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config "$@"; }
  pkg=gasnet-$1-seq
  cflags=$(pc --cflags $pkg) || fail "pkg-config --cflags $pkg failed"
  libs=$(pc --libs $pkg) || fail "pkg-config --libs $pkg failed"
  libdir=$(pc --variable=libdir $pkg)
  {
    echo "cflags: $cflags"
    echo "libs: $libs"
    # shellcheck disable=SC2086 # the flags are lists of words
    (cd "$WORK" && ${CC:-cc} $cflags -c hello_am.c -o hello_pc.o && \
      ${CC:-cc} -o hello_pc hello_pc.o $libs)
  } >"$TMP/build-pc.log" 2>&1 || fail "building hello_am with pkg-config flags failed"
  check_no_tree_paths "$TMP/build-pc.log"
  # A staged tree is not where the dynamic loader looks; an installed one
  # would be (ldconfig or the usual prefixes).
  (
    LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
    check_libs_resolve "$WORK/hello_pc" "$libdir"
    run_and_check ./hello_pc "$1 pkg-config"
  ) || exit 1
}

install_tree
prepare_work
for c in $CONDUITS; do
  check_conduit_files "$c"
  build_with_mak "$c"
  build_with_pkgconfig "$c"
done
echo "PASS install_example ($CONDUITS )"

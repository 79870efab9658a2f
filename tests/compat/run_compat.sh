#!/bin/sh
# run_compat.sh BUILDDIR SRCDIR CONDUIT: GASNet-1 client compatibility
# through an installed tree only.
#
# Installs the build under a temporary prefix, then, for each thread mode
# (seq, par, parsync), builds the clients of tests/compat/ with nothing but
# the installed fragment include/CONDUIT-conduit/CONDUIT-MODE.mak and
# -Wall -Werror, and runs them with the installed launcher:
#   compat_client.c  names, macros, AM, handler helpers, barriers, teams
#   compat_cxx.cc    a C++ client (GASNET_CXX) with reduction functions
#   compat_sigquit.c SIGINT to a node reaches the client's SIGQUIT handler,
#                    whose gasnet_exit code is the job's (smp)
#   compat_exit.c    a collective exit while a thread polls loses no output,
#                    also when node 0 works and polls 200 ms longer
#   compat_reduce.c  GASNet 1.x's element-wise reduce and scan (blksz 0),
#                    per element against a serial reference, 1 to 5 nodes,
#                    and with images (PAR: 2 per node, and 1 or 2)
#   compat_barrier.c barrier flags as GASNet 1.20 and later match them, on
#                    every barrier implementation
#   compat_aligned.c segments at one address, and the single-address paths
#                    clients take then (GASNET_SEGMENT_ALIGN=no: they are not)
#   compat_amfence.c a barrier is a fence for active messages: a frontier of
#                    Medium AMs, one poll, a barrier, every AM run; every
#                    barrier implementation, 2 to 8 nodes (mpi: its three
#                    shapes)
# Also: a client built from a copy of the fragment in its own directory,
# and one built from the pkg-config file.
#
# COMPAT_EXIT_RUNS sets how many collective exits are run (default 50 on
# smp, 10 on mpi: tests/exit's collective cases run 50 per node count;
# here the point is the client built from the installed tree), and
# COMPAT_LATE_RUNS how many with node 0 late (default 60 on smp, 10 on
# mpi: each such run lasts at least node 0's 200 ms).
set -eu

if [ $# -ne 3 ]; then
  echo "usage: $0 BUILDDIR SRCDIR CONDUIT" >&2
  exit 2
fi
BUILDDIR=$(cd "$1" && pwd)
SRCDIR=$(cd "$2" && pwd)
CONDUIT=$3
if [ "$CONDUIT" = smp ]; then EXIT_RUNS=${COMPAT_EXIT_RUNS:-50}; else EXIT_RUNS=${COMPAT_EXIT_RUNS:-10}; fi
if [ "$CONDUIT" = smp ]; then LATE_RUNS=${COMPAT_LATE_RUNS:-60}; else LATE_RUNS=${COMPAT_LATE_RUNS:-10}; fi
if [ ! -e "$BUILDDIR/conduits/$CONDUIT/gasnetrun_$CONDUIT" ]; then
  echo "SKIP compat_$CONDUIT: the $CONDUIT conduit is not built"
  exit 77
fi

# Open MPI takes its ob1 pml on one host anyway; named, each job starts in
# half the time (tests/mpi/mpi_lib.sh, transport_args). MPICH ignores it.
if [ "$CONDUIT" = mpi ]; then
  OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
  export OMPI_MCA_pml
fi

# No "gasnet" in the name: the harness counts /tmp/*gasnet* as leaks.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/compat.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
PREFIX=$TMP/prefix
LAUNCH=$PREFIX/bin/gasnetrun_$CONDUIT
unset MAKEFLAGS MFLAGS MAKELEVEL || true

fail() {
  echo "FAIL compat_$CONDUIT: $*"
  [ -n "${LOG:-}" ] && [ -s "$LOG" ] && tail -n 30 "$LOG" | sed 's/^/| /'
  exit 1
}

timeout 600 make -C "$BUILDDIR" install prefix="$PREFIX" >"$TMP/install.log" 2>&1 ||
  { LOG=$TMP/install.log; fail "make install prefix=$PREFIX failed"; }

# The client makefile: the fragment and nothing else, plus strict warnings.
cat >"$TMP/Makefile" <<'EOF'
include $(GASNET_MAK)
STRICT = -Wall -Werror
all: compat_client compat_cxx compat_sigquit compat_exit compat_reduce compat_barrier compat_aligned \
	compat_amfence
%: %.c
	$(GASNET_CC) $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) $(STRICT) -Werror=implicit-function-declaration -c $< -o $@.o
	$(GASNET_LD) $(GASNET_LDFLAGS) -o $@ $@.o $(GASNET_LIBS)
%: %.cc
	$(GASNET_CXX) $(GASNET_CXXCPPFLAGS) $(GASNET_CXXFLAGS) $(STRICT) -c $< -o $@.o
	$(GASNET_CXX) $(GASNET_LDFLAGS) -o $@ $@.o $(GASNET_LIBS)
EOF

build_mode() { # MODE DIR [MAKFILE]: builds every client of MODE in DIR
  mak=${3:-$PREFIX/include/$CONDUIT-conduit/$CONDUIT-$1.mak}
  mkdir -p "$2"
  cp "$SRCDIR"/tests/compat/compat_*.c "$SRCDIR"/tests/compat/compat_*.cc "$TMP/Makefile" "$2/"
  LOG=$2/build.log
  timeout 600 make -C "$2" -j2 GASNET_MAK="$mak" >"$LOG" 2>&1 || fail "building the $1 clients with $mak"
  if grep -F -e "$SRCDIR/" -e "$BUILDDIR/" "$LOG" >/dev/null; then
    fail "the $1 build used the source or build tree"
  fi
}

# run_ok DIR PROG NODES [ARGS]: every node prints its OK line, exit 0.
# JOB_ENV (VAR=VALUE words) is the job's environment.
JOB_ENV=
run_ok() {
  LOG=$1/run-$2-$3.log
  rc=0
  # shellcheck disable=SC2086 # word lists
  (cd "$1" && timeout -k 5 120 env $JOB_ENV "$LAUNCH" -n "$3" "./$2" ${4:-}) >"$LOG" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || fail "$2 ${4:-} on $3 nodes ($1) ${JOB_ENV:+with $JOB_ENV }exited $rc"
  i=0
  while [ "$i" -lt "$3" ]; do
    grep -q "^$2: node $i/$3 OK" "$LOG" ||
      fail "$2 ${4:-} on $3 nodes ($1) ${JOB_ENV:+with $JOB_ENV}: no OK line from node $i"
    i=$((i + 1))
  done
  echo "PASS compat_$CONDUIT $(basename "$1") $2 ${4:+$4 }n=$3${JOB_ENV:+ ($JOB_ENV)}"
}

# A node that gets SIGINT runs the client's SIGQUIT handler, which exits
# with 42: the job's code. Smp only: under mpirun the signal is the
# launcher's to forward.
run_sigquit() { # DIR
  [ "$CONDUIT" = smp ] || return 0
  LOG=$1/run-sigquit.log
  rc=0
  (cd "$1" && timeout -k 5 60 "$LAUNCH" -n 3 ./compat_sigquit) >"$LOG" 2>&1 || rc=$?
  [ "$rc" -eq 42 ] || fail "compat_sigquit: the job exited $rc, not the handler's 42"
  grep -q "compat_sigquit: node 1 caught SIGQUIT" "$LOG" || fail "compat_sigquit: no handler line"
  echo "PASS compat_$CONDUIT sigquit"
}

# Every node prints after the final barrier, then returns from main while a
# second thread keeps polling: no line may be lost, in RUNS runs (with
# "late", node 0 works and polls 200 ms longer than the others).
run_collective_exit() { # DIR NODES RUNS [late]
  LOG=$1/run-exit.log
  r=0
  while [ "$r" -lt "$3" ]; do
    rc=0
    (cd "$1" && timeout -k 5 60 "$LAUNCH" -n "$2" ./compat_exit ${4:-}) >"$LOG" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || fail "compat_exit ${4:-} run $r on $2 nodes exited $rc"
    lines=$(grep -c "^compat_exit: node [0-9]* done$" "$LOG" || true)
    [ "$lines" -eq "$2" ] || fail "compat_exit ${4:-} run $r on $2 nodes: $lines of $2 final lines"
    r=$((r + 1))
  done
  echo "PASS compat_$CONDUIT collective exit ${4:+$4 }x$3 n=$2"
}

# Barrier flags on every implementation the conduit offers (SMP: the
# shared-memory one, where the job is one supernode, on the conduits with
# shared memory between processes: smp, mpi and ucx).
case $CONDUIT in
  smp|mpi|ucx) BARRIERS="SMP AMDISSEM AMCENTRAL" ;;
  *) BARRIERS="AMDISSEM AMCENTRAL" ;;
esac
run_barriers() { # DIR NODES
  for b in $BARRIERS; do
    JOB_ENV="GASNET_BARRIER=$b" run_ok "$1" compat_barrier "$2"
  done
  JOB_ENV=
}

# The frontier flood: every barrier implementation, and on mpi its three
# shapes (shared memory, none over TCP, pretend hosts of 2 over TCP).
run_amfence() { # DIR NODELIST
  for n in $2; do
    for b in $BARRIERS; do
      JOB_ENV="GASNET_BARRIER=$b" run_ok "$1" compat_amfence "$n" 150
    done
  done
  if [ "$CONDUIT" = mpi ]; then
    tcp="OMPI_MCA_btl=self,tcp GASNET_SUPERNODE_MAXSIZE=1"
    hosts="OMPI_MCA_btl=self,tcp GASNET_MPI_HOST_SIZE=2"
    for b in AMDISSEM AMCENTRAL; do
      for n in 2 4; do JOB_ENV="$tcp GASNET_BARRIER=$b" run_ok "$1" compat_amfence "$n" 60; done
      JOB_ENV="$hosts GASNET_BARRIER=$b" run_ok "$1" compat_amfence 4 60
    done
  fi
  JOB_ENV=
}

# Node counts: smp runs more (cheap); mpi start-up costs about a second.
if [ "$CONDUIT" = smp ]; then counts="1 2 3 4"; else counts="1 2 3"; fi

for mode in seq par parsync; do
  dir=$TMP/$mode
  build_mode $mode "$dir"
  if [ $mode = seq ]; then
    for n in $counts; do run_ok "$dir" compat_client "$n"; done
    run_ok "$dir" compat_cxx 2
    run_sigquit "$dir"
    for n in 1 2 3 4 5; do run_ok "$dir" compat_reduce "$n"; done
    if [ "$CONDUIT" = smp ]; then bcounts="2 3 5 8"; else bcounts="2 3 4"; fi
    for n in $bcounts; do run_barriers "$dir" "$n"; done
    # ucx: UCP maps each segment where it can, so segments are not at one
    # address (GASNET_ALIGNED_SEGMENTS 0 says so); the program still checks
    # what every segment reports.
    if [ "$CONDUIT" = ucx ]; then want=any; else want=aligned; fi
    for n in $counts; do run_ok "$dir" compat_aligned "$n" $want; done
    JOB_ENV=GASNET_SEGMENT_ALIGN=no run_ok "$dir" compat_aligned 3 any
    JOB_ENV=
    if [ "$CONDUIT" = smp ]; then run_amfence "$dir" "2 3 5 8"; else run_amfence "$dir" "2 3"; fi
  else
    run_ok "$dir" compat_client 3
    run_ok "$dir" compat_cxx 3
    run_ok "$dir" compat_reduce 3
    run_barriers "$dir" 3
    run_ok "$dir" compat_amfence 3 100
  fi
done
run_ok "$TMP/par" compat_reduce 3 2
run_ok "$TMP/par" compat_reduce 3 var

run_collective_exit "$TMP/par" 3 "$EXIT_RUNS"
run_collective_exit "$TMP/par" 3 "$LATE_RUNS" late

# A client that copies the fragment into its own tree and includes the copy.
mkdir -p "$TMP/copied/own"
cp "$PREFIX/include/$CONDUIT-conduit/$CONDUIT-seq.mak" "$TMP/copied/own/gasnet.mak"
build_mode seq "$TMP/copied" "$TMP/copied/own/gasnet.mak"
run_ok "$TMP/copied" compat_client 2

# pkg-config: the same client from the .pc file's flags.
if command -v pkg-config >/dev/null 2>&1; then
  pc() { PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config "$@"; }
  mkdir -p "$TMP/pkgconfig"
  LOG=$TMP/pkgconfig/build.log
  cflags=$(pc --cflags "gasnet-$CONDUIT-seq") && libs=$(pc --libs "gasnet-$CONDUIT-seq") ||
    fail "pkg-config gasnet-$CONDUIT-seq"
  cc=$(sed -n 's/^GASNET_CC = //p' "$PREFIX/include/$CONDUIT-conduit/$CONDUIT-seq.mak")
  # shellcheck disable=SC2086 # flag lists
  (cd "$TMP/pkgconfig" && $cc $cflags -Wall -Werror -c "$SRCDIR/tests/compat/compat_client.c" \
    -o compat_client.o && $cc -o compat_client compat_client.o $libs) >"$LOG" 2>&1 ||
    fail "building compat_client from the pkg-config flags"
  LD_LIBRARY_PATH=$(pc --variable=libdir "gasnet-$CONDUIT-seq")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export LD_LIBRARY_PATH
  run_ok "$TMP/pkgconfig" compat_client 2
fi
echo "PASS compat_$CONDUIT"

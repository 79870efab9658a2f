#!/bin/sh
# setup.sh [BUILD-NAME [configure options...]]: everything a fresh Debian
# machine needs before the demo or the tests. Installs missing packages
# (when run as root), generates configure, configures the build directory
# _build/BUILD-NAME (default: default) and builds it. Safe to run again: it
# reconfigures only when the options change.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-default}
[ $# -gt 0 ] && shift

need_pkgs() {
  missing=
  command -v autoreconf >/dev/null 2>&1 || missing="$missing autoconf"
  command -v automake >/dev/null 2>&1 || missing="$missing automake"
  command -v libtoolize >/dev/null 2>&1 || missing="$missing libtool"
  command -v make >/dev/null 2>&1 || missing="$missing make"
  command -v cc >/dev/null 2>&1 || missing="$missing gcc"
  command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
  command -v pgrep >/dev/null 2>&1 || missing="$missing procps"
  # gasnet_trace (the trace and statistics summary) is Python 3; gdb is
  # one of GASNET_BACKTRACE's mechanisms and lets a frozen node go on
  # (the tests use both).
  command -v python3 >/dev/null 2>&1 || missing="$missing python3"
  command -v gdb >/dev/null 2>&1 || missing="$missing gdb"
  # Open MPI, for the mpi conduit (configure builds it when mpicc is found),
  # and MPICH, for check.sh's MPICH build (configure MPICC=mpicc.mpich).
  # Debian ranks Open MPI's alternatives above MPICH's, so mpicc and
  # mpirun stay Open MPI's when both are installed.
  command -v mpicc.openmpi >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
  command -v mpirun.openmpi >/dev/null 2>&1 || missing="$missing openmpi-bin"
  command -v mpicc.mpich >/dev/null 2>&1 || missing="$missing libmpich-dev"
  command -v mpirun.mpich >/dev/null 2>&1 || missing="$missing mpich"
  # PMIx, for the bootstrap exchange under Open MPI's mpirun
  # (src/gasnet_bootstrap_pmix.c; Open MPI's packages bring it too).
  pkg-config --exists pmix 2>/dev/null || missing="$missing libpmix-dev"
  # UCX's UCP library and headers, for the ucx conduit (configure builds it
  # when pkg-config finds ucx; Open MPI's packages bring it too).
  pkg-config --exists ucx 2>/dev/null || missing="$missing libucx-dev"
  # ucx_perftest, UCX's own benchmark: the floor a conduit over UCX is
  # measured against (tests/perf/ucx_floor.sh).
  command -v ucx_perftest >/dev/null 2>&1 || missing="$missing ucx-utils"
  echo "$missing"
}

missing=$(need_pkgs)
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    echo "setup: missing$missing; install them (as root: apt-get install$missing)" >&2
    case "$missing" in *autoconf*|*automake*|*libtool*|*make\ *|*make|*gcc*) exit 1 ;; esac
  fi
fi

cd "$top"
# configure and the Makefile templates are generated again when one of their
# inputs is newer, or a conduit's automake fragment is missing.
needs_bootstrap() {
  [ -x configure ] || return 0
  for f in configure.ac Makefile.am conduits/conduit.mk.in m4/gasnet_*.m4 conduits/*/conduit.m4 \
    conduits/*/local.mk; do
    [ -f "$f" ] && [ "$f" -nt configure ] && return 0
  done
  for d in conduits/*/; do
    [ -f "$d/gasnet_core.h" ] && [ ! -f "$d/conduit.mk" ] && return 0
  done
  return 1
}
if needs_bootstrap; then
  echo "setup: generating configure"
  ./Bootstrap >/dev/null 2>&1 || ./Bootstrap
fi

build="$top/_build/$name"
mkdir -p "$build"
cd "$build"
wanted="$*"
if [ ! -f Makefile ] || [ "$(cat .setup-options 2>/dev/null)" != "$wanted" ]; then
  echo "setup: configuring _build/$name ${wanted:+($wanted)}"
  "$top/configure" --prefix="$build/_install" "$@" >configure.log 2>&1 ||
    { tail -30 configure.log >&2; exit 1; }
  echo "$wanted" >.setup-options
fi
echo "setup: building _build/$name"
make -j2 >make.log 2>&1 || { tail -40 make.log >&2; exit 1; }

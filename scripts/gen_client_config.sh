#!/bin/sh
# gen_client_config.sh CONDUIT MAKDIR PCDIR: writes the client build
# descriptions of one conduit, for each thread mode (seq, par, parsync):
#   MAKDIR/<conduit>-<mode>.mak       a makefile fragment (GASNET_CC, GASNET_LIBS, ...)
#   PCDIR/gasnet-<conduit>-<mode>.pc  a pkg-config file
# Run by `make install` (the install-client-config-* rules), so the files
# name the prefix the tree is installed under, as an absolute path: clients
# copy a fragment into their own build tree, where a path relative to the
# fragment would point nowhere.
#
# gen_client_config.sh --build-tree CONDUIT MAKDIR: the same fragments for
# the build tree (no .pc files): headers from the source and build trees,
# the static libraries in the build tree's .libs. Reads abs_top_srcdir and
# abs_top_builddir instead of the install paths. tests/conformance.sh
# builds the conduit-generic test programs through them.
#
# Reads CC, PTHREAD_LIBS, SANITIZE_FLAGS, RDYNAMIC_FLAGS, prefix, libdir, includedir, VERSION
# (and EXTRA_LIBS, CONDUIT_CC for conduits that need them) from the
# environment.
set -eu
build_tree=0
if [ "${1:-}" = --build-tree ]; then
  build_tree=1
  shift
  [ $# -eq 2 ] || { echo "usage: gen_client_config.sh --build-tree CONDUIT MAKDIR" >&2; exit 2; }
  set -- "$1" "$2" ""
fi
if [ $# -ne 3 ]; then
  echo "usage: gen_client_config.sh CONDUIT MAKDIR PCDIR" >&2
  exit 2
fi
conduit=$1
makdir=$2
pcdir=$3
cc=${CONDUIT_CC:-$CC}
# Everything a client of gasnet.h links: the collectives (they call the
# conduit library, so they come first), the conduit's own needs, threads, libm.
syslibs=$(echo "${EXTRA_LIBS:-} ${PTHREAD_LIBS} -lm" | sed 's/^ *//; s/  */ /g')

# Paths under the prefix are written through the prefix variable.
rel() { case "$1" in "$prefix"/*) echo "${1#"$prefix"/}" ;; *) echo "$1" ;; esac; }
in_mak() { case "$1" in /*) echo "$1" ;; *) echo "\$(GASNET_PREFIX)/$1" ;; esac; }
in_pc() { case "$1" in /*) echo "$1" ;; *) echo "\${prefix}/$1" ;; esac; }
if [ $build_tree = 0 ]; then
  inc=$(rel "$includedir")
  lib=$(rel "$libdir")
fi

# _GNU_SOURCE as GASNet-1's fragments set it: clients rely on the GNU
# declarations it enables (pthread_yield, for one). Threaded modes also get
# _REENTRANT. The PAR library serves PARSYNC clients.
mode_settings() { # MODE -> define, libmode, sysdefs
  case "$1" in
    seq) define=GASNET_SEQ; libmode=seq; sysdefs="-D_GNU_SOURCE=1" ;;
    par) define=GASNET_PAR; libmode=par; sysdefs="-D_GNU_SOURCE=1 -D_REENTRANT" ;;
    parsync) define=GASNET_PARSYNC; libmode=par; sysdefs="-D_GNU_SOURCE=1 -D_REENTRANT" ;;
  esac
}

# The build tree's fragment: the same variables, other paths.
write_buildtree_mak() { # MODE
  lib=$abs_top_builddir/.libs
  cat >"$makdir/$conduit-$1.mak" <<EOT
# $conduit-$1.mak: build a GASNet client for the $conduit conduit in $define mode
# against the build tree $abs_top_builddir (not installed).
GASNET_CC = $cc
GASNET_CPPFLAGS = $sysdefs -D$define -I$abs_top_builddir/include -I$abs_top_srcdir/include -I$abs_top_srcdir/conduits/$conduit
GASNET_CFLAGS = -O2 $SANITIZE_FLAGS
GASNET_LD = $cc
GASNET_LDFLAGS = $SANITIZE_FLAGS ${RDYNAMIC_FLAGS:-}
GASNET_LIBS = $lib/libgasnet-coll-$libmode.a $lib/libgasnet-$conduit-$libmode.a $syslibs
EOT
}

write_mak() { # MODE
  out=$makdir/$conduit-$1.mak
  cat >"$out" <<EOT
# $conduit-$1.mak: build a GASNet client for the $conduit conduit in $define mode.
#   include $includedir/$conduit-conduit/$conduit-$1.mak
#   \$(GASNET_CC) \$(GASNET_CPPFLAGS) \$(GASNET_CFLAGS) -c client.c
#   \$(GASNET_LD) \$(GASNET_LDFLAGS) -o client client.o \$(GASNET_LIBS)
# gasnet-coll $VERSION, installed under $prefix.
GASNET_PREFIX = $prefix
GASNET_CC = $cc
GASNET_CPPFLAGS = $sysdefs -D$define -I$(in_mak "$inc") -I$(in_mak "$inc")/$conduit-conduit
GASNET_CFLAGS = -O2 $SANITIZE_FLAGS
GASNET_LD = $cc
GASNET_LDFLAGS = $SANITIZE_FLAGS ${RDYNAMIC_FLAGS:-}
GASNET_LIBS = $(in_mak "$lib")/libgasnet-coll-$libmode.a $(in_mak "$lib")/libgasnet-$conduit-$libmode.a $syslibs
GASNET_CXX = c++
GASNET_CXXCPPFLAGS = \$(GASNET_CPPFLAGS)
GASNET_CXXFLAGS = \$(GASNET_CFLAGS)
EOT
}

write_pc() { # MODE
  cat >"$pcdir/gasnet-$conduit-$1.pc" <<EOT
prefix=$prefix
libdir=$(in_pc "$lib")
includedir=$(in_pc "$inc")

Name: gasnet-$conduit-$1
Description: gasnet-coll GASNet-1 runtime, $conduit conduit, $define mode
Version: $VERSION
Cflags: $sysdefs -D$define -I\${includedir} -I\${includedir}/$conduit-conduit $SANITIZE_FLAGS
Libs: -L\${libdir} -lgasnet-coll-$libmode -lgasnet-$conduit-$libmode $syslibs $SANITIZE_FLAGS ${RDYNAMIC_FLAGS:-}
EOT
}

if [ $build_tree = 1 ]; then
  abs_top_srcdir=$(cd "$abs_top_srcdir" && pwd)
  abs_top_builddir=$(cd "$abs_top_builddir" && pwd)
  mkdir -p "$makdir"
  for mode in seq par parsync; do
    mode_settings $mode
    write_buildtree_mak $mode
  done
  exit 0
fi
mkdir -p "$makdir" "$pcdir"
for mode in seq par parsync; do
  mode_settings $mode
  write_mak $mode
  write_pc $mode
done

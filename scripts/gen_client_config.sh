#!/bin/sh
# gen_client_config.sh OUTPUT: writes a client build description for one
# conduit and thread mode, chosen by the output's name:
#   <conduit>-<mode>.mak        a makefile fragment (GASNET_CC, GASNET_LIBS, ...)
#   gasnet-<conduit>-<mode>.pc  a pkg-config file
# Reads CC, PTHREAD_LIBS, SANITIZE_FLAGS, prefix, libdir, includedir, VERSION
# (and EXTRA_LIBS, CONDUIT_CC for conduits that need them) from the
# environment. The fragment locates the installation from its own path, so
# an installed tree can be moved (or staged with DESTDIR) and still works.
set -eu
out=$1
base=$(basename "$out")
case "$base" in
  gasnet-*.pc) stem=${base#gasnet-}; stem=${stem%.pc}; kind=pc ;;
  *.mak) stem=${base%.mak}; kind=mak ;;
  *) echo "gen_client_config.sh: cannot tell what '$base' is" >&2; exit 1 ;;
esac
conduit=${stem%-*}
mode=${stem##*-}
case "$mode" in
  seq) define=GASNET_SEQ; lib=seq ;;
  par) define=GASNET_PAR; lib=par ;;
  parsync) define=GASNET_PARSYNC; lib=par ;; # the PAR library serves PARSYNC clients
  *) echo "gen_client_config.sh: unknown thread mode '$mode'" >&2; exit 1 ;;
esac
cc=${CONDUIT_CC:-$CC}
libs="${EXTRA_LIBS:-} ${PTHREAD_LIBS}"
# Paths relative to the prefix when they live under it (the usual case).
rel() { case "$1" in "$prefix"/*) echo "${1#"$prefix"/}" ;; *) echo "$1" ;; esac; }
rel_lib=$(rel "$libdir")
rel_inc=$(rel "$includedir")
mkdir -p "$(dirname "$out")"
if [ "$kind" = mak ]; then
  case "$rel_inc" in
    /*) find_prefix="GASNET_PREFIX := $prefix" ;;
    *) up=$(echo "$rel_inc/$conduit-conduit" | sed 's|[^/][^/]*|..|g')
       find_prefix="GASNET_PREFIX := \$(abspath \$(dir \$(lastword \$(MAKEFILE_LIST)))$up)" ;;
  esac
  p() { case "$1" in /*) echo "$1" ;; *) echo "\$(GASNET_PREFIX)/$1" ;; esac; }
  cat > "$out" <<EOT
# $base: build a GASNet client for the $conduit conduit in $define mode.
#   include <prefix>/include/$conduit-conduit/$base
#   \$(GASNET_CC) \$(GASNET_CPPFLAGS) \$(GASNET_CFLAGS) -c client.c
#   \$(GASNET_LD) \$(GASNET_LDFLAGS) client.o \$(GASNET_LIBS)
# gasnet-coll $VERSION; generated at build time.
$find_prefix
GASNET_CC = $cc
GASNET_CPPFLAGS = -D$define -I$(p "$rel_inc") -I$(p "$rel_inc")/$conduit-conduit
GASNET_CFLAGS = -O2 $SANITIZE_FLAGS
GASNET_LD = $cc
GASNET_LDFLAGS = $SANITIZE_FLAGS
GASNET_LIBS = $(p "$rel_lib")/libgasnet-$conduit-$lib.a $libs
GASNET_CXX = c++
GASNET_CXXCPPFLAGS = \$(GASNET_CPPFLAGS)
GASNET_CXXFLAGS = \$(GASNET_CFLAGS)
EOT
else
  pl() { case "$1" in /*) echo "$1" ;; *) echo "\${prefix}/$1" ;; esac; }
  cat > "$out" <<EOT
prefix=$prefix
libdir=$(pl "$rel_lib")
includedir=$(pl "$rel_inc")

Name: gasnet-$conduit-$mode
Description: gasnet-coll GASNet-1 runtime, $conduit conduit, $define mode
Version: $VERSION
Cflags: -D$define -I\${includedir} -I\${includedir}/$conduit-conduit $SANITIZE_FLAGS
Libs: -L\${libdir} -lgasnet-$conduit-$lib $SANITIZE_FLAGS
Libs.private: $libs
EOT
fi

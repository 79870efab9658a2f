#!/bin/sh
# gen_conduit_mk.sh: writes conduits/NAME/conduit.mk, the automake fragment
# that declares a conduit's libraries, headers, launcher and client files,
# from conduits/conduit.mk.in, for every conduit directory (one holding a
# gasnet_core.h). Bootstrap runs it before autoreconf; a conduit's
# local.mk includes its conduit.mk (see conduits/template/local.mk).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
template=$top/conduits/conduit.mk.in
found=0
for dir in "$top"/conduits/*/; do
  [ -f "$dir/gasnet_core.h" ] || continue
  name=$(basename "$dir")
  case $name in
    [a-z]*) ;;
    *) echo "gen_conduit_mk.sh: conduit name '$name' must start with a lower case letter" >&2; exit 1 ;;
  esac
  case $name in
    *[!a-z0-9_]*) echo "gen_conduit_mk.sh: conduit name '$name' may hold only a-z, 0-9 and _" >&2; exit 1 ;;
  esac
  upper=$(echo "$name" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
  out=$dir/conduit.mk
  sed -e "s/@conduit@/$name/g" -e "s/@CONDUIT@/$upper/g" "$template" >"$out.tmp"
  # Rewrite only when it changed, so make does not rerun automake for nothing.
  if [ -f "$out" ] && cmp -s "$out" "$out.tmp"; then rm -f "$out.tmp"; else mv "$out.tmp" "$out"; fi
  found=1
done
[ $found = 1 ] || { echo "gen_conduit_mk.sh: no conduit directory under $top/conduits" >&2; exit 1; }

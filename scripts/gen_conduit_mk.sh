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
  # A conduit is declared by two lines: one without the other fails later
  # and obscurely (automake: "BUILD_X does not appear in AM_CONDITIONAL";
  # or configure enables a conduit that nothing builds).
  declared=0 included=0
  grep -q "^GASNET_CONDUIT(\[$name\]" "$top/configure.ac" && declared=1
  grep -q "^include conduits/$name/local.mk" "$top/Makefile.am" && included=1
  if [ $declared != $included ]; then
    if [ $declared = 1 ]; then
      echo "gen_conduit_mk.sh: configure.ac declares the $name conduit but Makefile.am lacks the line" >&2
      echo "  include conduits/$name/local.mk" >&2
    else
      echo "gen_conduit_mk.sh: Makefile.am includes conduits/$name/local.mk but configure.ac lacks the line" >&2
      echo "  GASNET_CONDUIT([$name], [yes], [what it is])" >&2
    fi
    echo "(docs/porting.md, \"Starting: copy the template\")" >&2
    exit 1
  fi
  upper=$(echo "$name" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
  out=$dir/conduit.mk
  sed -e "s/@conduit@/$name/g" -e "s/@CONDUIT@/$upper/g" "$template" >"$out.tmp"
  # Rewrite only when it changed, so make does not rerun automake for nothing.
  if [ -f "$out" ] && cmp -s "$out" "$out.tmp"; then rm -f "$out.tmp"; else mv "$out.tmp" "$out"; fi
  found=1
done
[ $found = 1 ] || { echo "gen_conduit_mk.sh: no conduit directory under $top/conduits" >&2; exit 1; }

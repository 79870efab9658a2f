#!/bin/sh
# layers_check.sh SRCDIR [BUILDDIR]: the layering of docs/design.md holds.
#
# Includes (a grep over the #include lines of the sources):
#  - conduits (and the shared-memory layer) include nothing of coll/ and,
#    of extended-ref/, only its conduit hook, gasnet_extended_conduit.h;
#  - extended-ref/ includes nothing of coll/ or of a conduit;
#  - coll/ includes no conduit and nothing of src/ or extended-ref/: it
#    uses the public headers only;
#  - inside coll/, a file includes headers of its own floor or of floors
#    below it only. The floors, lowest first: engine, patterns, ops,
#    teams, images, api.
# Calls (with BUILDDIR: nm over the objects of libgasnet-coll-par): no
# object of a floor uses a symbol that an object of a higher floor
# defines, so no circle of calls spans two floors.
# Prints every violation and exits 1 when there is one.
set -u
SRCDIR=${1:?usage: layers_check.sh SRCDIR [BUILDDIR]}
BUILDDIR=${2:-}
FLOORS="engine patterns ops teams images api"
bad=0

complain() {
  echo "layers: $*"
  bad=1
}

floor_of() { # coll/FLOOR/... -> its number, or nothing
  f=${1#coll/}
  f=${f%%/*}
  n=0
  for fl in $FLOORS; do
    [ "$fl" = "$f" ] && { echo $n; return; }
    n=$((n + 1))
  done
}

# The quoted includes of a file, one per line.
includes() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }

cd "$SRCDIR" || exit 2

for f in $(find conduits -name '*.[ch]' | sort); do
  for inc in $(includes "$f"); do
    case "$inc" in
      coll_*|*/coll_*|gasnete_*|engine/*|patterns/*|ops/*|teams/*|images/*|api/*)
        complain "$f includes \"$inc\": conduits know nothing of coll/ or extended-ref's insides" ;;
    esac
  done
done

for f in $(find extended-ref -name '*.[ch]' | sort); do
  for inc in $(includes "$f"); do
    case "$inc" in
      coll_*|engine/*|patterns/*|ops/*|teams/*|images/*|api/*|*_internal.h)
        [ "$inc" = gasnete_internal.h ] && continue
        complain "$f includes \"$inc\": extended-ref uses the core only" ;;
    esac
  done
done

for f in $(find coll -name '*.[ch]' | sort); do
  mine=$(floor_of "$f")
  [ -n "$mine" ] || { complain "$f is in no floor of coll/ ($FLOORS)"; continue; }
  for inc in $(includes "$f"); do
    case "$inc" in
      */*) ;;
      *) complain "$f includes \"$inc\": coll/ includes name their floor (\"engine/engine.h\")"; continue ;;
    esac
    theirs=$(floor_of "coll/$inc")
    if [ -z "$theirs" ]; then
      complain "$f includes \"$inc\", which is not a header of coll/"
    elif [ "$theirs" -gt "$mine" ]; then
      complain "$f includes \"$inc\", a header of a higher floor"
    fi
  done
done

# The calls: an object's undefined symbols defined by a higher floor.
if [ -n "$BUILDDIR" ]; then
  objs=$(ls "$BUILDDIR"/coll/*/libgasnet_coll_par_la-*.o 2>/dev/null)
  if [ -z "$objs" ]; then
    complain "no objects of libgasnet-coll-par under $BUILDDIR/coll"
  else
    defs=$(mktemp "${TMPDIR:-/tmp}/layers.XXXXXX")
    for o in $objs; do
      src=$(basename "$o" .o)
      src=${src#libgasnet_coll_par_la-}
      dir=$(dirname "$o")
      n=$(floor_of "coll/${dir##*/}/x")
      nm -g --defined-only "$o" | awk -v n="$n" -v s="$src" 'NF == 3 {print $3, n, s}'
    done >"$defs"
    for o in $objs; do
      src=$(basename "$o" .o)
      src=${src#libgasnet_coll_par_la-}
      dir=$(dirname "$o")
      n=$(floor_of "coll/${dir##*/}/x")
      nm -u "$o" | awk -v n="$n" -v me="coll/${dir##*/}/$src.c" 'NR == FNR {floor[$1] = $2; file[$1] = $3; next}
        ($NF in floor) && floor[$NF] > n {print "layers: " me " calls " $NF " of a higher floor (" file[$NF] ".c)"}' "$defs" -
    done >"$defs.up"
    if [ -s "$defs.up" ]; then
      cat "$defs.up"
      bad=1
    fi
    rm -f "$defs" "$defs.up"
  fi
fi

[ "$bad" = 0 ] && echo "layers: ok (conduits, extended-ref, coll floors: $FLOORS)"
exit $bad

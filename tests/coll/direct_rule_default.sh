#!/bin/sh
# direct_rule_default.sh NODES COMMAND [ARGS...]: runs COMMAND (a
# launcher and testcoll for a job of NODES nodes) with the -S checks of
# the default direct thresholds (coll/ops/select_default.c, the same on
# every host): 32 KiB, but 48 KiB for a broadcast on more than 2 ranks
# and 16 KiB for gather_all and exchange on 1 or 2 (the tuning table
# shows 16, 32 and 64 KiB; the data is checked on either side of 48 KiB).
nodes=$1
shift
case $nodes in
  '' | *[!0-9]*) echo "direct_rule_default.sh: the first argument must be the node count, not '$nodes'" >&2
     exit 2 ;;
  1 | 2) shape_checks='-S broadcast@32768=direct -S gather_all@16384=direct -S exchange@16384=direct' ;;
  *) shape_checks='-S broadcast@32768=!direct -S gather_all@16384=!direct -S exchange@16384=!direct' ;;
esac
# shellcheck disable=SC2086 # shape_checks is a list of options
exec "$@" $shape_checks -S broadcast@65536=direct -S scatter@32768=direct \
  -S gather@32768=direct -S gather_all@32768=direct -S exchange@32768=direct \
  -S gather@16384=!direct -S scatter@16384=!direct -S gather_all@8192=!direct \
  -o broadcast -s 32768,49151,49152 -l small

#!/bin/sh
# direct_host_default.sh pair|wide COMMAND [ARGS...]: runs COMMAND (a
# launcher and testcoll) with the -S checks of the default direct
# thresholds for this host's CPU (coll/ops/select_default.c): 4 MiB on AMD
# processors; on every other one 32 KiB, but 48 KiB for a broadcast on
# more than 2 ranks and 16 KiB for gather_all and exchange on 2 (the
# tuning table shows 16, 32 and 64 KiB; the data is checked on either
# side of 48 KiB). "pair" checks the rule of jobs of 1 and 2 nodes, "wide"
# that of larger ones (the case lines run each at its own node counts).
# The maker is read here from /proc/cpuinfo, independently of the
# library's own test, so a library that picked the wrong rule fails.
shape=$1
shift
case $shape in
  pair) shape_checks='-S broadcast@32768=direct -S gather_all@16384=direct -S exchange@16384=direct' ;;
  wide) shape_checks='-S broadcast@32768=!direct -S gather_all@16384=!direct -S exchange@16384=!direct' ;;
  *) echo "direct_host_default.sh: the first argument must be pair or wide, not '$shape'" >&2
     exit 2 ;;
esac
vendor=$(sed -n 's/^vendor_id[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
case $vendor in
  AuthenticAMD)
    exec "$@" -S broadcast@4194304=direct -S exchange@4194304=direct \
      -S broadcast=!direct -S gather_all=!direct -S gather@65536=!direct \
      -o broadcast -s 65536,1M -l small ;;
  *)
    # shellcheck disable=SC2086 # shape_checks is a list of options
    exec "$@" $shape_checks -S broadcast@65536=direct -S scatter@32768=direct \
      -S gather@32768=direct -S gather_all@32768=direct -S exchange@32768=direct \
      -S gather@16384=!direct -S scatter@16384=!direct -S gather_all@8192=!direct \
      -o broadcast -s 32768,49151,49152 -l small ;;
esac

#!/bin/sh
# direct_host_default.sh COMMAND [ARGS...]: runs COMMAND (a launcher and
# testcoll) with the -S checks of the default direct threshold for this
# host's CPU: 4 MiB on AMD processors, 64 KiB on every other one
# (coll/ops/select_default.c). The maker is read here from /proc/cpuinfo,
# independently of the library's own test, so a library that picked the
# wrong rule fails.
vendor=$(sed -n 's/^vendor_id[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
case $vendor in
  AuthenticAMD)
    exec "$@" -S broadcast@4194304=direct -S exchange@4194304=direct \
      -S broadcast=!direct -S gather_all=!direct -S gather@65536=!direct \
      -o broadcast -s 65536,1M -l small ;;
  *)
    exec "$@" -S broadcast@65536=direct -S exchange@65536=direct -S gather_all=direct \
      -S broadcast@16384=!direct -S gather@16384=!direct \
      -o broadcast -s 65536,1M -l small ;;
esac

#!/bin/sh
# errors.sh PROG [LAUNCHER WORDS...]: runs every misuse case of testexterr
# (PROG) under the launcher, by the direct and the AM path, and checks that
# each job ends with a non-zero code and a fatal error naming the call and
# the values; a case that exits 77 (an out-of-segment range needs another
# node than node 0 itself) is skipped. Prints one line per case; exits 1 if
# any case failed. The other nodes poll meanwhile; a fatal error ends them
# at their next poll, not at GASNET_EXITTIMEOUT (set to 60 s here, longer
# than a case may take).
#   ext.cases: errors 1,2 0 120 tests/ext/errors.sh @BUILDDIR@/tests/ext/testexterr @LAUNCHER@
set -u
prog=$1
shift
failed=0
count=0

check() {
  flag=$1 name=$2 regex=$3 envset=${4:-GASNET_EXT_TEST_DUMMY=1}
  count=$((count + 1))
  out=$(env GASNET_EXITTIMEOUT=60 "$envset" timeout -k 5 30 $launcher "$prog" $flag "$name" 2>&1 </dev/null)
  rc=$?
  if [ $rc = 77 ]; then
    echo "skip $name $flag: $(printf '%s\n' "$out" | grep -m1 skipped)"
  elif [ $rc = 0 ]; then
    echo "FAIL $name $flag: exit 0 (the misuse was not caught)"
    failed=$((failed + 1))
  elif [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "FAIL $name $flag: timed out"
    failed=$((failed + 1))
  elif ! printf '%s\n' "$out" | grep -Eq -- "FATAL ERROR.*$regex"; then
    echo "FAIL $name $flag: exit $rc, but no fatal error matching: $regex"
    printf '%s\n' "$out" | tail -n 5 | sed 's/^/    | /'
    failed=$((failed + 1))
  else
    echo "ok   $name $flag: exit $rc"
  fi
}

launcher="$*"
for flag in -am ""; do
  check "$flag" put_outside 'gasnet_put: remote range 0x[0-9a-f]+ \+ 8 bytes lies outside node [0-9]+.s segment'
  check "$flag" put_nbi_before 'gasnet_put_nbi: remote range .* \+ 2 bytes lies outside'
  check "$flag" get_outside 'gasnet_get: remote range .* \+ 1 bytes lies outside'
  check "$flag" get_nb_outside 'gasnet_get_nb: remote range .* \+ 2 bytes lies outside'
  check "$flag" memset_outside 'gasnet_memset: remote range .* \+ 2 bytes lies outside'
  check "$flag" put_bad_node 'gasnet_put: node [0-9]+ is out of range \(gasnet_nodes\(\) is [0-9]+\)'
  check "$flag" get_bad_node 'gasnet_get: node [0-9]+ is out of range'
  check "$flag" put_null_src 'gasnet_put: src is NULL with nbytes 8'
  check "$flag" get_null_dest 'gasnet_get_nb: dest is NULL with nbytes 8'
  check "$flag" put_negative 'gasnet_put: nbytes [0-9]+ is negative \(-8\)'
  check "$flag" get_val_size 'gasnet_get_val: nbytes [0-9]+ is not in 1\.\.[0-9]+'
  check "$flag" put_val_zero 'gasnet_put_val: nbytes 0 is not in 1\.\.[0-9]+'
  check "$flag" put_self_null 'gasnet_put: dest is NULL with nbytes 8'
  check "$flag" get_self_null 'gasnet_get: src is NULL with nbytes 4'
  check "$flag" memset_self_null 'gasnet_memset_nb: dest is NULL with nbytes 2'
  check "$flag" sync_dead 'gasnet_wait_syncnb: handle .* is not a live handle'
  check "$flag" try_dead 'gasnet_try_syncnb: handle .* is not a live handle'
  check "$flag" valget_dead 'gasnet_wait_syncnb_valget: handle .* is not a live value-get handle'
done
check "" region_nested 'gasnet_begin_nbi_accessregion: an access region is already open'
check "" region_end_unopened 'gasnet_end_nbi_accessregion: no access region is open'
check "" syncnbi_in_region 'gasnet_wait_syncnbi_all: called inside an access region'
check "" notify_twice 'gasnet_barrier_notify: called twice .*pending notify: id 1 flags 0x0; this call: id 2 flags 0x0'
check "" wait_unnotified 'gasnet_barrier_wait: no gasnet_barrier_notify is pending \(called with id 3 flags 0x0\)'
check "" try_unnotified 'gasnet_barrier_try: no gasnet_barrier_notify is pending'
check "" wait_bad_flags 'gasnet_barrier_wait: flags 0x40 \(id 4\) has bits other than'
check "" notify_bad_flags 'gasnet_barrier_notify: flags 0x40 \(id 0\) has bits other than'
check "" result_null 'gasnet_barrier_result: id is NULL'
check "" attach_only 'GASNET_BARRIER="NOPE" is not a barrier implementation; valid names \(any case\): AMDISSEM, AMCENTRAL' GASNET_BARRIER=NOPE

echo "errors.sh: $count cases, $failed failed"
[ $failed = 0 ]

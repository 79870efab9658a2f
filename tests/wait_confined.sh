#!/bin/sh
# wait_confined.sh NODES LAUNCHER-WORDS... PROGRAM: the wait policy counts
# the CPUs the job's processes may run on, not the CPUs the host has.
# Runs PROGRAM (a job of NODES nodes under the launcher words) twice with
# GASNET_VERBOSEENV=1 and checks the default GASNET_WAIT_MODE it reports:
#   - with every node confined to one CPU (`taskset -c CPU PROGRAM`, set
#     inside the launcher, so a launcher that binds each process to a core
#     of its own is overruled): `block` from 2 nodes on, `spin` for 1;
#   - as launched: `spin` while the nodes fit the CPUs this job may use
#     (`nproc`), `block` beyond. Under Open MPI's mpirun each of 2
#     processes is bound to a core of its own, one CPU in each mask: the
#     conduit must count the host's masks together to say `spin`.
# Exits 77 without taskset or nproc.
set -u
nodes=$1
shift
case $nodes in
  '' | *[!0-9]*) echo "wait_confined.sh: the first argument must be the node count, not '$nodes'" >&2
     exit 2 ;;
esac
command -v taskset >/dev/null 2>&1 && command -v nproc >/dev/null 2>&1 || {
  echo "wait_confined.sh: no taskset or nproc: skipped"
  exit 77
}
# The launcher's words, then the program (the last word).
launch=
while [ $# -gt 1 ]; do
  launch="$launch $(printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")")"
  shift
done
prog=$1
cpus=$(nproc)
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
unset GASNET_WAIT_MODE
out=$(mktemp "${TMPDIR:-/tmp}/wait_confined.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT

# run WHAT EXPECTED-MODE [taskset -c CPU]: one job; its reported default.
run() {
  what=$1 want=$2
  shift 2
  eval "GASNET_VERBOSEENV=1 $launch \"\$@\" \"\$prog\"" >"$out" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "wait_confined.sh: the job $what exited $rc:" >&2
    tail -20 "$out" >&2
    exit 1
  fi
  line=$(grep 'GASNET_WAIT_MODE' "$out" | head -1)
  case $line in
    *"= $want"*) echo "$what: $line" ;;
    *) echo "wait_confined.sh: the job $what reported \"$line\", not $want" >&2
       exit 1 ;;
  esac
}

if [ "$nodes" -ge 2 ]; then confined=block; else confined=spin; fi
run "with every node on CPU $cpu" "$confined" taskset -c "$cpu"
if [ "$nodes" -le "$cpus" ]; then free=spin; else free=block; fi
run "as launched ($nodes nodes, $cpus CPUs)" "$free"
echo "wait_confined.sh: PASS"

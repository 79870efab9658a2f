# mpi_lib.sh: helpers shared by the mpi conduit's test scripts (sourced).
#
# A script sets BUILDDIR (absolute) and calls mpi_setup, which exits 77
# (the harness's "skip") when this build has no mpi conduit. Each check
# prints one PASS/FAIL line; mpi_finish exits 1 if any failed.

FAILED=0
PASSED=0
FAIL_LINES=

# shellcheck source=../job_lib.sh
. "$(dirname "$0")/../job_lib.sh"

mpi_setup() {
  LAUNCHER=$BUILDDIR/conduits/mpi/gasnetrun_mpi
  if [ ! -x "$LAUNCHER" ]; then
    echo "SKIP: $LAUNCHER is missing (the mpi conduit is not built)"
    exit 77
  fi
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/mpitest.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  MPIRUN=$(sed -n 's/^MPIRUN=\${GASNET_MPIRUN:-\(.*\)}$/\1/p' "$LAUNCHER")
  MPIRUN=${GASNET_MPIRUN:-$MPIRUN}
  # Transports to run under: Open MPI's shared-memory and TCP BTLs, or
  # whatever another MPI chooses by itself ("default"; MPICH's Hydra takes
  # no --mca options).
  MPI_KIND=$(mpi_kind)
  if [ "$MPI_KIND" = openmpi ]; then
    TRANSPORTS=$(mpi_transports "${GASNET_MPI_TRANSPORTS:-vader tcp}")
    # A job with a non-zero exit code makes Open MPI's mpirun wait a
    # second between SIGTERM and SIGKILL for the remaining processes, two
    # seconds in all; the error tests end that way hundreds of times.
    FAST_TEARDOWN="--mca odls_base_sigkill_timeout 0"
  else
    TRANSPORTS=$(mpi_transports "${GASNET_MPI_TRANSPORTS:-default}")
    FAST_TEARDOWN=
  fi
}

# The MPI of $MPIRUN: openmpi, hydra (MPICH and its derivatives) or other.
mpi_kind() {
  v=$("$MPIRUN" --version 2>&1 </dev/null | head -n 5)
  case $v in
    *"Open MPI"* | *OpenRTE*) echo openmpi ;;
    *HYDRA* | *Hydra*) echo hydra ;;
    *) echo other ;;
  esac
}

# The transports of list $1 this MPI has. Open MPI: all of them. Others
# run their own default once: the shared-memory names (vader, shm) become
# "default" (MPICH picks shared memory on one host by itself), and tcp,
# an Open MPI BTL choice, is left out with a SKIP line on stderr. Prints
# the list (empty when nothing is left).
mpi_transports() {
  if [ "$MPI_KIND" = openmpi ]; then
    echo "$1"
    return
  fi
  list=""
  for t in $1; do
    case $t in
      vader | shm | default) t=default ;;
      *) echo "SKIP transport $t: an Open MPI transport; $MPI_KIND runs its default only" >&2; continue ;;
    esac
    case " $list " in *" $t "*) ;; *) list="$list $t" ;; esac
  done
  echo "${list# }"
}

# The settings a job gets under transport $1 (before its own, which win):
# over tcp every AM goes through MPI (GASNET_SUPERNODE_MAXSIZE=1), so
# that "tcp" still means every message crosses the network stack now that
# the processes of a host share memory by default.
transport_env() {
  case $1 in
    tcp) echo GASNET_SUPERNODE_MAXSIZE=1 ;;
  esac
}

# The code expected of a job one of whose processes died of a signal,
# given as $1 = 128 + the signal (Open MPI's mpirun). MPICH's Hydra returns
# whichever process's end it saw first: the signal's number (the dead
# one), 128 + it (the others, through the exit protocol) or 9 (those it
# killed itself); only !0 is certain.
death_code() {
  if [ "$MPI_KIND" = hydra ]; then echo '!0'; else echo "$1"; fi
}

# Exits 77 (the harness's skip) when no transport is left to run.
need_transports() {
  [ -n "$TRANSPORTS" ] && return 0
  echo "SKIP: no transport of this list runs under $MPI_KIND"
  exit 77
}

# The mpirun options selecting transport $1 (and a quick teardown). The
# BTLs named are the ob1 pml's, so ob1 is named too: it is what Open MPI
# takes here anyway, but without the name every process first tries the
# cm pml's PSM and PSM2 libraries, which costs 0.2 s of each job's 0.4 s
# start (2 ranks, this host).
transport_args() {
  case $1 in
    vader | shm) echo "--mca pml ob1 --mca btl self,vader $FAST_TEARDOWN" ;;
    tcp) echo "--mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo $FAST_TEARDOWN" ;;
    default) echo "$FAST_TEARDOWN" ;;
    *) echo "mpi_lib.sh: unknown transport '$1'" >&2; exit 2 ;;
  esac
}

# Live (non-zombie) processes running program $1 (its absolute path).
prog_pids() {
  ps -eo pid=,stat=,args= | P="$1" awk '$2 !~ /^Z/ && $3 == ENVIRON["P"] { print $1 }'
}

# Leftovers of a job of program $1: processes still running it after 3 s
# (killed, they are ours) and gasnet files not in $WORK/files.before.
# Prints what it found; returns 1 if anything.
check_leftovers() {
  end=$(($(now_ms) + 3000))
  while :; do
    left=$(prog_pids "$1")
    [ -z "$left" ] && break
    [ "$(now_ms)" -ge "$end" ] && break
    nap
  done
  bad=0
  if [ -n "$left" ]; then
    echo "  processes left: $(echo "$left" | tr '\n' ' ')"
    for p in $left; do kill -KILL "$p" 2>/dev/null || true; done
    bad=1
  fi
  gasnet_files >"$WORK/files.after"
  new=$(comm -13 "$WORK/files.before" "$WORK/files.after")
  if [ -n "$new" ]; then
    echo "  new gasnet files: $(echo "$new" | tr '\n' ' ')"
    bad=1
  fi
  return $bad
}

# mpirun's error banners: a job that should end cleanly prints none.
has_mpi_spew() {
  grep -q -e '^----------' -e 'MPI_ABORT' -e 'exiting improperly' -e 'Primary job' "$1"
}

verdict() { # $1 = 0 pass / 1 fail, $2 = label
  if [ "$1" -eq 0 ]; then
    echo "PASS $2"
    PASSED=$((PASSED + 1))
  else
    echo "FAIL $2"
    FAILED=$((FAILED + 1))
    FAIL_LINES="$FAIL_LINES
FAIL $2"
  fi
}

# The failures again at the end, where a log's tail shows them.
mpi_finish() {
  [ -z "${FAIL_LINES:-}" ] || printf 'failed:%s\n' "$FAIL_LINES"
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ] || exit 1
  exit 0
}

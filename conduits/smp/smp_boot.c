/* smp_boot.c: start-up of the smp conduit. gasnetc_init creates the
 * shared-memory layer's region for every node and forks the nodes; the
 * original process stays behind as the job's supervisor
 * (smp_supervisor.c). gasnetc_attach_segment publishes each node's segment
 * size and builds the segment table. */
#define _GNU_SOURCE
#include "smp_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

static uintptr_t gasnetc_smp_max_segsize;
/* Address space reserved before the fork, so it is free at the same
 * address in every node: each maps its own segment there (aligned
 * segments). NULL when not wanted or not available. */
static void *gasnetc_smp_aligned_at;

static unsigned gasnetc_smp_read_nodes(void) {
  const char *text = gasneti_getenv_verbose("GASNET_PSHM_NODES", "1");
  if (!text) return 1;
  char *end;
  errno = 0;
  long n = strtol(text, &end, 10);
  if (end == text || *end || errno || n < 1 || n > GASNET_MAXNODES)
    gasneti_fatalerror("gasnet_init: GASNET_PSHM_NODES=\"%s\" is not a node count in 1..%d", text,
                       GASNET_MAXNODES);
  return (unsigned)n;
}

/* Default: half of physical memory shared among the nodes. Segments are
 * sparse until touched, so this reserves address space, not memory. */
static uintptr_t gasnetc_smp_read_max_segsize(unsigned nodes) {
  uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t dflt = phys / 2 / nodes;
  uint64_t max = gasneti_getenv_size("GASNET_MAX_SEGSIZE", dflt);
  max &= ~(uint64_t)(GASNET_PAGESIZE - 1);
  if (max < GASNET_PAGESIZE)
    gasneti_fatalerror("gasnet_init: GASNET_MAX_SEGSIZE is below one page (%d bytes)",
                       GASNET_PAGESIZE);
  return (uintptr_t)max;
}

/* A node must not outlive the supervisor: if it dies, so do we. */
static void gasnetc_smp_child_setup(pid_t supervisor, unsigned node, const sigset_t *saved) {
#ifdef HAVE_SYS_PRCTL_H
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != supervisor) _exit(1);
  sigprocmask(SIG_SETMASK, saved, NULL);
  gasneti_mynode = node;
}

static void gasnetc_smp_fork_nodes(unsigned nodes) {
  pid_t *pids = calloc(nodes, sizeof(pid_t));
  if (!pids) gasneti_fatalerror("gasnet_init: out of memory");
  /* Block the signals the supervisor waits for before any child exists, so
   * none is lost; each child restores the client's mask. */
  sigset_t watched, saved;
  gasnetc_supervisor_signals(&watched);
  sigprocmask(SIG_BLOCK, &watched, &saved);
  fflush(NULL); /* or buffered output would be printed once per node */
  pid_t supervisor = getpid();
  for (unsigned i = 0; i < nodes; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      free(pids);
      gasnetc_smp_child_setup(supervisor, i, &saved);
      return;
    }
    if (pid < 0) {
      fprintf(stderr, "*** FATAL ERROR: gasnet_init: failed to start node %u of %u: %s\n", i,
              nodes, strerror(errno));
      gasnetc_smp_mark_failed();
      gasnetc_smp_claim_exit(1);
      break;
    }
    pids[i] = pid;
  }
  gasnetc_smp_supervise(pids, nodes, &saved);
}

/* Node i is member i of the one supernode. */
static void gasnetc_smp_join_supernode(void) {
  gasnet_node_t *members = calloc(gasneti_nodes, sizeof(gasnet_node_t));
  if (!members) gasneti_fatalerror("gasnet_init: out of memory");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) members[i] = i;
  gasnetc_shm_set_members(gasneti_mynode, members);
  free(members);
}

int gasnetc_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  unsigned nodes = gasnetc_smp_read_nodes();
  gasnetc_smp_max_segsize = gasnetc_smp_read_max_segsize(nodes);
  gasnetc_smp_read_exit_timeout();
  if (gasneti_segment_align_wanted())
    gasnetc_smp_aligned_at = gasneti_addr_reserve(NULL, gasnetc_smp_max_segsize);
  gasnetc_shm_create(nodes, gasnetc_smp_max_segsize, "smp");
  gasnetc_shm_close_fd(); /* the mapping keeps the memory; it vanishes with the last process */
  gasneti_nodes = nodes;
  gasneti_mynode = 0;
  if (nodes > 1) gasnetc_smp_fork_nodes(nodes);
  gasnetc_smp_join_supernode();
  gasnetc_smp_exit_init();
  gasnetc_smp_extended_init();
  return GASNET_OK;
}

uintptr_t gasnetc_max_local_segsize(void) { return gasnetc_smp_max_segsize; }
uintptr_t gasnetc_max_global_segsize(void) { return gasnetc_smp_max_segsize; }
unsigned gasnetc_local_processes(void) { return gasneti_nodes; }
/* Every node is forked from one process and keeps its affinity mask. */
unsigned gasnetc_local_cpus(void) { return gasneti_cpuset_count_mine(); }

/* Node i's segment is member i's slot. With the reservation made before
 * the fork, each node also maps its slot at that address and names it its
 * segment, so every segment starts at the same address; a node that
 * cannot keeps its slot's address (each publishes the address it uses). */
static void *gasnetc_smp_own_segment(uintptr_t segsize) {
  void *at = gasnetc_smp_aligned_at;
  gasnetc_smp_aligned_at = NULL;
  if (at && segsize && !gasnetc_shm_alias_slot(gasneti_mynode, at, segsize)) return at;
  gasneti_addr_release(at, gasnetc_smp_max_segsize);
  return gasnetc_shm_slot(gasneti_mynode);
}

int gasnetc_attach_segment(uintptr_t segsize) {
  gasnetc_shm_publish_segment(gasnetc_smp_own_segment(segsize), segsize);
  gasnetc_shm_barrier(gasnetc_smp_check_exit); /* every segment is published */
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasneti_seginfo[i] = gasnetc_shm_member_segment(i);
  gasnetc_shm_set_segments(gasneti_seginfo);
  gasnetc_shm_xmem_attach(gasnetc_smp_check_exit);
  return GASNET_OK;
}

void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    table[i].host = 0;
    table[i].supernode = 0;
    table[i].offset = gasnetc_shm.offset[i]; /* where node i's segment is mapped here */
  }
}

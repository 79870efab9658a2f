/* smp_boot.c: start-up of the smp conduit. gasnetc_init maps the shared
 * region and forks the nodes; the original process stays behind as the
 * job's supervisor (smp_supervisor.c). gasnetc_attach_segment publishes each
 * node's segment size and builds the segment table. */
#define _GNU_SOURCE
#include "smp_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

gasnetc_smp_control_t *gasnetc_smp_control;
gasnetc_smp_queues_t *gasnetc_smp_queues;
uint8_t *gasnetc_smp_segments;

static uintptr_t gasnetc_smp_max_segsize;

static size_t gasnetc_round_up(size_t n, size_t align) { return (n + align - 1) / align * align; }

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

static size_t gasnetc_smp_control_size(unsigned nodes) {
  size_t size = sizeof(gasnetc_smp_control_t) + nodes * sizeof(gasnetc_smp_node_line_t);
  return gasnetc_round_up(size, GASNET_PAGESIZE);
}

static void gasnetc_smp_map_region(unsigned nodes) {
  size_t control = gasnetc_smp_control_size(nodes);
  size_t queues = gasnetc_round_up(nodes * sizeof(gasnetc_smp_queues_t), GASNET_PAGESIZE);
  size_t total = control + queues + (size_t)nodes * gasnetc_smp_max_segsize;
  char name[64];
  snprintf(name, sizeof(name), "gasnet-%ld-smp", (long)getpid());
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) gasneti_fatalerror("gasnet_init: failed to create shared memory: %s", strerror(errno));
  if (ftruncate(fd, (off_t)total))
    gasneti_fatalerror("gasnet_init: failed to size shared memory to %zu bytes: %s", total,
                       strerror(errno));
  void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (base == MAP_FAILED)
    gasneti_fatalerror("gasnet_init: failed to map %zu bytes of shared memory: %s", total,
                       strerror(errno));
  close(fd); /* the mapping keeps the memory; it vanishes with the last process */
  gasnetc_smp_control = base;
  gasnetc_smp_queues = (gasnetc_smp_queues_t *)((uint8_t *)base + control);
  gasnetc_smp_segments = (uint8_t *)base + control + queues;
}

static void gasnetc_smp_init_region(unsigned nodes) {
  gasnetc_smp_control->nodes = nodes;
  gasnetc_smp_control->max_segsize = gasnetc_smp_max_segsize;
  for (unsigned i = 0; i < nodes; i++) {
    gasnetc_smp_ring_init(&gasnetc_smp_queues[i].requests);
    gasnetc_smp_ring_init(&gasnetc_smp_queues[i].replies);
  }
}

/* A node must not outlive the supervisor: if it dies, so do we. */
static void gasnetc_smp_child_setup(pid_t supervisor, unsigned node, const sigset_t *saved) {
#ifdef HAVE_SYS_PRCTL_H
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != supervisor) _exit(1);
  sigprocmask(SIG_SETMASK, saved, NULL);
  gasneti_mynode = node;
  gasnetc_smp_control->node[node].pid = (int32_t)getpid();
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
      gasnetc_smp_claim_exit(1);
      break;
    }
    pids[i] = pid;
  }
  gasnetc_smp_supervise(pids, nodes, &saved);
}

int gasnetc_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  unsigned nodes = gasnetc_smp_read_nodes();
  gasnetc_smp_max_segsize = gasnetc_smp_read_max_segsize(nodes);
  gasnetc_smp_map_region(nodes);
  gasnetc_smp_init_region(nodes);
  gasneti_nodes = nodes;
  gasneti_mynode = 0;
  if (nodes > 1) gasnetc_smp_fork_nodes(nodes);
  else gasnetc_smp_control->node[0].pid = (int32_t)getpid();
  gasnetc_smp_exit_init();
  gasnetc_smp_extended_init();
  return GASNET_OK;
}

uintptr_t gasnetc_max_local_segsize(void) { return gasnetc_smp_max_segsize; }
uintptr_t gasnetc_max_global_segsize(void) { return gasnetc_smp_max_segsize; }
unsigned gasnetc_local_processes(void) { return gasneti_nodes; }

/* The counter barrier of seed 004: each node bumps its own counter and waits
 * until every other counter has reached it. A counter already one ahead
 * means its owner saw this barrier complete, which settles it for us too. */
void gasnetc_smp_boot_barrier(void) {
  gasnetc_smp_node_line_t *lines = gasnetc_smp_control->node;
  uint64_t mine = __atomic_add_fetch(&lines[gasneti_mynode].barrier_count, 1, __ATOMIC_ACQ_REL);
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    unsigned spins = 0;
    for (;;) {
      uint64_t theirs = __atomic_load_n(&lines[i].barrier_count, __ATOMIC_ACQUIRE);
      if ((int64_t)(theirs - mine) > 0) return;
      if (theirs == mine) break;
      gasnetc_smp_check_exit();
      gasneti_wait_backoff(&spins);
    }
  }
}

int gasnetc_attach_segment(uintptr_t segsize) {
  gasnetc_smp_control->node[gasneti_mynode].segsize = segsize;
  gasnetc_smp_boot_barrier();
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    gasneti_seginfo[i].addr = gasnetc_smp_segments + (size_t)i * gasnetc_smp_max_segsize;
    gasneti_seginfo[i].size = (uintptr_t)gasnetc_smp_control->node[i].segsize;
  }
  gasnetc_smp_xmem_attach();
  return GASNET_OK;
}

void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    table[i].host = 0;
    table[i].supernode = 0;
    table[i].offset = 0; /* every process maps the segments at the same address */
  }
}

/* ucx_shm.c: supernodes in the ucx conduit (GASNet's PSHM). The nodes of
 * each host (by host name, from the start-up exchange) are grouped, in
 * node order, into supernodes of at most GASNET_SUPERNODE_MAXSIZE nodes
 * (unset or 0: the whole host; 1: none, every node its own). The lowest
 * member creates the region of the shared-memory layer (conduits/shm)
 * with a segment slot per member, each as large as the smallest segment
 * limit among them, and passes its memfd to the others over an
 * abstract-namespace socket whose name every node learns in one bootstrap
 * allgather. Each member then attaches its segment in its slot (and UCX
 * registers it there for the nodes of other hosts), so
 *  - AMs between members go through the layer's rings (ucx_send.c,
 *    ucx_poll.c), everything else through UCX;
 *  - put, get and memset to a member are copies, complete without the
 *    target's attention (ucx_rma.c); other nodes get UCP RMA;
 *  - when the supernode is the whole job, the SMP barrier is the default,
 *    cross-memory reads are available (the layer probes them), and a poll
 *    progresses UCX only now and then (ucx_shm.h).
 * Through the layer's rings an AM round trip takes 0.39 us, through UCX's
 * own shared-memory transports 1.18 (docs/ucx-conduit.md, "Inside a
 * host"). A supernode of one gets no region, except in a job of one node,
 * which then runs as smp's one node does. */
#include "ucx_shm.h"

#include <stdlib.h>
#include <string.h>

int gasnetc_ucx_shm_direct;
int gasnetc_ucx_shm_quiet;
GASNETI_THREAD_LOCAL unsigned gasnetc_ucx_shm_polls;
static gasnet_node_t *gasnetc_supernode; /* per node: the first node of its supernode */

/* Every node's supernode: its host's nodes in order, cut into groups of
 * maxsize (0: one group), each named by its first node. */
static void gasnetc_group(unsigned maxsize) {
  size_t n = gasneti_nodes;
  gasnetc_supernode = calloc(n, sizeof(gasnet_node_t));
  unsigned *seen = calloc(n, sizeof(unsigned));   /* per host: its nodes so far */
  gasnet_node_t *last = calloc(n, sizeof(gasnet_node_t)); /* per host: the latest */
  if (!gasnetc_supernode || !seen || !last) gasneti_fatalerror("gasnet_init: out of memory");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    gasnet_node_t h = gasnetc_ucx.host[i];
    unsigned k = seen[h]++;
    int starts = maxsize ? k % maxsize == 0 : k == 0;
    gasnetc_supernode[i] = starts ? i : gasnetc_supernode[last[h]];
    last[h] = i;
  }
  free(seen);
  free(last);
}

/* Create (member 0) or receive the region, and number its members. Every
 * node takes part in the allgather of the leaders' socket names. */
static void gasnetc_region(const uint64_t *max_segsize, int wanted) {
  gasnet_node_t first = gasnetc_supernode[gasneti_mynode];
  unsigned members = 0, me = 0;
  uint64_t slot = UINT64_MAX;
  gasnet_node_t *nodes = calloc(gasneti_nodes, sizeof(gasnet_node_t));
  pid_t *pids = calloc(gasneti_nodes, sizeof(pid_t));
  char (*names)[GASNETC_SHM_NAME_MAX] = calloc(gasneti_nodes, GASNETC_SHM_NAME_MAX);
  if (!nodes || !pids || !names) gasneti_fatalerror("gasnet_init: out of memory");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (gasnetc_supernode[i] != first) continue;
    if (i == gasneti_mynode) me = members;
    pids[members] = gasnetc_ucx.pid[i];
    nodes[members++] = i;
    if (max_segsize[i] < slot) slot = max_segsize[i];
  }
  char name[GASNETC_SHM_NAME_MAX];
  memset(name, 0, sizeof(name));
  int sock = -1;
  if (wanted && me == 0) {
    gasnetc_shm_create(members, (uintptr_t)slot, "ucx");
    sock = gasnetc_shm_listen(name);
  }
  gasnetc_boot_allgather(name, sizeof(name), names, "gasnet_init");
  if (wanted) {
    if (me == 0) {
      gasnetc_shm_serve(sock, pids + 1, members - 1);
      gasnetc_shm_close_fd();
    } else {
      gasnetc_shm_map_fd(gasnetc_shm_fetch(names[first], pids[0]), members);
    }
    gasnetc_shm_set_members(me, nodes);
  }
  free(names);
  free(pids);
  free(nodes);
}

void gasnetc_ucx_shm_init(const uint64_t *max_segsize) {
  unsigned maxsize = gasnetc_shm_read_count(
      "GASNET_SUPERNODE_MAXSIZE", "0 (the whole host)",
      "a number of processes per supernode (0: the whole host, 1: no shared memory)");
  gasnetc_group(maxsize);
  unsigned members = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    members += gasnetc_supernode[i] == gasnetc_supernode[gasneti_mynode];
  /* A supernode of one gains nothing, unless it is the whole job: then it
   * is what smp's one node is (its own rings, the SMP barrier, reads). */
  gasnetc_region(max_segsize, members > 1 || (gasneti_nodes == 1 && maxsize != 1));
}

uintptr_t gasnetc_ucx_shm_max_local(uintptr_t local) {
  return gasnetc_shm.members && gasnetc_shm.max_segsize < local ? gasnetc_shm.max_segsize : local;
}

void *gasnetc_ucx_shm_segment(void) {
  return gasnetc_shm.members ? gasnetc_shm_slot(gasnetc_shm.my_member) : NULL;
}

/* ------------------------------------------------------------ attach */
/* While members wait for each other, an exit notice still ends this node. */
static void gasnetc_ucx_shm_idle(void) { gasnetc_exit_check(); }

void gasnetc_ucx_shm_attach(gasnete_conduit_ops_t *ops) {
  if (!gasnetc_shm.members) return;
  gasnetc_ucx_shm_direct = gasnetc_shm_attach_members(ops, gasnetc_ucx_shm_idle);
  gasnetc_ucx_shm_quiet = gasnetc_shm_whole_job();
}

void gasnetc_ucx_shm_nodeinfo(gasnet_nodeinfo_t *table) {
  gasnetc_shm_fill_nodeinfo(table, gasnetc_supernode);
}

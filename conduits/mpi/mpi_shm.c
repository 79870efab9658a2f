/* mpi_shm.c: supernodes in the mpi conduit (GASNet's PSHM). After MPI's
 * start-up, the processes of each host (MPI_COMM_TYPE_SHARED, or the
 * pretend hosts of GASNET_MPI_HOST_SIZE) are grouped, in rank order, into
 * supernodes of at most GASNET_SUPERNODE_MAXSIZE processes (unset or 0:
 * the whole host; 1: none, every node its own). The lowest-ranked member
 * creates the region of the shared-memory layer (conduits/shm) with a
 * segment slot per member, each slot as large as the smallest local
 * segment maximum among them, and passes its memfd to the others over an
 * abstract-namespace socket (shm_share.c). Each member then attaches its
 * segment in its slot, so
 *  - AMs between members go through the layer's rings (mpi_send.c and
 *    mpi_poll.c ask gasnetc_shm_is_member), everything else through MPI;
 *  - put, get and memset to a member are copies (extended-ref's conduit
 *    ops), complete without the target's attention; other nodes get
 *    extended-ref's AM protocols;
 *  - when the supernode is the whole job, the SMP barrier is the default,
 *    cross-memory reads are available (the layer probes them), and a poll
 *    looks at MPI only now and then (mpi_shm.h), since MPI then carries
 *    only exit notices: the exit protocol raises an alert in the region
 *    before it sends them.
 * A supernode of one member gets no region (it would gain nothing), except
 * in a job of one node, which then runs as smp's one node does. With
 * GASNET_SEGMENT_EVERYTHING there are no segments to share, so every node
 * is its own supernode. */
#define _GNU_SOURCE
#include "mpi_shm.h"

#include "gasnet_extended_conduit.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int gasnetc_mpi_shm_quiet;
int gasnetc_mpi_shm_direct;
GASNETI_THREAD_LOCAL unsigned gasnetc_mpi_shm_polls;
static gasnet_node_t *gasnetc_mpi_supernode; /* [nodes]: the first node of each one's supernode */

/* ------------------------------------------------------------ waiting */
/* Start-up exchanges are waited on yielding the processor: processes that
 * arrive first must not take the cores from those still starting. */
static void gasnetc_mpi_shm_wait(MPI_Request *req, const char *what) {
  for (;;) {
    int done = 0;
    gasnetc_mpi_check(MPI_Test(req, &done, MPI_STATUS_IGNORE), what);
    if (done) return;
    sched_yield();
  }
}

static void gasnetc_mpi_shm_allgather(const void *mine, void *all, int count, MPI_Datatype type,
                                      MPI_Comm comm, const char *what) {
  MPI_Request req;
  gasnetc_mpi_check(MPI_Iallgather(mine, count, type, all, count, type, comm, &req), what);
  gasnetc_mpi_shm_wait(&req, what);
}

/* ------------------------------------------------------------ hosts */
void gasnetc_mpi_pretend_hosts(MPI_Comm *host_p) {
  unsigned size = gasnetc_shm_read_count("GASNET_MPI_HOST_SIZE", "0 (the real hosts)",
                                        "a number of ranks per pretend host (0: the real hosts)");
  if (!size) return;
  MPI_Comm pretend;
  gasnetc_mpi_check(MPI_Comm_split(*host_p, (int)(gasneti_mynode / size), (int)gasneti_mynode,
                                   &pretend),
                    "split the host into pretend hosts (MPI_Comm_split)");
  MPI_Comm_free(host_p);
  *host_p = pretend;
}

/* ------------------------------------------------------------ supernodes */
/* The communicator of this node's supernode: its host's nodes, in rank
 * order, cut into groups of maxsize (0: one group). Named by the group's
 * first node, so the colors of different hosts never meet. */
static MPI_Comm gasnetc_mpi_shm_split(unsigned maxsize) {
  const gasnet_node_t *host = gasnetc_mpi.host;
  unsigned before = 0; /* this node's place among its host's nodes */
  for (gasnet_node_t j = 0; j < gasneti_mynode; j++) before += host[j] == host[gasneti_mynode];
  unsigned first = maxsize ? before / maxsize * maxsize : 0, seen = 0;
  int color = (int)gasneti_mynode;
  for (gasnet_node_t j = 0; j <= gasneti_mynode; j++) {
    if (host[j] != host[gasneti_mynode]) continue;
    if (seen++ == first) {
      color = (int)j;
      break;
    }
  }
  MPI_Comm super;
  gasnetc_mpi_check(MPI_Comm_split(gasnetc_mpi.comm, color, (int)gasneti_mynode, &super),
                    "form the supernodes (MPI_Comm_split)");
  return super;
}

/* Create (member 0) or receive the region, and number its members. */
static void gasnetc_mpi_shm_region(MPI_Comm super, int members, int me) {
  unsigned long long slot = gasnetc_max_local_segsize();
  MPI_Request req;
  gasnetc_mpi_check(MPI_Iallreduce(MPI_IN_PLACE, &slot, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, super,
                                   &req),
                    "agree on the supernode's segment slots (MPI_Iallreduce)");
  gasnetc_mpi_shm_wait(&req, "agree on the supernode's segment slots (MPI_Iallreduce)");
  int ids[2] = {(int)getpid(), (int)gasneti_mynode};
  int *all = malloc(2 * (size_t)members * sizeof(int));
  pid_t *pids = malloc((size_t)members * sizeof(pid_t));
  gasnet_node_t *nodes = malloc((size_t)members * sizeof(gasnet_node_t));
  if (!all || !pids || !nodes) gasneti_fatalerror("gasnet_init: out of memory");
  gasnetc_mpi_shm_allgather(ids, all, 2, MPI_INT, super,
                            "learn the supernode's members (MPI_Iallgather)");
  for (int m = 0; m < members; m++) {
    pids[m] = (pid_t)all[2 * m];
    nodes[m] = (gasnet_node_t)all[2 * m + 1];
  }
  char name[GASNETC_SHM_NAME_MAX] = "";
  int sock = -1;
  if (me == 0) {
    gasnetc_shm_create((unsigned)members, (uintptr_t)slot, "mpi");
    sock = gasnetc_shm_listen(name);
  }
  gasnetc_mpi_check(MPI_Ibcast(name, (int)sizeof(name), MPI_CHAR, 0, super, &req),
                    "name the supernode's socket (MPI_Ibcast)");
  gasnetc_mpi_shm_wait(&req, "name the supernode's socket (MPI_Ibcast)");
  if (me == 0) {
    gasnetc_shm_serve(sock, pids + 1, (unsigned)members - 1);
    gasnetc_shm_close_fd();
  } else {
    gasnetc_shm_map_fd(gasnetc_shm_fetch(name, pids[0]), (unsigned)members);
  }
  gasnetc_shm_set_members((unsigned)me, nodes);
  free(all);
  free(pids);
  free(nodes);
}

/* Every node's supernode, named by its first node (for gasnet_getNodeInfo). */
static void gasnetc_mpi_shm_learn_supernodes(gasnet_node_t first) {
  int mine = (int)first;
  int *all = malloc(gasneti_nodes * sizeof(int));
  gasnetc_mpi_supernode = malloc(gasneti_nodes * sizeof(gasnet_node_t));
  if (!all || !gasnetc_mpi_supernode) gasneti_fatalerror("gasnet_init: out of memory");
  gasnetc_mpi_shm_allgather(&mine, all, 1, MPI_INT, gasnetc_mpi.comm,
                            "exchange supernode numbers (MPI_Iallgather)");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasnetc_mpi_supernode[i] = (gasnet_node_t)all[i];
  free(all);
}

void gasnetc_mpi_shm_init(void) {
  unsigned maxsize = gasnetc_shm_read_count(
      "GASNET_SUPERNODE_MAXSIZE", "0 (the whole host)",
      "a number of processes per supernode (0: the whole host, 1: no shared memory)");
#if defined(GASNET_SEGMENT_EVERYTHING)
  maxsize = 1; /* no segments to share */
#endif
  MPI_Comm super = gasnetc_mpi_shm_split(maxsize);
  int members = 1, me = 0;
  MPI_Comm_size(super, &members);
  MPI_Comm_rank(super, &me);
  /* A supernode of one gains nothing, unless it is the whole job: then it
   * is what smp's one node is (its own rings, the SMP barrier, reads). */
  if (members > 1 || (gasneti_nodes == 1 && maxsize != 1))
    gasnetc_mpi_shm_region(super, members, me);
  MPI_Comm_free(&super);
  gasnetc_mpi_shm_learn_supernodes(gasnetc_shm.members ? gasnetc_shm.member_node[0]
                                                       : gasneti_mynode);
}

uintptr_t gasnetc_mpi_shm_max_local(uintptr_t local) {
  return gasnetc_shm.members && gasnetc_shm.max_segsize < local ? gasnetc_shm.max_segsize : local;
}

void *gasnetc_mpi_shm_segment(void) {
  return gasnetc_shm.members ? gasnetc_shm_slot(gasnetc_shm.my_member) : NULL;
}

int gasnetc_mpi_shm_alias(void *at, uintptr_t segsize) {
  return gasnetc_shm_alias_slot(gasnetc_shm.my_member, at, segsize);
}

/* ------------------------------------------------------------ attach */
/* While members wait for each other, an exit notice still ends this node. */
static void gasnetc_mpi_shm_idle(void) {
  gasnetc_lock();
  gasnetc_poll_ctrl();
  gasnetc_unlock();
  gasnetc_exit_check();
}

void gasnetc_mpi_shm_attach(gasnete_conduit_ops_t *ops) {
  if (!gasnetc_shm.members) return;
  gasnetc_mpi_shm_direct = gasnetc_shm_attach_members(ops, gasnetc_mpi_shm_idle);
  gasnetc_mpi_shm_quiet = gasnetc_shm_whole_job();
}

void gasnetc_mpi_shm_nodeinfo(gasnet_nodeinfo_t *table) {
  gasnetc_shm_fill_nodeinfo(table, gasnetc_mpi_supernode);
}

/* ------------------------------------------------------------ exit */
void gasnetc_mpi_shm_alert(void) {
  if (!gasnetc_shm.members) return;
  gasnetc_mpi_shared_t *shared = gasnetc_shm_conduit_area();
  __atomic_store_n(&shared->alert, 1, __ATOMIC_RELAXED);
}

/* ucx_shm.h: the ucx conduit's supernodes (ucx_shm.c): the processes of a
 * host share memory through the project's shared-memory layer
 * (conduits/shm/shm_layer.h); everything else travels through UCX. */
#ifndef UCX_SHM_H
#define UCX_SHM_H

#include "ucx_internal.h"

#include "gasnet_extended_conduit.h"

#include "shm_layer.h"

/* gasnetc_init, once every node's host, pid and segment limit are known
 * (max_segsize: per node): group each host's nodes into supernodes of at
 * most GASNET_SUPERNODE_MAXSIZE and give each a region. Collective (one
 * bootstrap allgather). */
extern void gasnetc_ucx_shm_init(const uint64_t *max_segsize);

/* The local segment maximum: a member's segment lives in its slot. */
extern uintptr_t gasnetc_ucx_shm_max_local(uintptr_t local);

/* gasnetc_attach_segment: this node's segment (its slot), or NULL when the
 * node is in no supernode (UCX allocates its segment). */
extern void *gasnetc_ucx_shm_segment(void);

/* gasnetc_attach_segment, once gasneti_seginfo is complete: offsets,
 * cross-memory reads, and the SMP barrier in *ops when the job is one
 * supernode. Collective among the members. */
extern void gasnetc_ucx_shm_attach(gasnete_conduit_ops_t *ops);

/* Set at attach: put/get/memset to a member are copies
 * (GASNET_SMP_PUTGET=direct, the default); 0 sends them as AMs. */
extern int gasnetc_ucx_shm_direct;

/* gasnetc_nodeinfo: fill in supernode and offset. */
extern void gasnetc_ucx_shm_nodeinfo(gasnet_nodeinfo_t *table);

/* Deliver what waits in this member's rings (0 when in no supernode). */
static inline int gasnetc_ucx_shm_poll(int replies_only) {
  if (!gasnetc_shm.members) return 0;
  return replies_only ? gasnetc_shm_poll_replies() : gasnetc_shm_poll();
}

/* When the supernode is the whole job UCX carries nothing (exit notices
 * to the nodes of a host are signals), so a poll progresses the worker
 * only one time in GASNETC_UCX_SHM_POLL_EVERY, and an idle poll costs
 * about what smp's does. */
#define GASNETC_UCX_SHM_POLL_EVERY 64
extern int gasnetc_ucx_shm_quiet;
extern GASNETI_THREAD_LOCAL unsigned gasnetc_ucx_shm_polls;
static inline int gasnetc_ucx_shm_ucx_due(void) {
  return !gasnetc_ucx_shm_quiet || ++gasnetc_ucx_shm_polls % GASNETC_UCX_SHM_POLL_EVERY == 0;
}

#endif

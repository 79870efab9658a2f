/* mpi_shm.h: the mpi conduit's supernodes (mpi_shm.c): the processes of
 * one host share memory through the shared-memory layer
 * (conduits/shm/shm_layer.h), everything else travels through MPI. */
#ifndef MPI_SHM_H
#define MPI_SHM_H

#include "mpi_internal.h"

#include "gasnet_extended_conduit.h"

#include "shm_layer.h"

/* gasnetc_learn_hosts, once this host's processes are counted: split
 * *host_p (MPI_COMM_TYPE_SHARED) into pretend hosts of
 * GASNET_MPI_HOST_SIZE ranks (a testing aid: ranks 0..size-1 are one
 * host, the next size ranks the next...); unset or 0 leaves it. */
extern void gasnetc_mpi_pretend_hosts(MPI_Comm *host_p);

/* gasnetc_init, once hosts and segment sizes are known: group the
 * processes of each host into supernodes of at most
 * GASNET_SUPERNODE_MAXSIZE and give each a region. Collective. */
extern void gasnetc_mpi_shm_init(void);

/* The local segment maximum: a member's segment lives in its slot. */
extern uintptr_t gasnetc_mpi_shm_max_local(uintptr_t local);

/* gasnetc_attach_segment: this node's segment (its slot), or NULL when
 * the node is in no supernode (it maps its own). */
extern void *gasnetc_mpi_shm_segment(void);
/* Map that slot a second time at `at`, over segsize bytes reserved there
 * (aligned segments, mpi_segment.c). 0, or an errno. */
extern int gasnetc_mpi_shm_alias(void *at, uintptr_t segsize);

/* gasnetc_attach_segment, on success, once gasneti_seginfo is complete:
 * offsets, cross-memory reads, and the SMP barrier in *ops when the job is
 * one supernode. Collective. */
extern void gasnetc_mpi_shm_attach(gasnete_conduit_ops_t *ops);

/* Set at attach: put/get/memset to a member are copies
 * (GASNET_SMP_PUTGET=direct, the default); 0 sends them as AMs. */
extern int gasnetc_mpi_shm_direct;

/* gasnetc_nodeinfo: fill in supernode and offset. */
extern void gasnetc_mpi_shm_nodeinfo(gasnet_nodeinfo_t *table);

/* Deliver what waits in this member's rings (0 when in no supernode). */
static inline int gasnetc_mpi_shm_poll(void) { return gasnetc_shm.members ? gasnetc_shm_poll() : 0; }
static inline int gasnetc_mpi_shm_poll_replies(void) {
  return gasnetc_shm.members ? gasnetc_shm_poll_replies() : 0;
}

/* The conduit's words in the region (the layer's conduit area). */
typedef struct {
  uint32_t alert; /* atomic: a member has begun to exit; poll MPI every time */
} gasnetc_mpi_shared_t;

_Static_assert(sizeof(gasnetc_mpi_shared_t) <= GASNETC_SHM_CONDUIT_BYTES,
               "the mpi conduit's shared words fit the layer's conduit area");

/* Set at attach when the supernode is the whole job: MPI then carries
 * only exit notices. */
extern int gasnetc_mpi_shm_quiet;
extern GASNETI_THREAD_LOCAL unsigned gasnetc_mpi_shm_polls;

/* Whether this poll must look at MPI too: always, unless the job is one
 * supernode; then one time in GASNETC_MPI_SHM_POLL_EVERY, or every time
 * once a member has raised the alert (gasnetc_mpi_shm_alert), so an idle
 * poll costs about what smp's does. */
#define GASNETC_MPI_SHM_POLL_EVERY 64
static inline int gasnetc_mpi_shm_mpi_due(void) {
  if (!gasnetc_mpi_shm_quiet) return 1;
  if (++gasnetc_mpi_shm_polls % GASNETC_MPI_SHM_POLL_EVERY == 0) return 1;
  const gasnetc_mpi_shared_t *shared = gasnetc_shm_conduit_area();
  return __atomic_load_n(&shared->alert, __ATOMIC_RELAXED) != 0;
}

/* The exit protocol, before it sends its notices: tell this supernode's
 * members to look at MPI at every poll from now on. */
extern void gasnetc_mpi_shm_alert(void);

#endif

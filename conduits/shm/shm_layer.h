/* shm_layer.h: shared memory inside a host, as a layer any conduit uses
 * (GASNet's PSHM). Not a conduit: the smp conduit uses it for the whole
 * job, the mpi conduit for the processes of each host; each lists the
 * layer's sources (conduits/shm/local.mk) and builds them with its own
 * gasnet_core.h (the Medium limit sizes the ring slots).
 *
 * A supernode is a group of processes of one host (its members, numbered
 * 0..members-1; member m is some node of the job) that map one region:
 *
 *   [ control: the conduit's shared words, the layout, a line per member ]
 *   [ queues: per member, a request ring and a reply ring ]
 *   [ segments: per member, a slot of max_segsize bytes (sparse) ]
 *
 * The region is a memfd, never a file: nothing appears in /dev/shm, and
 * the memory goes away with the last process that maps it. It is made in
 * one of two ways: created before fork (smp), so every member maps it at
 * the same address; or created by a leader and passed to the other
 * members, started independently (mpi), over an abstract-namespace Unix
 * socket (shm_share.c). Members may then map it at different addresses,
 * so the layer keeps, per node, the offset from the node's own segment
 * address to its slot as mapped here (gasnetc_nodeinfo's offset).
 *
 * What the layer gives a conduit, for its members: AMs through the rings
 * (a Long payload copied by the sender straight into the target segment),
 * polling this member's rings (O(1) when idle), direct put/get/memset, the
 * translation of a member's segment address, a counter barrier among
 * members at start-up and the extended API's SMP barrier (when the
 * supernode is the whole job), and cross-memory reads (process_vm_readv).
 * Start-up, the exit protocol and traffic with non-members stay the
 * conduit's. Nothing in the layer takes a lock (the rings are lock-free):
 * a conduit calls it without holding its own. */
#ifndef SHM_LAYER_H
#define SHM_LAYER_H

#include "gasnet_internal.h"

#include "gasnet_extended_conduit.h"

#include <sys/types.h>

/* Bytes of the control area the conduit keeps for its own shared words
 * (smp: the job's exit flag and code); zero at creation. */
#define GASNETC_SHM_CONDUIT_BYTES 64

typedef struct gasnetc_shm_control_s gasnetc_shm_control_t;
typedef struct gasnetc_shm_queues_s gasnetc_shm_queues_t;

/* This process's view of its supernode. Empty (members 0) when the
 * process is in none: then no node is a member. */
typedef struct {
  gasnetc_shm_control_t *control;
  gasnetc_shm_queues_t *queues;
  gasnetc_shm_queues_t *self; /* this process's own, private: its requests and replies to itself */
  uint8_t *segments; /* member m's slot at segments + m * max_segsize */
  size_t bytes;      /* of the whole region */
  uintptr_t max_segsize;
  unsigned members;
  unsigned my_member;
  gasnet_node_t *member_node; /* [members] */
  int32_t *node_member;       /* [gasneti_nodes]: the node's member number, or -1 */
  intptr_t *offset;           /* [gasneti_nodes]: slot here - the node's own segment address */
  int fd;                     /* the memfd while it may still be passed on, else -1 */
} gasnetc_shm_t;

extern gasnetc_shm_t gasnetc_shm;

/* ------------------------------------------------------------ the region (shm_region.c) */
/* Create the region of `members` members with segment slots of
 * max_segsize bytes (a page multiple) and map it; the memfd is named
 * gasnet-<pid>-<tag> and stays open until gasnetc_shm_close_fd. */
extern void gasnetc_shm_create(unsigned members, uintptr_t max_segsize, const char *tag);
/* Map a region received as fd (closed here) that must hold `members`
 * members. */
extern void gasnetc_shm_map_fd(int fd, unsigned members);
/* No more processes will map it: close the creator's memfd. */
extern void gasnetc_shm_close_fd(void);
/* This process is member my_member; member_node[m] is member m's node
 * (copied). Needs gasneti_nodes. Publishes this member's pid. */
extern void gasnetc_shm_set_members(unsigned my_member, const gasnet_node_t *member_node);
/* The conduit's shared words (GASNETC_SHM_CONDUIT_BYTES): the start of
 * the control area. */
static inline void *gasnetc_shm_conduit_area(void) { return gasnetc_shm.control; }
/* Member m's segment slot as mapped here. */
static inline void *gasnetc_shm_slot(unsigned m) {
  return gasnetc_shm.segments + (size_t)m * gasnetc_shm.max_segsize;
}
/* This member publishes its segment (its address in its own process, its
 * slot's or an alias of the slot, and its size); after a
 * gasnetc_shm_barrier, every member reads any member's. */
extern void gasnetc_shm_publish_segment(void *addr, uintptr_t segsize);
extern gasnet_seginfo_t gasnetc_shm_member_segment(unsigned m);
/* Map member m's slot (as mapped here) a second time at `at`, over bytes
 * (a page multiple) the caller reserved there: the same memory at an
 * address of the caller's choosing (aligned segments). 0, or an errno. */
extern int gasnetc_shm_alias_slot(unsigned m, void *at, size_t bytes);
/* Once every node's own segment address is known (gasneti_seginfo):
 * compute the offsets of the members' segments as mapped here. */
extern void gasnetc_shm_set_segments(const gasnet_seginfo_t *seginfo);
/* The counter barrier among members (seed 004): each member bumps its own
 * cache-line counter and waits for every other to reach it; idle() is
 * called while waiting (the conduit's exit check), then the wait backs off. */
extern void gasnetc_shm_barrier(void (*idle)(void));

static inline int gasnetc_shm_is_member(gasnet_node_t node) {
  return gasnetc_shm.node_member && gasnetc_shm.node_member[node] >= 0;
}
/* Every node of the job is a member (the supernode is the job). */
static inline int gasnetc_shm_whole_job(void) {
  return gasnetc_shm.members == (unsigned)gasneti_nodes;
}
/* A member node's address (in its own process) as reachable here. */
static inline void *gasnetc_shm_translate(gasnet_node_t node, const void *addr) {
  return (void *)((uintptr_t)addr + (uintptr_t)gasnetc_shm.offset[node]);
}

/* For a conduit whose supernodes are parts of the job (mpi, ucx), at
 * attach, once gasneti_seginfo is complete, on a member: the offsets
 * (gasnetc_shm_set_segments), the cross-memory probe (idle() while it
 * waits for the other members), and, when the supernode is the whole job,
 * the SMP barrier as ops' default. Returns whether put/get/memset to the
 * members are copies (gasnetc_shm_putget_direct). */
extern int gasnetc_shm_attach_members(gasnete_conduit_ops_t *ops, void (*idle)(void));
/* gasnetc_nodeinfo's supernode (supernode[i]: its first node; NULL: every
 * node its own) and offset columns. */
extern void gasnetc_shm_fill_nodeinfo(gasnet_nodeinfo_t *table, const gasnet_node_t *supernode);

/* A count of processes from the environment (GASNET_SUPERNODE_MAXSIZE
 * and the like): decimal digits only, unset or empty is 0, at most
 * GASNET_MAXNODES; anything else is a fatal error naming the variable,
 * the value and `meaning`. dflt_desc is what GASNET_VERBOSEENV shows for
 * an unset variable. */
extern unsigned gasnetc_shm_read_count(const char *name, const char *dflt_desc,
                                       const char *meaning);

/* ------------------------------------------------------------ passing the region (shm_share.c)
 * The leader (the creator) listens on an abstract-namespace socket
 * (name_p receives gasnet-<pid>-<random>-shm) before the others learn the
 * name; then it serves the memfd to each of the other members, admitting
 * only the expected pids of its own user, and the members fetch it,
 * checking that the server is the leader. Both sides give up with a fatal
 * error after GASNETC_SHM_SHARE_TIMEOUT seconds. */
#define GASNETC_SHM_NAME_MAX 96
#define GASNETC_SHM_SHARE_TIMEOUT 60
extern int gasnetc_shm_listen(char name_p[GASNETC_SHM_NAME_MAX]);
extern void gasnetc_shm_serve(int sock, const pid_t *pids, unsigned npids);
extern int gasnetc_shm_fetch(const char *name, pid_t leader);

/* ------------------------------------------------------------ active messages (shm_am.c)
 * To a member node. While its ring is full the sender calls poll() (the
 * conduit's full poll for a request, its reply-only poll for a reply) and
 * backs off. */
extern void gasnetc_shm_request(gasnet_node_t dest, const gasneti_am_t *msg, int (*poll)(void));
extern void gasnetc_shm_reply(gasnet_node_t dest, const gasneti_am_t *msg, int (*poll)(void));
/* Deliver what waits in this member's rings (replies first), at most a
 * ring's worth of each; returns the number delivered. */
extern int gasnetc_shm_poll(void);
extern int gasnetc_shm_poll_replies(void);
/* The barrier's AM fence (gasnete_conduit_ops_t.am_run_arrived): run every
 * request already in this member's ring, polling with poll(), and return
 * once each handler has returned (docs/extended.md). */
extern void gasnetc_shm_run_arrived_requests(int (*poll)(void));

/* ------------------------------------------------------------ put/get (shm_putget.c)
 * extended-ref's conduit ops (gasnet_extended_conduit.h): direct copies
 * to and from a member's segment, complete at return; 0 for any other
 * node, which extended-ref then serves with its AM protocol. A conduit
 * registers them when gasnetc_shm_putget_direct() says so: it reads
 * GASNET_SMP_PUTGET (direct, the default, or am, which leaves every
 * put/get to extended-ref's AM protocols, to test or compare them). */
extern int gasnetc_shm_putget_direct(void);
extern int gasnetc_shm_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern int gasnetc_shm_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern int gasnetc_shm_memset(gasnet_node_t node, void *dest, int val, size_t nbytes);

/* ------------------------------------------------------------ the SMP barrier (shm_barrier.c)
 * The extended API's barrier on the members' control lines (seed 004's
 * counter barrier, with the ids and flags of each notify): registered
 * under the name "SMP" by a conduit whose supernode is the whole job. */
extern const gasnete_barrier_impl_t gasnetc_shm_barrier_impl;

/* ------------------------------------------------------------ cross-memory reads (shm_xmem.c)
 * Collective among members, at attach, after gasnetc_shm_set_members:
 * reads the mode (GASNET_SMP_XMEM: auto, off, fail) and probes. Reads are
 * available only when the supernode is the whole job and every member's
 * probe worked, so gasneti_xmem_available answers the same on every node.
 * A conduit using the layer defines the hooks of gasnet_hooks.h this way
 * (instead of src/gasnet_xmem_none.c). */
extern void gasnetc_shm_xmem_attach(void (*idle)(void));

#endif

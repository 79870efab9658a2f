/* gasnet_bootstrap.h: the bootstrap exchange a conduit may use in
 * gasnetc_init and gasnetc_attach_segment, before its nodes can send each
 * other anything: an allgather and a barrier among the nodes of a job
 * started by a launcher that gives every node GASNETRUN_NODE (0..N-1),
 * GASNETRUN_NODES (N) and GASNETRUN_JOB (a name unique on the host while
 * the job runs), as the template's launcher does (docs/porting.md, "The
 * bootstrap exchange").
 *
 * Node 0 listens on an abstract Unix-domain socket named after the job (no
 * file to remove, gone when the job is) and every other node connects to
 * it: the nodes must share a host and its network namespace. Each
 * allgather sends node 0 one block per node and every node gets all of
 * them back. It needs nothing but libc, so it reports a failure by
 * returning -1 with the reason in the handle's error text, which the
 * conduit passes to gasneti_fatalerror; a node that dies or never comes
 * makes every other node's call fail, not hang (after
 * GASNETI_BOOTSTRAP_TIMEOUT_S seconds at most).
 *
 * Where configure found libpmix (HAVE_PMIX) and the conduit compiles this
 * file with GASNETI_BOOTSTRAP_PMIX and links src/gasnet_bootstrap_pmix.c,
 * a node started by a PMIx launcher instead (Open MPI's mpirun, on one host
 * or many: PMIX_RANK is set, GASNETRUN_NODE is not) exchanges through
 * PMIx's key-value store and fences, with the same calls. */
#ifndef GASNET_BOOTSTRAP_H
#define GASNET_BOOTSTRAP_H

#include <stddef.h>

/* How long a node waits for the others to join, or to answer. */
#define GASNETI_BOOTSTRAP_TIMEOUT_S 60

typedef struct {
  unsigned node, nodes;
  int fd;       /* a node other than 0: its connection to node 0 */
  int *peer_fd; /* node 0: the connection of each node (index 0 unused) */
  void *pmix;   /* the PMIx backend's state; NULL over the launcher's socket */
  char error[256];
} gasneti_bootstrap_t;

/* Read GASNETRUN_NODE, _NODES and _JOB and connect the nodes (collective).
 * 0, or -1 with b->error saying why. */
extern int gasneti_bootstrap_open(gasneti_bootstrap_t *b);
/* Every node gives len bytes (the same len everywhere) and gets every
 * node's, node i's at all + i * len (collective). 0 or -1. */
extern int gasneti_bootstrap_allgather(gasneti_bootstrap_t *b, const void *mine, size_t len,
                                       void *all);
/* Returns once every node has called it (collective). 0 or -1. */
extern int gasneti_bootstrap_barrier(gasneti_bootstrap_t *b);
/* Close the connections (not collective; any time after open). Under
 * PMIx this is PMIx_Finalize, which the launcher expects before a node
 * ends: call it once the exchange is no longer needed. */
extern void gasneti_bootstrap_close(gasneti_bootstrap_t *b);

/* For the backends: put the reason in b->error and return -1. */
extern int gasneti_boot_fail(gasneti_bootstrap_t *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif

/* gasnet_xmem_none.c: the cross-memory hooks (gasnet_hooks.h) for a
 * conduit that has no one-copy path between processes (template). A
 * conduit lists this file in its sources, or implements the hooks itself,
 * or builds in the shared-memory layer, which does (smp, mpi:
 * conduits/shm/shm_xmem.c). Callers see "never available" and move data
 * their other ways. */
#include "gasnet_internal.h"

#include <gasnet_hooks.h>

int gasneti_xmem_available(gasnet_node_t node) {
  (void)node;
  return 0;
}

int gasneti_xmem_read(gasnet_node_t node, void *local_dst, const void *remote_src,
                      size_t nbytes) {
  (void)node;
  (void)local_dst;
  (void)remote_src;
  (void)nbytes;
  return -1;
}

int gasneti_xmem_write(gasnet_node_t node, void *remote_dst, const void *local_src,
                       size_t nbytes) {
  (void)node;
  (void)remote_dst;
  (void)local_src;
  (void)nbytes;
  return -1;
}

/* mpi_segment.c: attaching the segments. Each node maps its segment (its
 * slot of the supernode's region, or private memory) and every node's
 * address and size are exchanged.
 *
 * Aligned segments (docs/user-guide.md): first the nodes agree on an
 * address where every one of them can place its segment, so every segment
 * starts at the same virtual address, as GASNet-1 clients look for. Each
 * node reserves a range of the segment's size wherever its address space
 * has room and the ranges are exchanged; each node then tries to reserve
 * the first few nodes' ranges too (address spaces are sparse, so another
 * node's free range is usually free here), and an AND over the nodes picks
 * the first range every node holds. Nodes map their segments there (a
 * member of a supernode maps its slot a second time). When no range suits
 * every node, or GASNET_SEGMENT_ALIGN=no, segments stay where they are;
 * either way each node's address is what the exchange reports. */
#define _GNU_SOURCE
#include "mpi_internal.h"
#include "mpi_shm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* How many nodes' ranges are tried: the first fits almost always. */
#define GASNETC_ALIGN_CANDIDATES 4

/* Waits for a start-up exchange while handling control messages, so a node
 * that exits before it joins the exchange (its EXIT notice) ends this one
 * too instead of leaving it in a collective that never completes. The
 * exchange stays pending then; MPI_Finalize does not wait for it. */
static void gasnetc_boot_wait(MPI_Request *req, const char *what) {
  unsigned spins = 0;
  for (;;) {
    int done = 0;
    gasnetc_lock();
    gasnetc_mpi_check(MPI_Test(req, &done, MPI_STATUS_IGNORE), what);
    if (!done) gasnetc_poll_ctrl();
    gasnetc_unlock();
    if (done) return;
    gasnetc_exit_check();
    gasneti_wait_backoff(&spins);
  }
}

static void gasnetc_boot_allgather(const void *mine, void *all, int count, MPI_Datatype type,
                                   const char *what) {
  MPI_Request req;
  gasnetc_lock();
  gasnetc_mpi_check(MPI_Iallgather(mine, count, type, all, count, type, gasnetc_mpi.comm, &req),
                    what);
  gasnetc_unlock();
  gasnetc_boot_wait(&req, what);
}

static unsigned gasnetc_boot_and(unsigned mine, const char *what) {
  unsigned all = 0;
  MPI_Request req;
  gasnetc_lock();
  gasnetc_mpi_check(MPI_Iallreduce(&mine, &all, 1, MPI_UNSIGNED, MPI_BAND, gasnetc_mpi.comm, &req),
                    what);
  gasnetc_unlock();
  gasnetc_boot_wait(&req, what);
  return all;
}

/* ------------------------------------------------------------ alignment */
/* The address every node can hold a range of bytes at (reserved here), or
 * NULL. Collective. */
static void *gasnetc_align_agree(uintptr_t bytes) {
  unsigned long long own = (unsigned long long)(uintptr_t)gasneti_addr_reserve(NULL, bytes);
  unsigned long long *ranges = malloc(gasneti_nodes * sizeof(*ranges));
  if (!ranges) gasneti_fatalerror("gasnet_attach: out of memory");
  gasnetc_boot_allgather(&own, ranges, 1, MPI_UNSIGNED_LONG_LONG,
                         "exchange free address ranges (MPI_Iallgather)");
  unsigned ncand = gasneti_nodes < GASNETC_ALIGN_CANDIDATES ? gasneti_nodes : GASNETC_ALIGN_CANDIDATES;
  void *held[GASNETC_ALIGN_CANDIDATES] = {NULL};
  unsigned mask = 0;
  for (unsigned k = 0; k < ncand; k++) {
    void *at = (void *)(uintptr_t)ranges[k];
    held[k] = k == gasneti_mynode ? at : gasneti_addr_reserve(at, bytes);
    if (at && held[k]) mask |= 1u << k;
  }
  mask = gasnetc_boot_and(mask, "agree on an aligned segment address (MPI_Iallreduce)");
  void *chosen = NULL;
  for (unsigned k = 0; k < ncand; k++) {
    if (!chosen && (mask & (1u << k))) chosen = held[k];
    else gasneti_addr_release(held[k], bytes);
  }
  if (gasneti_mynode >= ncand) gasneti_addr_release((void *)(uintptr_t)own, bytes); /* not tried */
  free(ranges);
  return chosen;
}

/* Map this node's segment of segsize bytes at the agreed address `at`
 * (reserved here): its slot a second time, or its private memory. Returns
 * at, or NULL (the reservation released) when that fails. */
static void *gasnetc_align_place(void *at, void *shared, uintptr_t segsize) {
  if (shared) {
    if (!gasnetc_mpi_shm_alias(at, segsize)) return at;
  } else {
    void *got = mmap(at, segsize, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    if (got == at) return at;
  }
  gasneti_addr_release(at, segsize);
  return NULL;
}

/* ------------------------------------------------------------ the contract */
/* Maps the segment (page-aligned, no swap reserved) and exchanges every
 * node's address and size. A node that cannot map its segment says so in
 * the exchange, so every node returns the error instead of some waiting. */
int gasnetc_attach_segment(uintptr_t segsize) {
  static const char call[] = "gasnet_attach";
  void *addr = NULL, *shared = gasnetc_mpi_shm_segment(); /* its slot in a supernode */
  int err = 0;
#if defined(GASNET_SEGMENT_EVERYTHING)
  (void)segsize;
  segsize = UINTPTR_MAX;
#else
  void *aligned = NULL;
  if (segsize && gasneti_segment_align_wanted()) {
    aligned = gasnetc_align_agree(segsize);
    if (aligned) aligned = gasnetc_align_place(aligned, shared, segsize);
  }
  if (aligned) {
    addr = shared = aligned;
  } else if (segsize && !shared) {
    addr = mmap(NULL, segsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
    if (addr == MAP_FAILED) {
      err = errno;
      addr = NULL;
    }
  }
#endif
  unsigned long long mine[3] = {(unsigned long long)(uintptr_t)(shared ? shared : addr), segsize,
                                (unsigned)err};
  unsigned long long *all = malloc(3 * sizeof(unsigned long long) * gasneti_nodes);
  if (!all) return gasneti_error(GASNET_ERR_RESOURCE, call, "out of memory");
  gasnetc_boot_allgather(mine, all, 3, MPI_UNSIGNED_LONG_LONG,
                         "exchange segment addresses (MPI_Iallgather)");
  int failed = -1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    gasneti_seginfo[i].addr = (void *)(uintptr_t)all[3 * i];
    gasneti_seginfo[i].size = (uintptr_t)all[3 * i + 1];
    if (all[3 * i + 2] && failed < 0) failed = (int)i;
  }
  int failed_errno = failed >= 0 ? (int)all[3 * failed + 2] : 0;
  uintptr_t failed_size = failed >= 0 ? (uintptr_t)all[3 * failed + 1] : 0;
  free(all);
  if (failed < 0) {
    gasnetc_mpi_ops_attach();
#if defined(GASNET_SEGMENT_EVERYTHING)
    for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasneti_seginfo[i].addr = NULL;
#endif
    return GASNET_OK;
  }
  if (addr) munmap(addr, segsize);
  return gasneti_error(GASNET_ERR_RESOURCE, call, "node %d failed to map a segment of %" PRIuPTR
                       " bytes: %s", failed, failed_size, strerror(failed_errno));
}

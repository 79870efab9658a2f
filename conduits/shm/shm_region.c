/* shm_region.c: the supernode's region (its layout: shm_internal.h):
 * creating and mapping it, numbering its members, the members' segment
 * slots and their offsets, and the counter barrier among members. */
#define _GNU_SOURCE
#include "shm_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

gasnetc_shm_t gasnetc_shm = {.fd = -1};

static size_t gasnetc_shm_round_up(size_t n, size_t align) {
  return (n + align - 1) / align * align;
}

static size_t gasnetc_shm_control_bytes(unsigned members) {
  size_t size = sizeof(gasnetc_shm_control_t) + members * sizeof(gasnetc_shm_line_t);
  return gasnetc_shm_round_up(size, GASNET_PAGESIZE);
}

static size_t gasnetc_shm_queue_bytes(unsigned members) {
  return gasnetc_shm_round_up(members * sizeof(gasnetc_shm_queues_t), GASNET_PAGESIZE);
}

/* The messages a member sends itself go through rings of its own, in
 * private memory (shm_am.c, gasnetc_shm_queues_of), so a member's shared
 * rings are written only by its peers. Mapped without reserve: only the
 * slots and buffers used are ever backed. Private: a process that forks
 * the others (smp) gives each child its own copy. */
static void gasnetc_shm_self_queues_init(void) {
  void *q = mmap(NULL, sizeof(gasnetc_shm_queues_t), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (q == MAP_FAILED)
    gasneti_fatalerror("gasnet_init: failed to map %zu bytes for the rings to itself: %s",
                       sizeof(gasnetc_shm_queues_t), strerror(errno));
  gasnetc_shm.self = q;
  gasnetc_shm_ring_init(&gasnetc_shm.self->requests);
  gasnetc_shm_ring_init(&gasnetc_shm.self->replies);
}

/* Point the view at a mapped region of `members` members. */
static void gasnetc_shm_view(void *base, size_t bytes, unsigned members, uintptr_t max_segsize) {
  size_t control = gasnetc_shm_control_bytes(members);
  gasnetc_shm.control = base;
  gasnetc_shm.queues = (gasnetc_shm_queues_t *)((uint8_t *)base + control);
  gasnetc_shm.segments = (uint8_t *)base + control + gasnetc_shm_queue_bytes(members);
  gasnetc_shm.bytes = bytes;
  gasnetc_shm.members = members;
  gasnetc_shm.max_segsize = max_segsize;
  gasnetc_shm_ring_configure(members);
  gasnetc_shm_self_queues_init();
}

static void *gasnetc_shm_mmap(int fd, size_t bytes) {
  void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (base == MAP_FAILED)
    gasneti_fatalerror("gasnet_init: failed to map %zu bytes of shared memory: %s", bytes,
                       strerror(errno));
  return base;
}

void gasnetc_shm_create(unsigned members, uintptr_t max_segsize, const char *tag) {
  size_t bytes = gasnetc_shm_control_bytes(members) + gasnetc_shm_queue_bytes(members) +
                 (size_t)members * max_segsize;
  char name[64];
  snprintf(name, sizeof(name), "gasnet-%ld-%s", (long)getpid(), tag);
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) gasneti_fatalerror("gasnet_init: failed to create shared memory: %s", strerror(errno));
  if (ftruncate(fd, (off_t)bytes))
    gasneti_fatalerror("gasnet_init: failed to size shared memory to %zu bytes: %s", bytes,
                       strerror(errno));
  gasnetc_shm_view(gasnetc_shm_mmap(fd, bytes), bytes, members, max_segsize);
  gasnetc_shm.fd = fd;
  gasnetc_shm_control_t *ctl = gasnetc_shm.control;
  ctl->bytes = bytes;
  ctl->max_segsize = max_segsize;
  ctl->members = members;
  for (unsigned m = 0; m < members; m++) {
    gasnetc_shm_ring_init(&gasnetc_shm.queues[m].requests);
    gasnetc_shm_ring_init(&gasnetc_shm.queues[m].replies);
  }
  __atomic_store_n(&ctl->magic, GASNETC_SHM_MAGIC, __ATOMIC_RELEASE);
}

void gasnetc_shm_map_fd(int fd, unsigned members) {
  struct stat st;
  if (fstat(fd, &st))
    gasneti_fatalerror("gasnet_init: failed to inspect the shared memory received: %s",
                       strerror(errno));
  size_t bytes = (size_t)st.st_size;
  if (bytes < sizeof(gasnetc_shm_control_t))
    gasneti_fatalerror("gasnet_init: the shared memory received holds %zu bytes, too few", bytes);
  void *base = gasnetc_shm_mmap(fd, bytes);
  close(fd); /* the mapping keeps the memory */
  const gasnetc_shm_control_t *ctl = base;
  if (__atomic_load_n(&ctl->magic, __ATOMIC_ACQUIRE) != GASNETC_SHM_MAGIC ||
      ctl->bytes != bytes || ctl->members != members)
    gasneti_fatalerror("gasnet_init: the shared memory received is not a region of %u members "
                       "(it says %u members, %llu bytes; %zu mapped)",
                       members, (unsigned)ctl->members, (unsigned long long)ctl->bytes, bytes);
  gasnetc_shm_view(base, bytes, members, (uintptr_t)ctl->max_segsize);
}

void gasnetc_shm_close_fd(void) {
  if (gasnetc_shm.fd >= 0) close(gasnetc_shm.fd);
  gasnetc_shm.fd = -1;
}

static void *gasnetc_shm_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) gasneti_fatalerror("gasnet_init: out of memory (%zu x %zu bytes)", n, size);
  return p;
}

void gasnetc_shm_set_members(unsigned my_member, const gasnet_node_t *member_node) {
  unsigned members = gasnetc_shm.members;
  gasnetc_shm.my_member = my_member;
  gasnetc_shm.member_node = gasnetc_shm_calloc(members, sizeof(gasnet_node_t));
  gasnetc_shm.node_member = gasnetc_shm_calloc(gasneti_nodes, sizeof(int32_t));
  gasnetc_shm.offset = gasnetc_shm_calloc(gasneti_nodes, sizeof(intptr_t));
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasnetc_shm.node_member[i] = -1;
  for (unsigned m = 0; m < members; m++) {
    gasnetc_shm.member_node[m] = member_node[m];
    gasnetc_shm.node_member[member_node[m]] = (int32_t)m;
  }
  gasnetc_shm_my_line()->pid = (int32_t)getpid();
}

void gasnetc_shm_publish_segment(void *addr, uintptr_t segsize) {
  gasnetc_shm_my_line()->segaddr = (uint64_t)(uintptr_t)addr;
  gasnetc_shm_my_line()->segsize = segsize;
}

gasnet_seginfo_t gasnetc_shm_member_segment(unsigned m) {
  gasnet_seginfo_t s = {(void *)(uintptr_t)gasnetc_shm_line(m)->segaddr,
                        (uintptr_t)gasnetc_shm_line(m)->segsize};
  return s;
}

/* mremap of a shared mapping with an old size of 0 maps the same pages
 * again, at `at` with MREMAP_FIXED (replacing the caller's reservation):
 * no file descriptor needed, which the members that received the region
 * have closed. Straight to the kernel: an MPI built on UCX (MPICH's Debian
 * build) interposes mremap with UCX's memory hooks, which refuse an old
 * size of 0 (ENODEV). */
int gasnetc_shm_alias_slot(unsigned m, void *at, size_t bytes) {
  long got = syscall(SYS_mremap, gasnetc_shm_slot(m), 0UL, bytes,
                     (unsigned long)(MREMAP_MAYMOVE | MREMAP_FIXED), at);
  return got == (long)(uintptr_t)at ? 0 : errno;
}

void gasnetc_shm_set_segments(const gasnet_seginfo_t *seginfo) {
  for (unsigned m = 0; m < gasnetc_shm.members; m++) {
    gasnet_node_t node = gasnetc_shm.member_node[m];
    gasnetc_shm.offset[node] = (intptr_t)((uintptr_t)gasnetc_shm_slot(m) - (uintptr_t)seginfo[node].addr);
  }
}

/* A counter already one ahead of ours means its owner saw this barrier
 * complete, which settles it for us too. */
void gasnetc_shm_barrier(void (*idle)(void)) {
  gasnetc_shm_line_t *lines = gasnetc_shm.control->member;
  uint64_t mine = __atomic_add_fetch(&gasnetc_shm_my_line()->barrier_count, 1, __ATOMIC_ACQ_REL);
  for (unsigned m = 0; m < gasnetc_shm.members; m++) {
    unsigned spins = 0;
    for (;;) {
      uint64_t theirs = __atomic_load_n(&lines[m].barrier_count, __ATOMIC_ACQUIRE);
      if ((int64_t)(theirs - mine) > 0) return;
      if (theirs == mine) break;
      idle();
      gasneti_wait_backoff(&spins);
    }
  }
}

/* ------------------------------------------------------------ a conduit's attach */
static const gasnete_barrier_impl_t *const gasnetc_shm_barriers[] = {&gasnetc_shm_barrier_impl,
                                                                     NULL};

int gasnetc_shm_attach_members(gasnete_conduit_ops_t *ops, void (*idle)(void)) {
  gasnetc_shm_set_segments(gasneti_seginfo);
  gasnetc_shm_xmem_attach(idle);
  if (gasnetc_shm_whole_job()) {
    ops->barriers = gasnetc_shm_barriers;
    ops->default_barrier = "SMP";
  }
  return gasnetc_shm_putget_direct();
}

void gasnetc_shm_fill_nodeinfo(gasnet_nodeinfo_t *table, const gasnet_node_t *supernode) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    table[i].supernode = supernode ? supernode[i] : i;
    table[i].offset = gasnetc_shm_is_member(i) ? gasnetc_shm.offset[i] : 0;
  }
}

/* ------------------------------------------------------------ settings */
unsigned gasnetc_shm_read_count(const char *name, const char *dflt_desc, const char *meaning) {
  const char *text = gasneti_getenv_verbose(name, dflt_desc);
  if (!text || !*text) return 0;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(text, &end, 10);
  if (*end || errno || text[strspn(text, "0123456789")])
    gasneti_fatalerror("gasnet_init: %s=\"%s\" is not %s", name, text, meaning);
  return n > GASNET_MAXNODES ? GASNET_MAXNODES : (unsigned)n;
}

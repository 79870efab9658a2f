/* dgram_boot.c: starting the job, the segment, and the queries.
 *
 * gasnetrun_dgram starts the nodes with GASNETRUN_NODE, GASNETRUN_NODES
 * and GASNETRUN_JOB in their environment. Each node binds its socket
 * "gasnet-dgram-<job>-<node>" in the abstract namespace (nothing in the
 * file system, gone with the process) and sends every other node a HELLO
 * with its pid and its largest segment, retrying until the peer has bound
 * its own; start-up ends when every HELLO has come. Attach maps a private
 * segment and sends every node a SEGINFO with its address, size and, if
 * the mapping failed, the reason, so that every node returns the same
 * error. */
#define _GNU_SOURCE
#include "dgram_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

gasnetc_dgram_t gasnetc_dgram = {.fd = -1};
#ifdef GASNETI_THREADS
pthread_mutex_t gasnetc_dgram_lock = PTHREAD_MUTEX_INITIALIZER;
#endif
static uintptr_t gasnetc_max_local, gasnetc_max_global;

/* ------------------------------------------------------------ environment */
static unsigned long gasnetc_env_number(const char *name, unsigned long min, unsigned long max) {
  const char *text = getenv(name);
  if (!text) gasneti_fatalerror("gasnet_init: %s is not set: start the program with gasnetrun_dgram", name);
  char *end;
  errno = 0;
  unsigned long v = strtoul(text, &end, 10);
  if (!*text || *end || errno || v < min || v > max)
    gasneti_fatalerror("gasnet_init: %s=\"%s\" is not a number from %lu to %lu", name, text, min,
                       max);
  return v;
}

static const char *gasnetc_env_job(void) {
  const char *job = getenv("GASNETRUN_JOB");
  if (!job) gasneti_fatalerror("gasnet_init: GASNETRUN_JOB is not set: start the program with gasnetrun_dgram");
  size_t n = strlen(job);
  if (n == 0 || n > 40 || strspn(job, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != n)
    gasneti_fatalerror("gasnet_init: GASNETRUN_JOB=\"%s\" is not 1 to 40 letters, digits, '_', '.' or '-'", job);
  return job;
}

/* ------------------------------------------------------------ the socket */
static void gasnetc_alloc(void) {
  gasnetc_dgram_t *d = &gasnetc_dgram;
  size_t n = gasneti_nodes;
  d->addr = calloc(n, sizeof(*d->addr));
  d->addrlen = calloc(n, sizeof(*d->addrlen));
  d->pid = calloc(n, sizeof(*d->pid));
  d->max_segsize = calloc(n, sizeof(*d->max_segsize));
  d->credits = calloc(n, sizeof(*d->credits));
  d->owed = calloc(n, sizeof(*d->owed));
  d->hello = calloc(n, sizeof(*d->hello));
  d->seginfo = calloc(n, sizeof(*d->seginfo));
  if (!d->addr || !d->addrlen || !d->pid || !d->max_segsize || !d->credits || !d->owed ||
      !d->hello || !d->seginfo)
    gasneti_fatalerror("gasnet_init: out of memory for %zu nodes", n);
}

/* Every node starts with the smallest window any node asked for. */
static uint32_t gasnetc_read_window(void) {
  int64_t w = gasneti_getenv_int("GASNET_DGRAM_CREDITS", GASNETC_CREDITS_DEFAULT);
  if (w < 1 || w > 4096)
    gasneti_fatalerror("gasnet_init: GASNET_DGRAM_CREDITS=%lld is not from 1 to 4096", (long long)w);
  return (uint32_t)w;
}

static void gasnetc_set_window(void) {
  gasnetc_dgram_t *d = &gasnetc_dgram;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (d->credits[i] < d->window) d->window = d->credits[i];
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) d->credits[i] = d->window;
}

/* Abstract names start with a NUL byte and are not NUL-terminated. */
static void gasnetc_name(gasnet_node_t node, const char *job) {
  struct sockaddr_un *a = &gasnetc_dgram.addr[node];
  a->sun_family = AF_UNIX;
  int n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "gasnet-dgram-%s-%u", job,
                   (unsigned)node);
  gasnetc_dgram.addrlen[node] = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static void gasnetc_open_socket(const char *job) {
  gasnetc_dgram_t *d = &gasnetc_dgram;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) gasnetc_name(i, job);
  d->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (d->fd < 0) gasneti_fatalerror("gasnet_init: failed to create a socket: %s", strerror(errno));
  /* Datagrams not yet read count against the sender's buffer: a large one
   * lets a sender keep several packets in flight. The kernel caps it. */
  int sndbuf = 4 << 20;
  setsockopt(d->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
  if (bind(d->fd, (struct sockaddr *)&d->addr[gasneti_mynode], d->addrlen[gasneti_mynode]))
    gasneti_fatalerror("gasnet_init: failed to bind socket @%s: %s", d->addr[gasneti_mynode].sun_path + 1,
                       strerror(errno));
}

/* ------------------------------------------------------------ start-up */
static int gasnetc_all_hello(void *arg) {
  (void)arg;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (!gasnetc_dgram.hello[i]) return 0;
  return 1;
}

/* Default: a quarter of physical memory shared by the nodes. Segments are
 * mapped without reserving swap, so this bounds address space, not memory
 * in use. */
static uint64_t gasnetc_read_max_segsize(void) {
  uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t max = gasneti_getenv_size("GASNET_MAX_SEGSIZE", phys / 4 / gasneti_nodes);
  max &= ~(uint64_t)(GASNET_PAGESIZE - 1);
  if (max < GASNET_PAGESIZE)
    gasneti_fatalerror("gasnet_init: GASNET_MAX_SEGSIZE is below one page (%d bytes)",
                       GASNET_PAGESIZE);
#if defined(GASNET_SEGMENT_EVERYTHING)
  max = (uint64_t)(UINTPTR_MAX & ~(uintptr_t)(GASNET_PAGESIZE - 1));
#endif
  return max;
}

int gasnetc_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  gasnetc_dgram_t *d = &gasnetc_dgram;
  gasneti_nodes = (gasnet_node_t)gasnetc_env_number("GASNETRUN_NODES", 1, GASNET_MAXNODES);
  gasneti_mynode = (gasnet_node_t)gasnetc_env_number("GASNETRUN_NODE", 0, gasneti_nodes - 1u);
  const char *job = gasnetc_env_job();
  gasnetc_alloc();
  gasnetc_open_socket(job);
  gasnetc_exit_init();
  gasnet_node_t me = gasneti_mynode;
  d->max_segsize[me] = gasnetc_read_max_segsize();
  d->pid[me] = getpid();
  d->hello[me] = 1;
  gasnetc_hdr_t hello;
  memset(&hello, 0, sizeof(hello));
  hello.kind = GASNETC_K_HELLO;
  hello.src = me;
  hello.aux = (uint32_t)getpid();
  hello.nbytes = d->max_segsize[me];
  hello.addr = d->window = d->credits[me] = gasnetc_read_window();
  for (gasnet_node_t k = 1; k < gasneti_nodes; k++)
    gasnetc_send_ctrl((gasnet_node_t)((me + k) % gasneti_nodes), &hello, GASNETC_WAIT_BOOT);
  gasnetc_boot_wait(gasnetc_all_hello, NULL, "gasnet_init");
  gasnetc_set_window();
  gasnetc_max_local = (uintptr_t)d->max_segsize[me];
  gasnetc_max_global = gasnetc_max_local;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (d->max_segsize[i] < gasnetc_max_global) gasnetc_max_global = (uintptr_t)d->max_segsize[i];
  return GASNET_OK;
}

uintptr_t gasnetc_max_local_segsize(void) { return gasnetc_max_local; }
uintptr_t gasnetc_max_global_segsize(void) { return gasnetc_max_global; }

/* ------------------------------------------------------------ attach */
static int gasnetc_all_seginfo(void *arg) {
  (void)arg;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (gasnetc_dgram.seginfo[i].kind != GASNETC_K_SEGINFO) return 0;
  return 1;
}

int gasnetc_attach_segment(uintptr_t segsize) {
  gasnetc_dgram_t *d = &gasnetc_dgram;
  void *addr = NULL;
  int err = 0;
#if defined(GASNET_SEGMENT_EVERYTHING)
  segsize = UINTPTR_MAX;
#else
  if (segsize) {
    addr = mmap(NULL, segsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
    if (addr == MAP_FAILED) {
      err = errno;
      addr = NULL;
    }
  }
#endif
  gasnetc_hdr_t mine;
  memset(&mine, 0, sizeof(mine));
  mine.kind = GASNETC_K_SEGINFO;
  mine.src = gasneti_mynode;
  mine.aux = (uint32_t)err;
  mine.nbytes = segsize;
  mine.addr = (uint64_t)(uintptr_t)addr;
  gasnetc_lock();
  d->seginfo[gasneti_mynode] = mine;
  gasnetc_unlock();
  for (gasnet_node_t k = 1; k < gasneti_nodes; k++)
    gasnetc_send_ctrl((gasnet_node_t)((gasneti_mynode + k) % gasneti_nodes), &mine,
                      GASNETC_WAIT_BOOT);
  gasnetc_boot_wait(gasnetc_all_seginfo, NULL, "gasnet_attach");
  int failed = -1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    gasneti_seginfo[i].addr = (void *)(uintptr_t)d->seginfo[i].addr;
    gasneti_seginfo[i].size = (uintptr_t)d->seginfo[i].nbytes;
    if (d->seginfo[i].aux && failed < 0) failed = (int)i;
  }
  if (failed < 0) return GASNET_OK;
  if (addr) munmap(addr, segsize);
  return gasneti_error(GASNET_ERR_RESOURCE, "gasnet_attach",
                       "node %d failed to map a segment of %" PRIu64 " bytes: %s", failed,
                       d->seginfo[failed].nbytes, strerror((int)d->seginfo[failed].aux));
}

void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    table[i].host = 0;       /* one host */
    table[i].supernode = i;  /* private segments */
    table[i].offset = 0;
  }
}

unsigned gasnetc_local_processes(void) { return gasneti_nodes; }
/* The launcher starts every node with its own affinity mask. */
unsigned gasnetc_local_cpus(void) { return gasneti_cpuset_count_mine(); }

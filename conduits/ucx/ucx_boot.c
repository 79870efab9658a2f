/* ucx_boot.c: starting the job, the segment, and the queries.
 *
 * gasnet_init opens the bootstrap exchange (src/gasnet_bootstrap.h: the
 * launcher's socket under gasnetrun_ucx, PMIx under Open MPI's mpirun),
 * creates the UCP context and worker, and gives every node the others'
 * pid, host name, largest segment, credit window and worker address in two
 * allgathers, forms the supernodes (ucx_shm.c, a third); then it creates an
 * endpoint to every other node. gasnet_attach maps the segment through UCP
 * (a supernode member's is its slot, which UCP registers; otherwise
 * ucp_mem_map allocates it, so UCX's shared-memory transports can reach
 * it), packs its remote key, and
 * exchanges address, size, the outcome and the key; every node unpacks
 * every key, and every node returns the same error if any node failed.
 * The exchange is closed after attach (PMIx_Finalize: the launcher
 * expects it before a node ends). */
#define _GNU_SOURCE
#include "ucx_shm.h"

#include "gasnet_bootstrap.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

gasnetc_ucx_t gasnetc_ucx;
GASNETI_THREAD_LOCAL int gasnetc_lock_depth;
#ifdef GASNETI_THREADS
pthread_mutex_t gasnetc_ucx_lock = PTHREAD_MUTEX_INITIALIZER;
#endif
static gasneti_bootstrap_t gasnetc_boot;
static uintptr_t gasnetc_max_local, gasnetc_max_global;

void gasnetc_ucx_fail(const char *call, const char *what, ucs_status_t st) {
  gasneti_fatalerror("%s: %s failed: %s", call, what, ucs_status_string(st));
}

static void gasnetc_boot_check(int rc, const char *call) {
  if (rc) gasneti_fatalerror("%s: the bootstrap exchange failed: %s", call, gasnetc_boot.error);
}

/* The exchange's calls, during which an exit notice ends this node at
 * once (ucx_exit.c: a node waiting for the others at start-up has nothing
 * to finish). */
void gasnetc_boot_allgather(const void *mine, size_t len, void *all, const char *call) {
  gasnetc_exit_bootstrap_enter();
  int rc = gasneti_bootstrap_allgather(&gasnetc_boot, mine, len, all);
  gasnetc_exit_bootstrap_leave();
  gasnetc_boot_check(rc, call);
}

/* UCX's threads (its async progress thread, made while the worker and
 * the connections are) start with every signal blocked, so the process's
 * signals, and the exit path they run, come to the client's threads,
 * never into UCX's own. */
static void gasnetc_signals_block(sigset_t *old) {
  sigset_t every;
  sigfillset(&every);
  pthread_sigmask(SIG_BLOCK, &every, old);
}

static void *gasnetc_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) gasneti_fatalerror("gasnet_init: out of memory for %zu nodes", n);
  return p;
}

ucs_status_t gasnetc_request_wait(void *req) {
  if (req == NULL) return UCS_OK;
  if (UCS_PTR_IS_ERR(req)) return UCS_PTR_STATUS(req);
  unsigned spins = 0;
  for (;;) {
    gasnetc_lock();
    ucp_worker_progress(gasnetc_ucx.worker);
    ucs_status_t st = ucp_request_check_status(req);
    if (st != UCS_INPROGRESS) {
      ucp_request_free(req);
      gasnetc_unlock();
      return st;
    }
    gasnetc_unlock();
    gasneti_wait_backoff(&spins);
  }
}

/* ------------------------------------------------------------ UCP */
static void gasnetc_open_worker(void) {
  ucp_config_t *config;
  ucs_status_t st = ucp_config_read(NULL, NULL, &config);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_config_read", st);
  ucp_params_t params;
  memset(&params, 0, sizeof(params));
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
  params.features = UCP_FEATURE_AM | UCP_FEATURE_RMA;
  params.mt_workers_shared = 0;
  st = ucp_init(&params, config, &gasnetc_ucx.context);
  ucp_config_release(config);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_init", st);
  ucp_worker_params_t wp;
  memset(&wp, 0, sizeof(wp));
  wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
#ifdef GASNETI_THREADS
  wp.thread_mode = UCS_THREAD_MODE_SERIALIZED;
#else
  wp.thread_mode = UCS_THREAD_MODE_SINGLE;
#endif
  st = ucp_worker_create(gasnetc_ucx.context, &wp, &gasnetc_ucx.worker);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_worker_create", st);
}

static void gasnetc_connect(gasnet_node_t node, const void *address) {
  ucp_ep_params_t ep;
  memset(&ep, 0, sizeof(ep));
  /* No peer-failure handling: UCX 1.13 offers it on none of its
   * shared-memory transports, so asking for it would send a host's
   * traffic over TCP. A dead peer of this host is noticed by its pid
   * (ucx_exit.c); one of another host by the launcher. */
  ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE;
  ep.address = address;
  ep.err_mode = UCP_ERR_HANDLING_MODE_NONE;
  ucs_status_t st = ucp_ep_create(gasnetc_ucx.worker, &ep, &gasnetc_ucx.ep[node]);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_ep_create", st);
}

/* Finish every endpoint's connection now, while every node progresses:
 * a message sent later on an endpoint still wiring up would wait for
 * its sender's next poll. */
static void gasnetc_wire_up(void) {
  ucp_request_param_t param;
  memset(&param, 0, sizeof(param));
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode) continue;
    void *req = ucp_ep_flush_nbx(gasnetc_ucx.ep[i], &param);
    ucs_status_t st = gasnetc_request_wait(req);
    if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "connecting (ucp_ep_flush_nbx)", st);
  }
}

/* ------------------------------------------------------------ start-up */
/* What every node tells the others first. */
typedef struct {
  uint32_t pid;
  uint32_t window;
  uint32_t address_len;
  char hostname[68];
  gasneti_cpuset_t cpus; /* its affinity mask: the wait policy's CPUs */
} gasnetc_hello_t;

/* Default: a quarter of physical memory shared by this host's nodes (the
 * hellos' host names count them, whatever the launcher). */
static uint64_t gasnetc_read_max_segsize(unsigned local_procs) {
  uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t max = gasneti_getenv_size("GASNET_MAX_SEGSIZE", phys / 4 / local_procs);
  max &= ~(uint64_t)(GASNET_PAGESIZE - 1);
  if (max < GASNET_PAGESIZE)
    gasneti_fatalerror("gasnet_init: GASNET_MAX_SEGSIZE is below one page (%d bytes)",
                       GASNET_PAGESIZE);
  return max;
}

static uint32_t gasnetc_read_window(void) {
  int64_t w = gasneti_getenv_int("GASNET_UCX_CREDITS", GASNETC_CREDITS_DEFAULT);
  if (w < 1 || w > 4096)
    gasneti_fatalerror("gasnet_init: GASNET_UCX_CREDITS=%lld is not from 1 to 4096", (long long)w);
  return (uint32_t)w;
}

static void gasnetc_alloc(void) {
  gasnetc_ucx_t *u = &gasnetc_ucx;
  size_t n = gasneti_nodes;
  u->ep = gasnetc_calloc(n, sizeof(*u->ep));
  u->rkey = gasnetc_calloc(n, sizeof(*u->rkey));
  u->pid = gasnetc_calloc(n, sizeof(*u->pid));
  u->host = gasnetc_calloc(n, sizeof(*u->host));
  u->credits = gasnetc_calloc(n, sizeof(*u->credits));
  u->owed = gasnetc_calloc(n, sizeof(*u->owed));
  u->send_seq = gasnetc_calloc(n, sizeof(*u->send_seq));
  u->recv_seq = gasnetc_calloc(n, sizeof(*u->recv_seq));
  u->held = gasnetc_calloc(n, sizeof(*u->held));
}

/* Hosts by name, and the window agreed on. */
static void gasnetc_learn_peers(const gasnetc_hello_t *all) {
  gasnetc_ucx_t *u = &gasnetc_ucx;
  u->window = all[0].window;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    u->pid[i] = (pid_t)all[i].pid;
    if (all[i].window < u->window) u->window = all[i].window;
    u->host[i] = i;
    for (gasnet_node_t j = 0; j < i; j++)
      if (!strcmp(all[i].hostname, all[j].hostname)) {
        u->host[i] = u->host[j];
        break;
      }
  }
  gasneti_cpuset_t cpus;
  memset(&cpus, 0, sizeof(cpus));
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    u->credits[i] = u->window;
    if (u->host[i] != u->host[gasneti_mynode]) continue;
    u->local_procs++;
    gasneti_cpuset_merge(&cpus, &all[i].cpus);
  }
  u->local_cpus = gasneti_cpuset_count(&cpus);
}

/* Every node's segment limit, read once the host's nodes are known; the
 * global limit is the smallest. The caller frees the array. */
static uint64_t *gasnetc_agree_max_segsize(void) {
  uint64_t mine = gasnetc_read_max_segsize(gasnetc_ucx.local_procs);
  uint64_t *all = gasnetc_calloc(gasneti_nodes, sizeof(uint64_t));
  gasnetc_boot_allgather(&mine, sizeof(mine), all, "gasnet_init");
  gasnetc_max_local = (uintptr_t)mine;
  gasnetc_max_global = (uintptr_t)all[0];
  for (gasnet_node_t i = 1; i < gasneti_nodes; i++)
    if (all[i] < gasnetc_max_global) gasnetc_max_global = (uintptr_t)all[i];
  return all;
}

static void gasnetc_exchange_addresses(uint32_t max_len, const void *mine, size_t len) {
  uint8_t *block = gasnetc_calloc(1, max_len);
  uint8_t *all = gasnetc_calloc(gasneti_nodes, max_len);
  memcpy(block, mine, len);
  gasnetc_boot_allgather(block, max_len, all, "gasnet_init");
  sigset_t old;
  gasnetc_signals_block(&old);
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (i != gasneti_mynode) gasnetc_connect(i, all + (size_t)i * max_len);
  free(all);
  free(block);
  gasnetc_wire_up();
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int gasnetc_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  gasnetc_ucx_t *u = &gasnetc_ucx;
  gasnetc_boot_check(gasneti_bootstrap_open(&gasnetc_boot), "gasnet_init");
  gasneti_nodes = (gasnet_node_t)gasnetc_boot.nodes;
  gasneti_mynode = (gasnet_node_t)gasnetc_boot.node;
  if (gasnetc_boot.nodes > GASNET_MAXNODES)
    gasneti_fatalerror("gasnet_init: %u nodes, more than this conduit's %d", gasnetc_boot.nodes,
                       GASNET_MAXNODES);
  gasnetc_alloc();
  gasnetc_exit_init();
  sigset_t old;
  gasnetc_signals_block(&old);
  gasnetc_open_worker();
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  gasnetc_poll_init();
  gasnetc_send_init();
  gasnetc_fence_init();
  gasnetc_rma_init();
  ucp_address_t *address;
  size_t address_len;
  ucs_status_t st = ucp_worker_get_address(u->worker, &address, &address_len);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_worker_get_address", st);

  gasnetc_hello_t mine, *all = gasnetc_calloc(gasneti_nodes, sizeof(*all));
  memset(&mine, 0, sizeof(mine));
  mine.pid = (uint32_t)getpid();
  mine.window = gasnetc_read_window();
  mine.address_len = (uint32_t)address_len;
  gethostname(mine.hostname, sizeof(mine.hostname) - 1);
  gasneti_cpuset_mine(&mine.cpus);
  gasnetc_boot_allgather(&mine, sizeof(mine), all, "gasnet_init");
  gasnetc_learn_peers(all);
  uint32_t max_len = 0;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (all[i].address_len > max_len) max_len = all[i].address_len;
  free(all);
  uint64_t *max_segsize = gasnetc_agree_max_segsize();
  gasnetc_ucx_shm_init(max_segsize);
  free(max_segsize);
  gasnetc_max_local = gasnetc_ucx_shm_max_local(gasnetc_max_local);
  gasnetc_exchange_addresses(max_len, address, address_len);
  ucp_worker_release_address(u->worker, address);
  return GASNET_OK;
}

uintptr_t gasnetc_max_local_segsize(void) { return gasnetc_max_local; }
uintptr_t gasnetc_max_global_segsize(void) { return gasnetc_max_global; }

/* ------------------------------------------------------------ attach */
typedef struct {
  uint64_t addr, size;
  int32_t err; /* 0, or why the segment could not be mapped (a ucs_status_t) */
  uint32_t rkey_len;
} gasnetc_seginfo_t;

/* UCP allocates the segment, so UCX's shared-memory transports can reach
 * it; a supernode member's is its slot in the region, which UCP registers
 * for the nodes of other hosts. */
static ucs_status_t gasnetc_map_segment(uintptr_t segsize, void **addr_p) {
  ucp_mem_map_params_t mp;
  memset(&mp, 0, sizeof(mp));
  mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  mp.length = segsize;
  mp.flags = UCP_MEM_MAP_ALLOCATE;
  void *slot = gasnetc_ucx_shm_segment();
  if (slot) {
    mp.field_mask |= UCP_MEM_MAP_PARAM_FIELD_ADDRESS;
    mp.address = slot;
    mp.flags = 0;
  }
  ucs_status_t st = ucp_mem_map(gasnetc_ucx.context, &mp, &gasnetc_ucx.segment_mem);
  if (st != UCS_OK) return st;
  ucp_mem_attr_t attr;
  attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS;
  st = ucp_mem_query(gasnetc_ucx.segment_mem, &attr);
  if (st != UCS_OK) return st;
  *addr_p = attr.address;
  return UCS_OK;
}

/* Every node's key, unpacked for the endpoint to it. */
static void gasnetc_exchange_rkeys(const gasnetc_seginfo_t *info, const void *rkey, size_t len) {
  uint32_t max_len = 1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    if (info[i].rkey_len > max_len) max_len = info[i].rkey_len;
  uint8_t *block = gasnetc_calloc(1, max_len);
  uint8_t *all = gasnetc_calloc(gasneti_nodes, max_len);
  if (len) memcpy(block, rkey, len);
  gasnetc_boot_allgather(block, max_len, all, "gasnet_attach");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode || !info[i].rkey_len) continue;
    ucs_status_t st = ucp_ep_rkey_unpack(gasnetc_ucx.ep[i], all + (size_t)i * max_len,
                                         &gasnetc_ucx.rkey[i]);
    if (st != UCS_OK) gasnetc_ucx_fail("gasnet_attach", "ucp_ep_rkey_unpack", st);
  }
  free(all);
  free(block);
}

/* gasneti_host_memory: UCX maps the segment of every peer of its host
 * outside its supernode, on every node (the answer must be the job's). */
static void gasnetc_agree_host_memory(void) {
  uint8_t mine = (uint8_t)gasnetc_rma_host_mapped();
  uint8_t *all = gasnetc_calloc(gasneti_nodes, 1);
  gasnetc_boot_allgather(&mine, 1, all, "gasnet_attach");
  int every = 1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) every &= all[i];
  gasneti_host_memory = every;
  free(all);
}

int gasnetc_attach_segment(uintptr_t segsize) {
  gasnetc_seginfo_t mine, *all = gasnetc_calloc(gasneti_nodes, sizeof(*all));
  memset(&mine, 0, sizeof(mine));
  void *addr = NULL, *rkey = NULL;
  size_t rkey_len = 0;
  ucs_status_t st = UCS_OK;
  if (segsize) st = gasnetc_map_segment(segsize, &addr);
  if (segsize && st == UCS_OK)
    st = ucp_rkey_pack(gasnetc_ucx.context, gasnetc_ucx.segment_mem, &rkey, &rkey_len);
  mine.addr = (uint64_t)(uintptr_t)addr;
  mine.size = segsize;
  mine.err = (int32_t)st;
  mine.rkey_len = st == UCS_OK ? (uint32_t)rkey_len : 0;
  gasnetc_boot_allgather(&mine, sizeof(mine), all, "gasnet_attach");
  int failed = -1;
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    gasneti_seginfo[i].addr = (void *)(uintptr_t)all[i].addr;
    gasneti_seginfo[i].size = (uintptr_t)all[i].size;
    if (all[i].err != UCS_OK && failed < 0) failed = (int)i;
  }
  if (failed >= 0) {
    gasnetc_seginfo_t bad = all[failed];
    free(all);
    if (rkey) ucp_rkey_buffer_release(rkey);
    return gasneti_error(GASNET_ERR_RESOURCE, "gasnet_attach",
                         "node %d failed to map a segment of %" PRIu64 " bytes: %s", failed,
                         bad.size, ucs_status_string((ucs_status_t)bad.err));
  }
  gasnetc_exchange_rkeys(all, rkey, mine.rkey_len);
  if (rkey) ucp_rkey_buffer_release(rkey);
  free(all);
  gasnetc_rma_find_mapped();
  gasnetc_agree_host_memory(); /* also the barrier: every key is unpacked */
  gasneti_bootstrap_close(&gasnetc_boot);
  gasnetc_rma_attach();
  return GASNET_OK;
}

void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    table[i].host = gasnetc_ucx.host[i];
  }
  gasnetc_ucx_shm_nodeinfo(table);
}

/* The union of the host's processes' masks: mpirun may bind each apart. */
unsigned gasnetc_local_cpus(void) { return gasnetc_ucx.local_cpus; }

unsigned gasnetc_local_processes(void) {
  return gasnetc_ucx.local_procs ? gasnetc_ucx.local_procs : 1;
}

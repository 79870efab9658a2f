/* ucx_rma.c: one-sided put and get into the segments with UCP RMA, and the
 * conduit's table of extended-API overrides (gasnet_extended_conduit.h).
 *
 * Every node's segment is mapped by UCP and its remote key unpacked by
 * every other node at attach (ucx_boot.c). A peer whose segment UCX has
 * mapped into this process (its shared-memory transports: ucp_rkey_ptr
 * answers) is reached by plain copies, each aligned word in one store,
 * complete at return; with the others a transfer of at least
 * GASNET_UCX_RMA_THRESHOLD bytes, but not of 1, 2, 4 or 8, goes to UCX,
 * completing without the target's help where UCP has an RMA lane. The
 * default ("auto") takes every size to such a peer; to a peer whose RMA
 * UCP would emulate with active messages the target must progress (UCX
 * 1.13 over TCP) only gets of up to 4 KiB, as extended-ref's AM protocols
 * are faster for the rest:
 *   - blocking put: ucp_put_nbx, then a flush of the endpoint (the data is
 *     in the target's memory: GASNet's completion of a put);
 *   - blocking get: ucp_get_nbx, waited for;
 *   - put_nb / put_nbi: ucp_put_nbx (waited for unless bulk, so the source
 *     is reusable at return), then a flush whose completion signals;
 *   - get_nb / get_nbi: ucp_get_nbx, whose completion signals;
 *   - an AM Long payload of 4 KiB or more to a mapped peer (ucx_send.c):
 *     a copy, then the header alone with GASNETC_F_IN_PLACE.
 * Completions come from the worker's progress, which every poll and every
 * blocking wait drives. Smaller transfers and memsets stay with
 * extended-ref's AM protocols. Every UCX call is under the conduit lock. */
#include "ucx_shm.h"

#include "gasnet_copy.h"
#include "gasnet_extended_conduit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* GASNET_UCX_RMA_THRESHOLD: a size, or auto (the default: every size by
 * RMA to a peer with an RMA lane; to the others only gets of up to
 * GASNETC_EMULATED_GET_MAX; docs/ucx-conduit.md, "Put and get", has the
 * measurements). */
static size_t gasnetc_rma_threshold;
static int gasnetc_rma_auto;
/* Per node: auto, and UCP would emulate RMA to it. */
static uint8_t *gasnetc_rma_emulated_to;
/* To such a peer gets below this size still go by RMA: UCP's emulated get
 * beat extended-ref's AM get from 32 bytes to 2 KiB and lost from 8 KiB
 * up; its puts lost at every size (docs/ucx-conduit.md, "Put and get"). */
#define GASNETC_EMULATED_GET_MAX 4096
/* Per node: its segment is mapped into this process (UCX's shared-memory
 * transports; ucp_rkey_ptr), at its address plus mapped_offset. */
static uint8_t *gasnetc_mapped;
static intptr_t *gasnetc_mapped_offset;

void gasnetc_rma_init(void) {
  const char *text = gasneti_getenv_verbose("GASNET_UCX_RMA_THRESHOLD", "auto");
  uint64_t v = 0;
  gasnetc_rma_auto = !text || !strcasecmp(text, "auto");
  if (!gasnetc_rma_auto && gasneti_parse_size(text, &v))
    gasneti_fatalerror("gasnet_init: GASNET_UCX_RMA_THRESHOLD=\"%s\" is not a size (e.g. 0, 4K, 1G) "
                       "or auto",
                       text);
  gasnetc_rma_threshold = (size_t)v;
}

/* A peer whose segment this process can load and store: copies, each word
 * in one store (gasneti_copy), complete at once. */
static inline void *gasnetc_mapped_addr(gasnet_node_t node, const void *addr) {
  return (void *)((uintptr_t)addr + (uintptr_t)gasnetc_mapped_offset[node]);
}

static int gasnetc_direct_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  if (!gasnetc_mapped[node]) return 0;
  gasneti_copy(gasnetc_mapped_addr(node, dest), src, nbytes);
  __atomic_thread_fence(__ATOMIC_SEQ_CST); /* visible before what this node does next */
  return 1;
}

static int gasnetc_direct_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  if (!gasnetc_mapped[node]) return 0;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  gasneti_copy(dest, gasnetc_mapped_addr(node, src), nbytes);
  return 1;
}

/* Words of 1, 2, 4 or 8 bytes stay on AM whatever the threshold: the
 * handler lands them in one store, UCP RMA promises nothing about how the
 * target's memory is written (see the word puts in docs/ucx-conduit.md). */
static int gasnetc_rma_takes(gasnet_node_t node, size_t nbytes) {
  return nbytes >= gasnetc_rma_threshold && !gasneti_copy_is_word(nbytes) &&
         gasnetc_ucx.rkey[node] != NULL;
}

static int gasnetc_rma_put_takes(gasnet_node_t node, size_t nbytes) {
  return gasnetc_rma_takes(node, nbytes) && !gasnetc_rma_emulated_to[node];
}

static int gasnetc_rma_get_takes(gasnet_node_t node, size_t nbytes) {
  return gasnetc_rma_takes(node, nbytes) &&
         (!gasnetc_rma_emulated_to[node] || nbytes <= GASNETC_EMULATED_GET_MAX);
}

/* ------------------------------------------------------------ starting (lock held) */
static void gasnetc_rma_signal(void *request, ucs_status_t status, void *user_data) {
  if (status != UCS_OK) gasnetc_ucx_fail("gasnet_put/get", "a UCP transfer", status);
  gasnete_done_signal(user_data);
  ucp_request_free(request);
}

static void gasnetc_rma_param(ucp_request_param_t *param, gasnete_done_t *done) {
  memset(param, 0, sizeof(*param));
  if (!done) return;
  param->op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  param->cb.send = gasnetc_rma_signal;
  param->user_data = done;
}

/* A request that finished at once signals here; one in flight from its
 * callback. */
static void gasnetc_rma_started(void *req, gasnete_done_t *done, const char *call) {
  if (UCS_PTR_IS_ERR(req)) gasnetc_ucx_fail(call, "a UCP transfer", UCS_PTR_STATUS(req));
  if (req == NULL && done) gasnete_done_signal(done);
}

static void *gasnetc_put_start(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  ucp_request_param_t param;
  gasnetc_rma_param(&param, NULL);
  return ucp_put_nbx(gasnetc_ucx.ep[node], src, nbytes, (uint64_t)(uintptr_t)dest,
                     gasnetc_ucx.rkey[node], &param);
}

static void *gasnetc_flush_start(gasnet_node_t node, gasnete_done_t *done) {
  ucp_request_param_t param;
  gasnetc_rma_param(&param, done);
  return ucp_ep_flush_nbx(gasnetc_ucx.ep[node], &param);
}

static void gasnetc_check(ucs_status_t st, const char *call, const char *what) {
  if (st != UCS_OK) gasnetc_ucx_fail(call, what, st);
}

/* ------------------------------------------------------------ the slots */
/* A supernode member is the shared-memory layer's: copies, or (with
 * GASNET_SMP_PUTGET=am) extended-ref's AMs through the rings. */
static int gasnetc_rma_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  if (gasnetc_shm_is_member(node))
    return gasnetc_ucx_shm_direct && gasnetc_shm_put(node, dest, src, nbytes);
  if (gasnetc_direct_put(node, dest, src, nbytes)) return 1;
  if (!gasnetc_rma_put_takes(node, nbytes)) return 0;
  gasnetc_lock();
  void *req = gasnetc_put_start(node, dest, src, nbytes);
  gasnetc_unlock();
  gasnetc_check(gasnetc_request_wait(req), "gasnet_put", "ucp_put_nbx");
  gasnetc_lock();
  req = gasnetc_flush_start(node, NULL);
  gasnetc_unlock();
  gasnetc_check(gasnetc_request_wait(req), "gasnet_put", "ucp_ep_flush_nbx");
  return 1;
}

static int gasnetc_rma_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  if (gasnetc_shm_is_member(node))
    return gasnetc_ucx_shm_direct && gasnetc_shm_get(dest, node, src, nbytes);
  if (gasnetc_direct_get(dest, node, src, nbytes)) return 1;
  if (!gasnetc_rma_get_takes(node, nbytes)) return 0;
  ucp_request_param_t param;
  gasnetc_rma_param(&param, NULL);
  gasnetc_lock();
  void *req = ucp_get_nbx(gasnetc_ucx.ep[node], dest, nbytes, (uint64_t)(uintptr_t)src,
                          gasnetc_ucx.rkey[node], &param);
  gasnetc_unlock();
  gasnetc_check(gasnetc_request_wait(req), "gasnet_get", "ucp_get_nbx");
  return 1;
}

static int gasnetc_rma_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  return gasnetc_shm_is_member(node) && gasnetc_ucx_shm_direct &&
         gasnetc_shm_memset(node, dest, val, nbytes);
}

static int gasnetc_rma_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes,
                              int bulk, gasnete_done_t *done) {
  if (gasnetc_shm_is_member(node) || gasnetc_mapped[node] || !gasnetc_rma_put_takes(node, nbytes))
    return 0;
  gasnetc_lock();
  void *req = gasnetc_put_start(node, dest, src, nbytes);
  if (bulk && req && !UCS_PTR_IS_ERR(req)) {
    ucp_request_free(req); /* UCX completes it; the flush covers it */
    req = NULL;
  }
  gasnetc_unlock();
  if (!bulk) gasnetc_check(gasnetc_request_wait(req), "gasnet_put_nb", "ucp_put_nbx");
  else gasnetc_rma_started(req, NULL, "gasnet_put_nb_bulk");
  gasnetc_lock();
  req = gasnetc_flush_start(node, done);
  gasnetc_rma_started(req, done, "gasnet_put_nb");
  gasnetc_unlock();
  return 1;
}

static int gasnetc_rma_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes,
                              gasnete_done_t *done) {
  if (gasnetc_shm_is_member(node) || gasnetc_mapped[node] || !gasnetc_rma_get_takes(node, nbytes))
    return 0;
  ucp_request_param_t param;
  gasnetc_rma_param(&param, done);
  gasnetc_lock();
  void *req = ucp_get_nbx(gasnetc_ucx.ep[node], dest, nbytes, (uint64_t)(uintptr_t)src,
                          gasnetc_ucx.rkey[node], &param);
  gasnetc_rma_started(req, done, "gasnet_get_nb");
  gasnetc_unlock();
  return 1;
}

int gasnetc_peer_mapped(gasnet_node_t node) { return gasnetc_mapped && gasnetc_mapped[node]; }

/* Only where the segment is mapped: over a network UCX emulates (TCP in
 * UCX 1.13), a put and a flush cost two round trips and more than the
 * payload inline (docs/ucx-conduit.md, "Measurements"). */
int gasnetc_rma_long_payload(gasnet_node_t dest, const gasneti_am_t *msg) {
  /* A Long to an address outside the segment (gasneti_long_anywhere) is
   * not in the mapping: UCX carries it. */
  if (!gasneti_in_segment(dest, msg->dest_addr, msg->nbytes)) return 0;
  return gasnetc_direct_put(dest, msg->dest_addr, msg->payload, msg->nbytes);
}

/* ------------------------------------------------------------ the table */
/* The barrier's AM fence: requests through UCX are made sure of by their
 * senders (ucx_fence.c), those through the rings by their receivers, and
 * those a node sent itself outside the rings are run here. */
static void gasnetc_run_arrived(void) {
  if (gasnetc_shm.members) gasnetc_shm_run_arrived_requests(gasnetc_am_poll);
  gasnetc_fence_run_own();
}

static gasnete_conduit_ops_t gasnetc_ucx_ops = {
    .name = "ucx",
    .put = gasnetc_rma_put,
    .get = gasnetc_rma_get,
    .memset = gasnetc_rma_memset,
    .put_nb = gasnetc_rma_put_nb,
    .get_nb = gasnetc_rma_get_nb,
    .am_fence_start = gasneti_amfence_start,
    .am_fence_done = gasneti_amfence_done,
    .am_run_arrived = gasnetc_run_arrived,
};

/* Which peers' segments are mapped here: ucp_rkey_ptr answers for the
 * shared-memory transports. */
void gasnetc_rma_find_mapped(void) {
  gasnetc_mapped = calloc(gasneti_nodes, 1);
  gasnetc_mapped_offset = calloc(gasneti_nodes, sizeof(*gasnetc_mapped_offset));
  if (!gasnetc_mapped || !gasnetc_mapped_offset) gasneti_fatalerror("gasnet_attach: out of memory");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    void *base = gasneti_seginfo[i].addr, *local = NULL;
    if (!gasnetc_ucx.rkey[i] || !gasneti_seginfo[i].size || gasnetc_shm_is_member(i)) continue;
    if (ucp_rkey_ptr(gasnetc_ucx.rkey[i], (uint64_t)(uintptr_t)base, &local) != UCS_OK) continue;
    gasnetc_mapped[i] = 1;
    gasnetc_mapped_offset[i] = (intptr_t)((uintptr_t)local - (uintptr_t)base);
  }
}

int gasnetc_rma_host_mapped(void) {
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode || gasnetc_shm_is_member(i)) continue;
    if (gasnetc_same_host(i) && !gasnetc_mapped[i]) return 0;
  }
  return 1;
}

/* Whether UCP would emulate RMA to this peer with active messages that the
 * peer must progress. UCP has no query for it, but the endpoint's printed
 * configuration lists a "put[N]" line per RMA lane (UCX 1.13: over TCP
 * there is none, the endpoint has AM and rendezvous lanes only). Text that
 * does not look like that configuration ("am_send:") answers no: RMA
 * stays, as before the choice existed. */
static int gasnetc_rma_emulated(ucp_ep_h ep) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return 0;
  ucp_ep_print_info(ep, f);
  fclose(f);
  int emulated = text && strstr(text, "am_send:") && !strstr(text, "put[");
  free(text);
  return emulated;
}

/* GASNET_VERBOSEENV: node 0 says how it reaches its peers. */
static void gasnetc_rma_report(unsigned copies, unsigned rma, unsigned am) {
  if (gasneti_mynode != 0 || !gasneti_verboseenv_asked()) return;
  char setting[32] = "auto";
  if (!gasnetc_rma_auto) snprintf(setting, sizeof(setting), "%zu", gasnetc_rma_threshold);
  fprintf(stderr,
          "ucx conduit: put/get (GASNET_UCX_RMA_THRESHOLD %s): %u peers by copies, %u by UCP RMA, "
          "%u by AM (UCP would emulate RMA: gets up to %u bytes still by RMA)\n",
          setting, copies, rma, am, (unsigned)GASNETC_EMULATED_GET_MAX);
}

/* auto: which peers UCP would emulate RMA to. */
static void gasnetc_choose_rma(void) {
  unsigned copies = 0, rma = 0, am = 0;
  gasnetc_rma_emulated_to = calloc(gasneti_nodes, 1);
  if (!gasnetc_rma_emulated_to) gasneti_fatalerror("gasnet_attach: out of memory");
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
    if (i == gasneti_mynode) continue;
    if (gasnetc_shm_is_member(i) || gasnetc_mapped[i]) {
      copies++;
      continue;
    }
    if (!gasnetc_ucx.rkey[i]) continue;
    gasnetc_rma_emulated_to[i] = gasnetc_rma_auto && gasnetc_rma_emulated(gasnetc_ucx.ep[i]);
    if (gasnetc_rma_emulated_to[i]) am++;
    else rma++;
  }
  gasnetc_rma_report(copies, rma, am);
}

void gasnetc_rma_attach(void) {
  gasnetc_ucx_shm_attach(&gasnetc_ucx_ops);
  gasnetc_choose_rma();
  gasnete_register_conduit_ops(&gasnetc_ucx_ops);
}

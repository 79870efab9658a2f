/* ucx_rma.c: one-sided put and get into the segments with UCP RMA, and the
 * conduit's table of extended-API overrides (gasnet_extended_conduit.h).
 *
 * Every node's segment is mapped by UCP and its remote key unpacked by
 * every other node at attach (ucx_boot.c), so a transfer of at least
 * GASNET_UCX_RMA_THRESHOLD bytes (default 9) to another node's segment goes to UCX
 * and completes without the target's help:
 *   - blocking put: ucp_put_nbx, then a flush of the endpoint (the data is
 *     in the target's memory: GASNet's completion of a put);
 *   - blocking get: ucp_get_nbx, waited for;
 *   - put_nb / put_nbi: ucp_put_nbx (waited for unless bulk, so the source
 *     is reusable at return), then a flush whose completion signals;
 *   - get_nb / get_nbi: ucp_get_nbx, whose completion signals;
 *   - an AM Long payload of 4 KiB or more (ucx_send.c): a blocking put,
 *     then the header alone with GASNETC_F_IN_PLACE.
 * Completions come from the worker's progress, which every poll and every
 * blocking wait drives. Smaller transfers and memsets stay with
 * extended-ref's AM protocols. Every UCX call is under the conduit lock. */
#include "ucx_internal.h"

#include "gasnet_extended_conduit.h"

#include <string.h>

/* Default threshold: a put of a flag word (1, 2, 4 or 8 bytes) goes as an
 * AM, which lands it in one store. Over UCX's shared-memory transports,
 * word puts by RMA let testflagpingpong read an already consumed flag
 * again (docs/ucx-conduit.md, "Put and get"). */
#define GASNETC_RMA_DEFAULT_THRESHOLD 9

static size_t gasnetc_rma_threshold;

void gasnetc_rma_init(void) {
  gasnetc_rma_threshold =
      (size_t)gasneti_getenv_size("GASNET_UCX_RMA_THRESHOLD", GASNETC_RMA_DEFAULT_THRESHOLD);
}

static int gasnetc_rma_takes(gasnet_node_t node, size_t nbytes) {
  return nbytes >= gasnetc_rma_threshold && gasnetc_ucx.rkey[node] != NULL;
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
static int gasnetc_rma_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  if (!gasnetc_rma_takes(node, nbytes)) return 0;
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
  if (!gasnetc_rma_takes(node, nbytes)) return 0;
  ucp_request_param_t param;
  gasnetc_rma_param(&param, NULL);
  gasnetc_lock();
  void *req = ucp_get_nbx(gasnetc_ucx.ep[node], dest, nbytes, (uint64_t)(uintptr_t)src,
                          gasnetc_ucx.rkey[node], &param);
  gasnetc_unlock();
  gasnetc_check(gasnetc_request_wait(req), "gasnet_get", "ucp_get_nbx");
  return 1;
}

static int gasnetc_rma_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes,
                              int bulk, gasnete_done_t *done) {
  if (!gasnetc_rma_takes(node, nbytes)) return 0;
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
  if (!gasnetc_rma_takes(node, nbytes)) return 0;
  ucp_request_param_t param;
  gasnetc_rma_param(&param, done);
  gasnetc_lock();
  void *req = ucp_get_nbx(gasnetc_ucx.ep[node], dest, nbytes, (uint64_t)(uintptr_t)src,
                          gasnetc_ucx.rkey[node], &param);
  gasnetc_rma_started(req, done, "gasnet_get_nb");
  gasnetc_unlock();
  return 1;
}

int gasnetc_rma_long_payload(gasnet_node_t dest, const gasneti_am_t *msg) {
  return gasnetc_ucx.rkey[dest] != NULL &&
         gasnetc_rma_put(dest, msg->dest_addr, msg->payload, msg->nbytes);
}

/* ------------------------------------------------------------ the table */
static void gasnetc_run_arrived(void) { gasnetc_fence_run_own(); }

static gasnete_conduit_ops_t gasnetc_ucx_ops = {
    .name = "ucx",
    .put = gasnetc_rma_put,
    .get = gasnetc_rma_get,
    .put_nb = gasnetc_rma_put_nb,
    .get_nb = gasnetc_rma_get_nb,
    .am_fence_start = gasnetc_fence_start,
    .am_fence_done = gasnetc_fence_done,
    .am_run_arrived = gasnetc_run_arrived,
};

void gasnetc_rma_attach(void) { gasnete_register_conduit_ops(&gasnetc_ucx_ops); }

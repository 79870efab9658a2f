/* ucx_send.c: sending active messages and control messages.
 *
 * An AM to a member of this node's supernode goes through the
 * shared-memory layer's rings (ucx_shm.c); to any other node it is one
 * UCP active message. Its header (ours, with the arguments) is the UCP AM
 * header and its payload the UCP data. It goes with
 * UCP_AM_SEND_FLAG_EAGER, so the receiver's callback has the whole
 * message, except a large payload: to a peer reached through UCX's shared
 * memory a Medium of GASNET_UCX_RNDV_THRESHOLD bytes or more or a Long of
 * GASNET_UCX_RNDV_LONG_THRESHOLD or more, to any other either of
 * GASNET_UCX_RNDV_NET_THRESHOLD or more. That goes by rendezvous
 * (UCP_AM_SEND_FLAG_RNDV), the receiver fetches it straight into its
 * packet or, for a Long, into its segment (ucx_poll.c), and the send
 * completes once it has. (Through
 * shared memory an eager Medium stays in the buffer UCX put it together
 * in, and a 64 KiB one's round trip eagerly took a half to a quarter of
 * its time by rendezvous, so every Medium goes eagerly there. Over TCP
 * rendezvous costs a round trip more: slower up to 128 KiB, faster from
 * 512 KiB, 2 MiB puts in 0.4 of the time of 64 KiB eager Longs.) The
 * header stays on the sender's stack, which outlives the send since the
 * sender waits for it: when UCX has not finished a send at return (a
 * large payload, a busy TCP socket), the sender waits, progressing the
 * worker: the payload is then the caller's again, and the message is in
 * the transport's hands, so it arrives even if this node computes from
 * now on and never polls. A request first takes a credit for its
 * receiver, polling (and so delivering) while it has none. */
#include "ucx_shm.h"

#include "gasnet_copy.h"

#include <stdlib.h>
#include <string.h>

/* Long payloads of at least this many bytes go by RMA (ucx_rma.c decides
 * whether it can), the header after them. */
#define GASNETC_LONG_RMA_MIN 4096

/* The largest UCP AM header we send: ours and 16 arguments. */
#define GASNETC_HDR_MAX (sizeof(gasnetc_hdr_t) + 64)

/* Payloads of at least this many bytes go by rendezvous: to a peer whose
 * segment UCX maps (its shared memory), and to any other. A Long to such
 * a peer that reaches UCX at all is one whose destination lies outside
 * the segment (into the segment it is a copy through the mapping,
 * gasnetc_rma_long_payload): by rendezvous UCX reads it straight into
 * place, eagerly it is cut into fragments and put together again, so
 * those go by rendezvous from a lower size than Mediums, which are
 * handled where UCX put them together (docs/ucx-conduit.md, "Longs
 * outside the segment by rendezvous inside a host"). */
#define GASNETC_RNDV_DEFAULT_THRESHOLD 262144
#define GASNETC_RNDV_LONG_DEFAULT_THRESHOLD 65536
#define GASNETC_RNDV_NET_DEFAULT_THRESHOLD 262144
static size_t gasnetc_rndv_threshold, gasnetc_rndv_long_threshold, gasnetc_rndv_net_threshold;

void gasnetc_send_init(void) {
  gasnetc_rndv_threshold =
      (size_t)gasneti_getenv_size("GASNET_UCX_RNDV_THRESHOLD", GASNETC_RNDV_DEFAULT_THRESHOLD);
  gasnetc_rndv_long_threshold = (size_t)gasneti_getenv_size(
      "GASNET_UCX_RNDV_LONG_THRESHOLD", GASNETC_RNDV_LONG_DEFAULT_THRESHOLD);
  gasnetc_rndv_net_threshold = (size_t)gasneti_getenv_size("GASNET_UCX_RNDV_NET_THRESHOLD",
                                                           GASNETC_RNDV_NET_DEFAULT_THRESHOLD);
  ucp_worker_attr_t attr;
  attr.field_mask = UCP_WORKER_ATTR_FIELD_MAX_AM_HEADER;
  ucs_status_t st = ucp_worker_query(gasnetc_ucx.worker, &attr);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_worker_query", st);
  if (attr.max_am_header < GASNETC_HDR_MAX)
    gasneti_fatalerror("gasnet_init: UCX allows AM headers of %zu bytes; the ucx conduit needs %zu",
                       attr.max_am_header, GASNETC_HDR_MAX);
}

/* A send nobody waits for frees its request too. */
static void gasnetc_detached_done(void *request, ucs_status_t status, void *user_data) {
  (void)status;
  free(user_data);
  ucp_request_free(request);
}

/* The smallest payload to dest that goes by rendezvous. */
static size_t gasnetc_rndv_from(gasnet_node_t dest, int is_long) {
  if (!gasnetc_peer_mapped(dest)) return gasnetc_rndv_net_threshold;
  return is_long ? gasnetc_rndv_long_threshold : gasnetc_rndv_threshold;
}

/* Start a UCP AM carrying hdr (len bytes) and the payload; lock held.
 * Returns UCX's request (NULL when already complete, or detached: nobody
 * waits for it). A sender that waits for its request (every AM) leaves the
 * header where it has it, which stays there until the wait is over: no
 * copy, and no request at all when UCX is done at once (short and bcopy
 * sends through shared memory and an idle TCP socket). A detached send (a
 * control message, or a Long its caller sent detached: gasneti_long_detaches)
 * copies its header into a buffer that the send's completion frees; a
 * Long's payload stays the caller's to keep until the receiver answers. */
static void *gasnetc_am_start(gasnet_node_t dest, const void *hdr, size_t len, const void *payload,
                              size_t nbytes, int is_long, int detached) {
  ucp_request_param_t param;
  param.flags = nbytes && nbytes >= gasnetc_rndv_from(dest, is_long) ? UCP_AM_SEND_FLAG_RNDV
                                                                      : UCP_AM_SEND_FLAG_EAGER;
  param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  void *copy = NULL;
  if (detached) {
    copy = malloc(len);
    if (!copy) gasneti_fatalerror("ucx conduit: out of memory for a message header");
    memcpy(copy, hdr, len);
    hdr = copy;
    param.op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param.cb.send = gasnetc_detached_done;
    param.user_data = copy;
  }
  void *req = ucp_am_send_nbx(gasnetc_ucx.ep[dest], GASNETC_AM_ID, hdr, len, payload, nbytes, &param);
  if (UCS_PTR_IS_ERR(req)) {
    free(copy);
    gasnetc_peer_lost(dest, UCS_PTR_STATUS(req));
    return NULL;
  }
  if (req == NULL) free(copy); /* done at once: no callback */
  return detached ? NULL : req;
}

void gasnetc_send_ctrl(gasnet_node_t dest, gasnetc_kind_t kind, uint32_t seq) {
  gasnetc_hdr_t hdr;
  memset(&hdr, 0, sizeof(hdr));
  hdr.kind = (uint8_t)kind;
  hdr.src = gasneti_mynode;
  hdr.seq = seq;
  if (kind == GASNETC_K_CREDIT)
    hdr.credits = (uint16_t)gasneti_mt_exchange(&gasnetc_ucx.owed[dest], 0);
  gasnetc_am_start(dest, &hdr, gasnetc_wire_header_bytes(&hdr), NULL, 0, 0, 1);
}

/* ------------------------------------------------------------ credits */
static inline uint32_t gasnetc_credit_threshold(void) {
  return gasnetc_ucx.window > 1 ? gasnetc_ucx.window / 2 : 1;
}

void gasnetc_credit_returned(gasnet_node_t src, unsigned n) {
  if (n) gasneti_mt_add(&gasnetc_ucx.credits[src], n);
}

static void gasnetc_credit_take(gasnet_node_t dest) {
  uint32_t *c = &gasnetc_ucx.credits[dest];
  unsigned spins = 0;
  for (;;) {
    uint32_t v = gasneti_mt_load(c);
    if (v) {
      if (gasneti_mt_cas(c, &v, v - 1)) return;
      continue;
    }
    gasneti_wait_step(&spins);
  }
}

void gasnetc_credit_owe(gasnet_node_t src) {
  uint32_t owed = gasneti_mt_add(&gasnetc_ucx.owed[src], 1);
  if (owed < gasnetc_credit_threshold()) return;
  gasnetc_lock();
  if (src == gasneti_mynode)
    gasnetc_credit_returned(src, gasneti_mt_exchange(&gasnetc_ucx.owed[src], 0));
  else if (gasneti_mt_load(&gasnetc_ucx.owed[src]) >= gasnetc_credit_threshold())
    gasnetc_send_ctrl(src, GASNETC_K_CREDIT, 0);
  gasnetc_unlock();
}

/* ------------------------------------------------------------ active messages */
/* Fill the header and arguments of msg where the message is sent from,
 * and return their length: compact on the wire (gasnetc_hdr_is_compact),
 * whole for a message to this node itself, which goes straight into a
 * packet. */
static size_t gasnetc_fill_header(gasnetc_hdr_t *hdr, const gasneti_am_t *msg, int to_self) {
  memset(hdr, 0, sizeof(*hdr));
  hdr->kind = msg->is_request ? GASNETC_K_REQUEST : GASNETC_K_REPLY;
  hdr->category = msg->category;
  hdr->handler = msg->handler;
  hdr->numargs = msg->numargs;
  hdr->src = gasneti_mynode;
  hdr->nbytes = msg->nbytes;
  hdr->addr = (uint64_t)(uintptr_t)msg->dest_addr;
  /* All 16 slots, a fixed size (a few moves, where copying by the count
   * called memcpy); only the header's length (the count's) is sent. A
   * compact header's arguments take the place of nbytes and addr. */
  _Static_assert(GASNETC_HDR_MAX - sizeof(gasnetc_hdr_t) == sizeof(msg->args), "room for 16");
  int compact = !to_self && gasnetc_hdr_is_compact(hdr);
  memcpy((uint8_t *)hdr + (compact ? GASNETC_HDR_COMPACT : sizeof(*hdr)), msg->args,
         sizeof(msg->args));
  return compact ? gasnetc_wire_header_bytes(hdr) : sizeof(*hdr) + gasnetc_args_bytes(msg->numargs);
}

/* To this node itself: straight into its own stream (lock held). */
static void gasnetc_send_self(gasnetc_hdr_t *hdr, size_t hlen, const gasneti_am_t *msg) {
  size_t carried = msg->category == GASNETI_AM_MEDIUM ? msg->nbytes : 0;
  gasnetc_pkt_t *p = gasnetc_pkt_alloc(hlen + carried);
  memcpy(&p->hdr, hdr, hlen);
  if (carried) memcpy(gasnetc_pkt_payload(p), msg->payload, carried);
  if (msg->category == GASNETI_AM_LONG && msg->nbytes)
    gasneti_copy(msg->dest_addr, msg->payload, msg->nbytes); /* a flag word in one store */
  gasnetc_accept(p);
}

static void gasnetc_send_am(gasnet_node_t dest, const gasneti_am_t *msg) {
  int ch = msg->is_request ? GASNETC_CH_REQ : GASNETC_CH_REP;
  if (msg->is_request) gasnetc_credit_take(dest);
  _Alignas(16) uint8_t buf[GASNETC_HDR_MAX];
  gasnetc_hdr_t *hdr = (gasnetc_hdr_t *)buf;
  size_t hlen = gasnetc_fill_header(hdr, msg, dest == gasneti_mynode);
  size_t nbytes = msg->category == GASNETI_AM_SHORT ? 0 : msg->nbytes;
  if (dest != gasneti_mynode && msg->category == GASNETI_AM_LONG &&
      nbytes >= GASNETC_LONG_RMA_MIN && gasnetc_rma_long_payload(dest, msg)) {
    hdr->flags |= GASNETC_F_IN_PLACE;
    nbytes = 0;
  }
  gasnetc_lock();
  hdr->seq = gasnetc_ucx.send_seq[dest][ch]++;
  hdr->credits = (uint16_t)gasneti_mt_exchange(&gasnetc_ucx.owed[dest], 0);
  if (dest == gasneti_mynode) {
    gasnetc_credit_returned(dest, hdr->credits);
    hdr->credits = 0;
    gasnetc_send_self(hdr, hlen, msg);
    gasnetc_unlock();
    return;
  }
  /* Requests a node sends itself skip UCX and the fence (gasnetc_fence_run_own). */
  if (msg->is_request) gasneti_amfence_note_request(dest, msg->handler);
  /* A detached Long leaves its request to the completion callback: the
   * caller learns from the receiver when the payload is read. */
  int detach = msg->category == GASNETI_AM_LONG && msg->detach && nbytes;
  void *req = gasnetc_am_start(dest, hdr, hlen, msg->payload, nbytes,
                               msg->category == GASNETI_AM_LONG, detach);
  gasnetc_unlock();
  if (req) {
    /* The payload is the caller's again, and the message on its way
     * without this node's help (it may compute now and never poll). */
    ucs_status_t st = gasnetc_request_wait(req);
    if (st != UCS_OK) gasnetc_peer_lost(dest, st);
  }
}

/* A member of this node's supernode is reached through the shared-memory
 * layer's rings (ucx_shm.c), any other node through UCX. */
void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) {
  gasnetc_exit_check();
  if (gasnetc_shm_is_member(dest))
    gasnetc_shm_request(dest, msg, gasnetc_am_poll);
  else
    gasnetc_send_am(dest, msg);
}

void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  if (gasnetc_shm_is_member(token->src))
    gasnetc_shm_reply(token->src, msg, gasnetc_am_poll_replies);
  else
    gasnetc_send_am(token->src, msg);
}

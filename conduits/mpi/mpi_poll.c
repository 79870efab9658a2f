/* mpi_poll.c: receiving AMs. One MPI_Testsome over the posted receives
 * finds what has arrived: packets of either channel and control messages
 * (credit returns, exit notices); a second one, only while separate
 * payloads are expected, finds the payloads that have come. The receives
 * are fixed pools, the same whatever the number of nodes, so an idle poll
 * costs the same at any job size; packets that find no free receive wait
 * in MPI as unexpected messages, as many as the senders' credits allow.
 * A packet whose payload follows separately gets a receive posted for it,
 * straight into the destination segment (Long) or a buffer of its size
 * (Medium), and is delivered when that completes. Packets from one sender
 * on one channel are delivered in the order it sent them (see "order"
 * below). After delivery the packet's buffer is posted again and the
 * sender is owed one credit. The receive array holds replies and control
 * messages first, so a reply-only poll tests just that prefix.
 *
 * In PAR the lock covers MPI and the conduit state; handlers run without
 * it, and a thread that finds another one polling returns at once. */
#include "mpi_internal.h"

#include "gasnet_copy.h"
#include "gasnet_pace.h"
#include "mpi_shm.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ credits */
static void gasnetc_credit_owe(gasnet_node_t src, int ch) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  if (++m->owed[src][ch] >= m->threshold && !m->owed_queued[src]) {
    m->owed_queued[src] = 1;
    m->owed_queue[m->owed_nqueued++] = src;
  }
}

static void gasnetc_credit_receive(gasnet_node_t src, const uint16_t credits[GASNETC_NCH]) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  if (src >= gasneti_nodes) gasneti_fatalerror("mpi conduit: message claims to come from node %u", src);
  m->credits[src][GASNETC_CH_REQ] += credits[GASNETC_CH_REQ];
  m->credits[src][GASNETC_CH_REP] += credits[GASNETC_CH_REP];
}

/* ------------------------------------------------------------ arrivals (lock held) */
static void gasnetc_ctrl_arrived(unsigned i) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  const gasnetc_ctrl_t *ctrl = &m->ctrl[i];
  if (ctrl->kind == GASNETC_CTRL_CREDIT)
    gasnetc_credit_receive(ctrl->src, ctrl->credits);
  else if (ctrl->kind == GASNETC_CTRL_EXIT)
    gasnetc_exit_notice(ctrl->src, ctrl->code);
  else if (ctrl->kind == GASNETC_CTRL_FENCE && ctrl->src < gasneti_nodes)
    gasneti_amfence_asked_by(ctrl->src, (uint32_t)ctrl->code);
  else if (ctrl->kind == GASNETC_CTRL_FENCE_ACK)
    gasneti_amfence_answered();
  gasnetc_mpi_check(MPI_Start(&m->rreq[gasnetc_ctrl_index(i)]), "post a control receive");
}

/* ------------------------------------------------------------ ready lists */
/* The packets one poll found deliverable: replies and requests apart, each
 * in the order found (at most P of each: one per pool buffer). Every reply
 * is delivered before every request, so a request handler that polls
 * replies while waiting to send its reply cannot overtake a reply of this
 * poll (the next packet of that reply's stream would find it accepted
 * and be delivered at once). */
typedef struct {
  int *slots[GASNETC_NCH];
  unsigned n[GASNETC_NCH];
} gasnetc_ready_t;

static void gasnetc_ready_add(gasnetc_ready_t *ready, unsigned s) {
  int ch = gasnetc_slot_channel(s);
  ready->slots[ch][ready->n[ch]++] = (int)s;
}

/* ------------------------------------------------------------ order (lock held)
 * Each sender numbers its packets per destination and channel (a stream),
 * and each stream is delivered strictly in that order. MPI does not hand
 * us packets in that order: it fills our receives in the order they were
 * posted, but they are reposted in whatever order handlers finish, and
 * MPI_Testsome reports completions in index order. Nor can a packet whose
 * payload follows separately be delivered before the payload arrives.
 *
 * So a packet is delivered at once only when it is the next of its
 * stream, nothing of the stream is held and it has no separate payload;
 * otherwise it is held, in its pool buffer and with its credit, in the
 * stream's list sorted by number. A held packet is accepted when its turn
 * comes: its payload's receive is posted then, keyed by the packet's
 * slot. Payloads of one channel share a tag, so MPI hands them to our
 * receives in the order the sender started them, which is the order of
 * the numbers: receives must be posted in that order too. A packet ahead
 * of its turn waits only for packets MPI has already matched to our
 * buffers: its predecessors were sent before it on the same tag, and MPI
 * matches one sender's messages of a tag in order, so none of them can
 * still be unexpected once it has been received. A poll that looks at
 * the channel reads them (a reply-only poll looks at replies). The head
 * of the list is delivered once accepted and its payload, if any, has
 * arrived. Credits bound a stream's held packets to `depth`. */

/* a comes before b (numbers wrap). */
static int gasnetc_seq_before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

static void gasnetc_payload_post(unsigned s) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_hdr_t *hdr = gasnetc_slot_buf(s);
  int ch = gasnetc_slot_channel(s);
  void *dst = (void *)(uintptr_t)hdr->dest_addr;
  if (hdr->category == GASNETI_AM_MEDIUM) {
    if (posix_memalign(&dst, 64, hdr->nbytes))
      gasneti_fatalerror("mpi conduit: out of memory for a %llu-byte Medium payload",
                         (unsigned long long)hdr->nbytes);
    m->bounce[s] = dst;
  }
  gasnetc_mpi_check(MPI_Irecv(dst, (int)hdr->nbytes, MPI_BYTE, (int)hdr->src,
                              gasnetc_payload_tag(ch), m->comm, &m->preq[s]),
                    "receive a payload (MPI_Irecv)");
  m->npayload[ch]++;
}

/* Held packet s, accepted: whether its payload (if separate) is in. A
 * payload receive is MPI_REQUEST_NULL once MPI_Testsome or this test has
 * completed it. */
static int gasnetc_payload_in(unsigned s) {
  if (!(gasnetc_slot_buf(s)->flags & GASNETC_F_SEPARATE)) return 1;
  MPI_Request *r = &gasnetc_mpi.preq[s];
  if (*r == MPI_REQUEST_NULL) return 1;
  int done = 0;
  gasnetc_mpi_check(MPI_Test(r, &done, MPI_STATUS_IGNORE), "receive a payload (MPI_Test)");
  if (done) gasnetc_mpi.npayload[gasnetc_slot_channel(s)]--;
  return done;
}

/* After an event on stream (src, ch): accept the held packets whose turn
 * has come, then move the deliverable ones at the head to the ready list. */
static void gasnetc_stream_advance(gasnet_node_t src, int ch, gasnetc_ready_t *ready) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  int *head = &m->deferred_head[src][ch];
  uint32_t *next = &m->payload_next[src][ch];
  for (int p = *head; p >= 0; p = m->deferred_next[p]) {
    const gasnetc_hdr_t *hdr = gasnetc_slot_buf((unsigned)p);
    if (gasnetc_seq_before(hdr->seq, *next)) continue; /* accepted earlier */
    if (hdr->seq != *next) break;                       /* a gap: not yet arrived */
    if (hdr->flags & GASNETC_F_SEPARATE) gasnetc_payload_post((unsigned)p);
    (*next)++;
  }
  while (*head >= 0) {
    unsigned s = (unsigned)*head;
    if (!gasnetc_seq_before(gasnetc_slot_buf(s)->seq, *next) || !gasnetc_payload_in(s)) break;
    *head = m->deferred_next[s];
    gasnetc_ready_add(ready, s);
  }
}

/* Packet slot s has arrived: take its credits, then deliver or hold it. */
static void gasnetc_packet_arrived(unsigned s, gasnetc_ready_t *ready) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_hdr_t *hdr = gasnetc_slot_buf(s);
  gasnetc_credit_receive(hdr->src, hdr->credits); /* checks src */
  gasnet_node_t src = hdr->src;
  int ch = gasnetc_slot_channel(s);
  uint32_t *next = &m->payload_next[src][ch];
  if (gasnetc_seq_before(hdr->seq, *next))
    gasneti_fatalerror("mpi conduit: packet %u from node %u arrived after its turn (next: %u)",
                       (unsigned)hdr->seq, (unsigned)src, (unsigned)*next);
  if (hdr->seq == *next && m->deferred_head[src][ch] < 0 && !(hdr->flags & GASNETC_F_SEPARATE)) {
    (*next)++; /* the common case: in turn, nothing held */
    gasnetc_ready_add(ready, s);
    return;
  }
  int *p = &m->deferred_head[src][ch];
  while (*p >= 0 && gasnetc_seq_before(gasnetc_slot_buf((unsigned)*p)->seq, hdr->seq))
    p = &m->deferred_next[*p];
  m->deferred_next[s] = *p;
  *p = (int)s;
  gasnetc_stream_advance(src, ch, ready);
}

/* The separate payload of held packet s has arrived. */
static void gasnetc_payload_arrived(unsigned s, gasnetc_ready_t *ready) {
  gasnetc_mpi.npayload[gasnetc_slot_channel(s)]--;
  gasnetc_stream_advance(gasnetc_slot_buf(s)->src, gasnetc_slot_channel(s), ready);
}

/* ------------------------------------------------------------ delivery (lock not held) */
/* Post the packet buffer again and owe its sender the credit. */
static void gasnetc_packet_release(unsigned s, gasnet_node_t src, int ch) {
  gasnetc_lock();
  gasnetc_mpi_check(MPI_Start(&gasnetc_mpi.rreq[gasnetc_slot_rindex(s)]),
                    "post a packet receive");
  gasnetc_credit_owe(src, ch);
  gasnetc_unlock();
}

static void gasnetc_deliver(unsigned s) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_hdr_t *hdr = gasnetc_slot_buf(s);
  int ch = gasnetc_slot_channel(s);
  gasneti_am_t msg;
  msg.category = hdr->category;
  msg.handler = hdr->handler;
  msg.numargs = hdr->numargs;
  msg.is_request = (hdr->flags & GASNETC_F_REQUEST) != 0;
  msg.nbytes = (size_t)hdr->nbytes;
  msg.dest_addr = (void *)(uintptr_t)hdr->dest_addr;
  msg.payload = NULL;
  memcpy(msg.args, hdr + 1, msg.numargs * sizeof(gasnet_handlerarg_t));
  gasnet_node_t src = hdr->src;
  void *bounce = NULL;
  int in_buffer = 0; /* the handler reads the packet buffer itself */
  if (msg.category == GASNETI_AM_MEDIUM) {
    if (hdr->flags & GASNETC_F_SEPARATE) {
      msg.payload = bounce = m->bounce[s];
      m->bounce[s] = NULL;
    } else {
      msg.payload = gasnetc_inline_payload(hdr);
      in_buffer = 1;
    }
  } else if (msg.category == GASNETI_AM_LONG) {
    if (!(hdr->flags & (GASNETC_F_SEPARATE | GASNETC_F_IN_PLACE)) && msg.nbytes)
      gasneti_copy(msg.dest_addr, gasnetc_inline_payload(hdr), msg.nbytes); /* a flag in one store */
    msg.payload = msg.dest_addr;
  }
  /* Shorts and Longs are fully copied out: the credit goes back before
   * the handler runs, so a reply it sends can carry it. */
  if (!in_buffer) gasnetc_packet_release(s, src, ch);
  struct gasneti_token_s token = {src, msg.is_request, 0, NULL};
  gasneti_am_deliver(&token, &msg);
  if (in_buffer) gasnetc_packet_release(s, src, ch);
  free(bounce);
  if (ch == GASNETC_CH_REQ) gasneti_amfence_ran_request(src);
}

/* ------------------------------------------------------------ polling */
/* MPI_Testsome's output, per thread and per nesting level (a handler that
 * waits to send a reply polls again while the outer poll's list is live). */
#define GASNETC_POLL_LEVELS 4
typedef struct {
  int *idx;
  unsigned cap;
} gasnetc_scratch_t;
static GASNETI_THREAD_LOCAL gasnetc_scratch_t gasnetc_scratch[GASNETC_POLL_LEVELS];
static GASNETI_THREAD_LOCAL unsigned gasnetc_poll_level;

static int *gasnetc_scratch_get(unsigned count, int **owned_p) {
  *owned_p = NULL;
  if (gasnetc_poll_level < GASNETC_POLL_LEVELS) {
    gasnetc_scratch_t *sc = &gasnetc_scratch[gasnetc_poll_level];
    if (sc->cap < count) {
      free(sc->idx);
      sc->idx = malloc(count * sizeof(int));
      sc->cap = sc->idx ? count : 0;
    }
    if (sc->idx) return sc->idx;
  }
  *owned_p = malloc(count * sizeof(int));
  if (!*owned_p) gasneti_fatalerror("mpi conduit: out of memory while polling");
  return *owned_p;
}

/* Sort the completed receives of rreq, idx[0..outcount), into the ready
 * lists; control messages are handled here (lock held). */
static void gasnetc_classify(const int *idx, int outcount, gasnetc_ready_t *ready) {
  const unsigned P = gasnetc_mpi.npool, C = gasnetc_mpi.nctrl;
  for (int k = 0; k < outcount; k++) {
    unsigned r = (unsigned)idx[k];
    if (r < P) /* reply packet */
      gasnetc_packet_arrived(r, ready);
    else if (r < P + C)
      gasnetc_ctrl_arrived(r - P);
    else /* request packet */
      gasnetc_packet_arrived(r - C, ready);
  }
}

/* Separate payloads of the first `slots` packet slots (the replies', or
 * both channels'), tested only while any is expected (lock held). */
static void gasnetc_payloads_poll(unsigned slots, unsigned expected, int *idx,
                                  gasnetc_ready_t *ready) {
  if (!expected) return;
  int outcount = 0;
  gasnetc_mpi_check(MPI_Testsome((int)slots, gasnetc_mpi.preq, &outcount, idx,
                                 MPI_STATUSES_IGNORE),
                    "poll for payloads (MPI_Testsome)");
  if (outcount == MPI_UNDEFINED) return;
  for (int k = 0; k < outcount; k++) gasnetc_payload_arrived((unsigned)idx[k], ready);
}

static int gasnetc_poll(int replies_only) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_exit_check();
  if (!gasnetc_poll_trylock()) return -1;
  gasnetc_send_progress();
  /* idx: MPI_Testsome's output (for the packets, then for the payloads);
   * then the two ready lists. */
  const unsigned P = m->npool;
  int *owned, *idx = gasnetc_scratch_get(gasnetc_nrreq() + 2 * P, &owned);
  gasnetc_ready_t ready = {{idx + gasnetc_nrreq(), idx + gasnetc_nrreq() + P}, {0, 0}};
  unsigned count = replies_only ? gasnetc_reply_prefix() : gasnetc_nrreq();
  int outcount = 0;
  gasnetc_mpi_check(MPI_Testsome((int)count, m->rreq, &outcount, idx, MPI_STATUSES_IGNORE),
                    "poll for messages (MPI_Testsome)");
  if (outcount != MPI_UNDEFINED) gasnetc_classify(idx, outcount, &ready);
  if (replies_only)
    gasnetc_payloads_poll(P, m->npayload[GASNETC_CH_REP], idx, &ready);
  else
    gasnetc_payloads_poll(2 * P, m->npayload[GASNETC_CH_REP] + m->npayload[GASNETC_CH_REQ], idx,
                          &ready);
  gasnetc_credit_flush();
  gasneti_amfence_flush();
  gasnetc_unlock();
  unsigned nready = ready.n[GASNETC_CH_REP] + ready.n[GASNETC_CH_REQ];
  if (nready) {
    gasnetc_poll_level++;
    for (unsigned j = 0; j < ready.n[GASNETC_CH_REP]; j++)
      gasnetc_deliver((unsigned)ready.slots[GASNETC_CH_REP][j]);
    for (unsigned j = 0; j < ready.n[GASNETC_CH_REQ]; j++)
      gasnetc_deliver((unsigned)ready.slots[GASNETC_CH_REQ][j]);
    gasnetc_poll_level--;
    gasnetc_lock();
    gasnetc_credit_flush();
    gasneti_amfence_flush();
    gasnetc_unlock();
  }
  free(owned);
  gasnetc_exit_check();
  return (int)nready;
}

/* Over TCP an MPI_Testsome that finds nothing costs an epoll or poll
 * system call: after one, a thread that sends between polls leaves MPI
 * alone for a while, twice as long as it took and longer after empty
 * tests in a row (gasnet_pace.h). -1 from
 * gasnetc_poll: another thread holds the lock. */
static GASNETI_THREAD_LOCAL gasneti_pace_t gasnetc_pace;

static int gasnetc_poll_paced(int replies_only) {
  return gasneti_pace_poll(&gasnetc_pace, gasnetc_poll, replies_only);
}

/* The supernode's rings first (nothing when there is none), then MPI
 * (mpi_shm.h: not at every poll when the supernode is the whole job). */
int gasnetc_am_poll(void) {
  int n = gasnetc_mpi_shm_poll();
  return gasnetc_mpi_shm_mpi_due() ? n + gasnetc_poll_paced(0) : n;
}

int gasnetc_am_poll_replies(void) {
  int n = gasnetc_mpi_shm_poll_replies();
  return gasnetc_mpi_shm_mpi_due() ? n + gasnetc_poll_paced(1) : n;
}

/* Used by the exit protocol (lock held): handle control messages only. */
int gasnetc_poll_ctrl(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  int outcount = 0;
  int *owned, *idx = gasnetc_scratch_get(m->nctrl, &owned);
  gasnetc_mpi_check(MPI_Testsome((int)m->nctrl, &m->rreq[gasnetc_ctrl_index(0)], &outcount, idx,
                                 MPI_STATUSES_IGNORE),
                    "poll for control messages (MPI_Testsome)");
  if (outcount == MPI_UNDEFINED) outcount = 0;
  for (int k = 0; k < outcount; k++) gasnetc_ctrl_arrived((unsigned)idx[k]);
  free(owned);
  return outcount;
}

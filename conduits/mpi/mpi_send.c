/* mpi_send.c: sending AMs with flow control.
 *
 * A sender needs one credit for the destination and channel (a receive
 * buffer the destination has posted for it) and a free send slot. It packs
 * header, arguments and, when they fit, the payload into the slot's buffer
 * and starts an MPI_Isend; the slot is retired when MPI reports the send
 * complete. A payload too large for a packet follows as a second Isend
 * with a tag the header names: from a copy when it is at most
 * GASNET_MPI_BOUNCE_MAX bytes (the call returns at once), else straight from
 * the client's buffer, and the call waits until MPI is done with it.
 * Every packet carries its number in the stream (destination, channel),
 * taken under the lock in the step that starts it, so numbers follow the
 * order in which MPI sees the packets and their payloads; the receiver
 * delivers each stream in that order. Every packet carries the
 * credits this node owes the destination back to it (a request only the
 * request credits: see gasnetc_fill_packet). While it waits, a
 * request sender polls everything; a reply sender (inside a request
 * handler) polls only replies and control messages, whose handlers send
 * nothing, so replies always drain. */
#include "mpi_internal.h"
#include "mpi_rma.h"

#include "gasnet_copy.h"
#include "mpi_shm.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ send slots */
gasnetc_sendslot_t *gasnetc_send_slot_get(unsigned *index_p) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  if (!m->nfree) return NULL;
  unsigned i = m->send_free[m->nfree - 1];
  gasnetc_sendslot_t *slot = &m->send[i];
  if (!slot->buf && posix_memalign(&slot->buf, 64, m->packet_size))
    gasneti_fatalerror("mpi conduit: out of memory for a %zu-byte send buffer", m->packet_size);
  m->nfree--;
  *index_p = i;
  return slot;
}

void gasnetc_send_slot_start(unsigned index, const void *buf, size_t len, gasnet_node_t dest,
                             int tag) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_mpi_check(MPI_Isend(buf, (int)len, MPI_BYTE, (int)dest, tag, m->comm,
                              &m->active_req[m->nactive]),
                    "send a packet (MPI_Isend)");
  m->active_slot[m->nactive++] = index;
}

/* MPI_Testsome's indices, highest first (MPI does not promise an order;
 * Open MPI and MPICH report them lowest first). */
static int gasnetc_int_desc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x < y) - (x > y);
}

static void gasnetc_sort_desc(int *idx, int n) {
  int ascending = 1;
  for (int k = 1; k < n && ascending; k++) ascending = idx[k - 1] < idx[k];
  if (!ascending) {
    qsort(idx, (size_t)n, sizeof(int), gasnetc_int_desc);
    return;
  }
  for (int lo = 0, hi = n - 1; lo < hi; lo++, hi--) {
    int t = idx[lo];
    idx[lo] = idx[hi];
    idx[hi] = t;
  }
}

/* Retires the sends MPI_Testsome reports complete, and only those: each
 * returns its slot and leaves the active list, the list's last entry
 * taking its place. Done highest index first, so the entry moved down is
 * always one still in flight (every completed entry above has left). */
int gasnetc_send_progress(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  if (!m->nactive) return 0;
  int outcount = 0;
  gasnetc_mpi_check(MPI_Testsome((int)m->nactive, m->active_req, &outcount, m->send_idx,
                                 MPI_STATUSES_IGNORE),
                    "complete sends (MPI_Testsome)");
  if (outcount == MPI_UNDEFINED || outcount == 0) return 0;
  gasnetc_sort_desc(m->send_idx, outcount);
  for (int k = 0; k < outcount; k++) {
    unsigned r = (unsigned)m->send_idx[k];
    gasnetc_sendslot_t *slot = &m->send[m->active_slot[r]];
    free(slot->bounce);
    slot->bounce = NULL;
    m->send_free[m->nfree++] = m->active_slot[r];
    m->nactive--;
    m->active_req[r] = m->active_req[m->nactive];
    m->active_slot[r] = m->active_slot[m->nactive];
  }
  return outcount;
}

/* ------------------------------------------------------------ credits */
/* Peers owed `threshold` credits or more on a channel get them back in a
 * control message, unless a packet took them along meanwhile. A peer
 * waiting for credits has spent all `depth`, so what we owe it reaches the
 * threshold once we have handled its packets: no sender waits forever. */
void gasnetc_credit_flush(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  while (m->owed_nqueued) {
    gasnet_node_t peer = m->owed_queue[m->owed_nqueued - 1];
    uint16_t *owed = m->owed[peer];
    if (owed[GASNETC_CH_REQ] >= m->threshold || owed[GASNETC_CH_REP] >= m->threshold) {
      unsigned i;
      gasnetc_sendslot_t *slot = gasnetc_send_slot_get(&i);
      if (!slot) return; /* try again at the next poll */
      gasnetc_ctrl_t *ctrl = slot->buf;
      memset(ctrl, 0, sizeof(*ctrl));
      ctrl->kind = GASNETC_CTRL_CREDIT;
      ctrl->src = gasneti_mynode;
      ctrl->credits[GASNETC_CH_REQ] = owed[GASNETC_CH_REQ];
      ctrl->credits[GASNETC_CH_REP] = owed[GASNETC_CH_REP];
      owed[GASNETC_CH_REQ] = owed[GASNETC_CH_REP] = 0;
      gasnetc_send_slot_start(i, ctrl, sizeof(*ctrl), peer, GASNETC_TAG_CTRL);
    }
    m->owed_queued[peer] = 0;
    m->owed_nqueued--;
  }
}

/* ------------------------------------------------------------ AMs */
/* Lock held, and kept until the packet is started: it takes the packet's
 * number. */
static size_t gasnetc_fill_packet(gasnetc_hdr_t *hdr, gasnet_node_t dest, int ch,
                                  const gasneti_am_t *msg, int flags) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  hdr->category = msg->category;
  hdr->handler = msg->handler;
  hdr->numargs = msg->numargs;
  hdr->flags = (uint8_t)(flags | (ch == GASNETC_CH_REQ ? GASNETC_F_REQUEST : 0));
  hdr->src = gasneti_mynode;
  /* Reply credits never ride on a request: the destination may be waiting
   * for them inside a request handler, polling replies only, and would
   * not see them. Request credits may ride on anything (a node waiting
   * for them polls everything). */
  hdr->credits[GASNETC_CH_REQ] = m->owed[dest][GASNETC_CH_REQ];
  m->owed[dest][GASNETC_CH_REQ] = 0;
  hdr->credits[GASNETC_CH_REP] = 0;
  if (ch == GASNETC_CH_REP) {
    hdr->credits[GASNETC_CH_REP] = m->owed[dest][GASNETC_CH_REP];
    m->owed[dest][GASNETC_CH_REP] = 0;
  }
  hdr->seq = m->payload_seq[dest][ch]++;
  hdr->nbytes = msg->nbytes;
  hdr->dest_addr = (uint64_t)(uintptr_t)msg->dest_addr;
  memcpy(hdr + 1, msg->args, msg->numargs * sizeof(gasnet_handlerarg_t));
  size_t len = sizeof(*hdr) + gasnetc_args_bytes(msg->numargs);
  if (flags & (GASNETC_F_SEPARATE | GASNETC_F_IN_PLACE)) return len;
  if (msg->nbytes) memcpy(gasnetc_inline_payload(hdr), msg->payload, msg->nbytes);
  return len + msg->nbytes;
}

/* Wait until MPI has finished reading a separate payload. */
static void gasnetc_wait_payload(MPI_Request *req, int (*poll)(void)) {
  unsigned spins = 0;
  for (;;) {
    int done = 0;
    gasnetc_lock();
    gasnetc_mpi_check(MPI_Test(req, &done, MPI_STATUS_IGNORE), "send a payload (MPI_Test)");
    gasnetc_unlock();
    if (done) return;
    poll();
    gasneti_wait_backoff(&spins);
  }
}

static void gasnetc_send(gasnet_node_t dest, int ch, const gasneti_am_t *msg, int (*poll)(void)) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  int flags = 0;
  if (msg->category == GASNETI_AM_LONG && dest == gasneti_mynode) {
    /* Loopback Long: copy now, as a remote receiver would before the
     * handler runs (and MPI may not receive into the buffer it sends). */
    if (msg->nbytes && msg->dest_addr != msg->payload)
      gasneti_move(msg->dest_addr, msg->payload, msg->nbytes); /* a flag in one store */
    flags = GASNETC_F_IN_PLACE;
  } else if (msg->nbytes && sizeof(gasnetc_hdr_t) + gasnetc_args_bytes(msg->numargs) +
                                    msg->nbytes > m->packet_size) {
    /* A large Long's payload may go ahead by RMA (mpi_rma.c), complete in
     * the destination segment before its header is numbered and sent. */
    int rma = msg->category == GASNETI_AM_LONG && gasnetc_rma_long_payload(dest, msg);
    flags = rma ? GASNETC_F_IN_PLACE : GASNETC_F_SEPARATE;
  }
  /* A payload small enough to copy is sent from a copy tracked by a
   * second slot, so this call need not wait for the receiver. */
  int bounce = (flags & GASNETC_F_SEPARATE) && msg->nbytes <= m->bounce_max;
  void *copy = NULL;
  if (bounce) {
    copy = malloc(msg->nbytes);
    if (!copy) gasneti_fatalerror("mpi conduit: out of memory for a %zu-byte payload", msg->nbytes);
    memcpy(copy, msg->payload, msg->nbytes);
  }
  unsigned spins = 0, slot, pslot = 0;
  gasnetc_lock();
  while (!m->credits[dest][ch] || m->nfree < 1u + bounce) {
    gasnetc_unlock();
    poll();
    gasneti_wait_backoff(&spins);
    gasnetc_lock();
  }
  m->credits[dest][ch]--;
  gasnetc_send_slot_get(&slot);
  gasnetc_hdr_t *hdr = m->send[slot].buf;
  size_t len = gasnetc_fill_packet(hdr, dest, ch, msg, flags);
  if (ch == GASNETC_CH_REQ) gasneti_amfence_note_request(dest, msg->handler);
  MPI_Request payload = MPI_REQUEST_NULL;
  if (flags & GASNETC_F_SEPARATE) {
    /* Started in the step that numbered the packet, before it: MPI
     * matches payloads in the order they are started, and the receiver
     * posts its receives in the order of the packets' numbers. */
    if (bounce) {
      gasnetc_send_slot_get(&pslot);
      m->send[pslot].bounce = copy;
      gasnetc_send_slot_start(pslot, copy, msg->nbytes, dest, gasnetc_payload_tag(ch));
    } else {
      gasnetc_mpi_check(MPI_Isend(msg->payload, (int)msg->nbytes, MPI_BYTE, (int)dest,
                                  gasnetc_payload_tag(ch), m->comm, &payload),
                        "send a payload (MPI_Isend)");
    }
  }
  gasnetc_send_slot_start(slot, hdr, len, dest,
                          ch == GASNETC_CH_REQ ? GASNETC_TAG_REQ : GASNETC_TAG_REP);
  gasnetc_unlock();
  if (payload != MPI_REQUEST_NULL) gasnetc_wait_payload(&payload, poll);
}

/* A member of this node's supernode is reached through the shared-memory
 * layer's rings (mpi_shm.c), any other node through MPI. */
void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) {
  if (gasnetc_shm_is_member(dest))
    gasnetc_shm_request(dest, msg, gasnetc_am_poll);
  else
    gasnetc_send(dest, GASNETC_CH_REQ, msg, gasnetc_am_poll);
}

void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  if (gasnetc_shm_is_member(token->src))
    gasnetc_shm_reply(token->src, msg, gasnetc_am_poll_replies);
  else
    gasnetc_send(token->src, GASNETC_CH_REP, msg, gasnetc_am_poll_replies);
}

/* smp_am.c: active messages over the shared rings. A sender claims a slot
 * in the destination's ring, writes the header and (Medium) payload into it
 * or (Long) copies the payload straight into the destination segment, then
 * publishes the slot. Requests and replies use separate rings so a reply
 * never waits behind requests: a node waiting to send a reply runs only
 * reply handlers, which send nothing, so replies always drain. */
#include "smp_internal.h"

#include "gasnet_copy.h"

#include <string.h>

static void gasnetc_smp_fill_slot(gasnetc_smp_slot_t *slot, const gasneti_am_t *msg) {
  gasnetc_smp_msg_header_t *hdr = &slot->hdr;
  hdr->category = msg->category;
  hdr->handler = msg->handler;
  hdr->numargs = msg->numargs;
  hdr->is_request = msg->is_request;
  hdr->src = gasneti_mynode;
  hdr->nbytes = msg->nbytes;
  hdr->dest_addr = (uint64_t)(uintptr_t)msg->dest_addr;
  memcpy(hdr->args, msg->args, msg->numargs * sizeof(gasnet_handlerarg_t));
  if (!msg->nbytes) return;
  if (msg->category == GASNETI_AM_MEDIUM)
    memcpy(slot->payload, msg->payload, msg->nbytes);
  else if (msg->category == GASNETI_AM_LONG && msg->dest_addr != msg->payload)
    gasneti_move(msg->dest_addr, msg->payload, msg->nbytes); /* a flag word in one store */
}

static void gasnetc_smp_send(gasnetc_smp_ring_t *ring, const gasneti_am_t *msg,
                             int (*poll)(void)) {
  uint64_t pos;
  gasnetc_smp_slot_t *slot = gasnetc_smp_ring_reserve(ring, &pos);
  unsigned spins = 0;
  while (!slot) {
    poll();
    gasneti_wait_backoff(&spins);
    slot = gasnetc_smp_ring_reserve(ring, &pos);
  }
  gasnetc_smp_fill_slot(slot, msg);
  gasnetc_smp_ring_publish(slot, pos);
}

void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) {
  gasnetc_smp_send(&gasnetc_smp_queues[dest].requests, msg, gasnetc_am_poll);
}

void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  gasnetc_smp_send(&gasnetc_smp_queues[token->src].replies, msg, gasnetc_am_poll_replies);
}

static void gasnetc_smp_deliver(gasnetc_smp_slot_t *slot) {
  const gasnetc_smp_msg_header_t *hdr = &slot->hdr;
  gasneti_am_t msg;
  msg.category = hdr->category;
  msg.handler = hdr->handler;
  msg.numargs = hdr->numargs;
  msg.is_request = hdr->is_request;
  msg.nbytes = hdr->nbytes;
  msg.dest_addr = (void *)(uintptr_t)hdr->dest_addr;
  msg.payload = hdr->category == GASNETI_AM_LONG ? msg.dest_addr : (void *)slot->payload;
  memcpy(msg.args, hdr->args, hdr->numargs * sizeof(gasnet_handlerarg_t));
  struct gasneti_token_s token = {hdr->src, hdr->is_request, 0, NULL};
  gasneti_am_deliver(&token, &msg);
}

/* Deliver at most one ring's worth, so a steady flood cannot keep a poller
 * inside forever. */
static int gasnetc_smp_drain(gasnetc_smp_ring_t *ring) {
  int n = 0;
  uint64_t pos;
  gasnetc_smp_slot_t *slot;
  while (n < GASNETC_SMP_RING_DEPTH && (slot = gasnetc_smp_ring_take(ring, &pos))) {
    gasnetc_smp_deliver(slot);
    gasnetc_smp_ring_release(slot, pos);
    n++;
  }
  return n;
}

int gasnetc_am_poll_replies(void) {
  gasnetc_smp_check_exit();
  return gasnetc_smp_drain(&gasnetc_smp_queues[gasneti_mynode].replies);
}

int gasnetc_am_poll(void) {
  int n = gasnetc_am_poll_replies();
  return n + gasnetc_smp_drain(&gasnetc_smp_queues[gasneti_mynode].requests);
}

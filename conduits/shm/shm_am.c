/* shm_am.c: active messages over the shared rings. A sender claims a slot
 * in the destination member's ring, writes the header and (Medium) payload
 * into it or (Long) copies the payload straight into the destination
 * segment, through the translated address, then publishes the slot.
 * Requests and replies use separate rings so a reply never waits behind
 * requests: a node waiting to send a reply runs only reply handlers, which
 * send nothing, so replies always drain. */
#include "shm_internal.h"

#include "gasnet_copy.h"

#include <string.h>

static void gasnetc_shm_fill_slot(gasnetc_shm_slot_t *slot, gasnet_node_t dest,
                                  const gasneti_am_t *msg) {
  gasnetc_shm_msg_header_t *hdr = &slot->hdr;
  hdr->category = msg->category;
  hdr->handler = msg->handler;
  hdr->numargs = msg->numargs;
  hdr->is_request = msg->is_request;
  hdr->src = gasneti_mynode;
  hdr->nbytes = msg->nbytes;
  hdr->dest_addr = (uint64_t)(uintptr_t)msg->dest_addr;
  memcpy(hdr->args, msg->args, msg->numargs * sizeof(gasnet_handlerarg_t));
  if (!msg->nbytes) return;
  if (msg->category == GASNETI_AM_MEDIUM) {
    memcpy(slot->payload, msg->payload, msg->nbytes);
  } else if (msg->category == GASNETI_AM_LONG) {
    void *to = gasnetc_shm_translate(dest, msg->dest_addr);
    if (to != msg->payload) gasneti_move(to, msg->payload, msg->nbytes); /* a flag word in one store */
  }
}

static gasnetc_shm_queues_t *gasnetc_shm_queues_of(gasnet_node_t node) {
  return &gasnetc_shm.queues[gasnetc_shm.node_member[node]];
}

static void gasnetc_shm_send(gasnetc_shm_ring_t *ring, gasnet_node_t dest,
                             const gasneti_am_t *msg, int (*poll)(void)) {
  uint64_t pos;
  gasnetc_shm_slot_t *slot = gasnetc_shm_ring_reserve(ring, &pos);
  unsigned spins = 0;
  while (!slot) {
    poll();
    gasneti_wait_backoff(&spins);
    slot = gasnetc_shm_ring_reserve(ring, &pos);
  }
  gasnetc_shm_fill_slot(slot, dest, msg);
  gasnetc_shm_ring_publish(slot, pos);
}

void gasnetc_shm_request(gasnet_node_t dest, const gasneti_am_t *msg, int (*poll)(void)) {
  gasnetc_shm_send(&gasnetc_shm_queues_of(dest)->requests, dest, msg, poll);
}

void gasnetc_shm_reply(gasnet_node_t dest, const gasneti_am_t *msg, int (*poll)(void)) {
  gasnetc_shm_send(&gasnetc_shm_queues_of(dest)->replies, dest, msg, poll);
}

static void gasnetc_shm_deliver(gasnetc_shm_slot_t *slot) {
  const gasnetc_shm_msg_header_t *hdr = &slot->hdr;
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
static int gasnetc_shm_drain(gasnetc_shm_ring_t *ring) {
  int n = 0;
  uint64_t pos;
  gasnetc_shm_slot_t *slot;
  while (n < GASNETC_SHM_RING_DEPTH && (slot = gasnetc_shm_ring_take(ring, &pos))) {
    gasnetc_shm_deliver(slot);
    gasnetc_shm_ring_release(slot, pos);
    n++;
  }
  return n;
}

int gasnetc_shm_poll_replies(void) {
  return gasnetc_shm_drain(&gasnetc_shm.queues[gasnetc_shm.my_member].replies);
}

int gasnetc_shm_poll(void) {
  gasnetc_shm_queues_t *mine = &gasnetc_shm.queues[gasnetc_shm.my_member];
  int n = gasnetc_shm_drain(&mine->replies);
  return n + gasnetc_shm_drain(&mine->requests);
}

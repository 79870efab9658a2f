/* smp_am.c: active messages. Every node is a member of the job's one
 * supernode, so every AM travels through the shared-memory layer's rings
 * (conduits/shm/shm_am.c); a poll first checks whether the job is ending. */
#include "smp_internal.h"

void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) {
  gasnetc_shm_request(dest, msg, gasnetc_am_poll);
}

void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  gasnetc_shm_reply(token->src, msg, gasnetc_am_poll_replies);
}

int gasnetc_am_poll_replies(void) {
  gasnetc_smp_check_exit();
  return gasnetc_shm_poll_replies();
}

int gasnetc_am_poll(void) {
  gasnetc_smp_check_exit();
  return gasnetc_shm_poll();
}

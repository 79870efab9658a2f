/* template_conduit.c: every function of the conduit contract
 * (src/gasnet_internal.h, "the conduit contract"), each marked PORTER and
 * failing with a clear message until it is written. The order below is the
 * order to write them in; docs/porting.md says what each must do. */
#include "gasnet_internal.h"

#include <stdlib.h>
#include <unistd.h>

/* Fails loudly: a template conduit must not pretend to work. */
static void gasnetc_unwritten(const char *function) GASNETI_NORETURN;
static void gasnetc_unwritten(const char *function) {
  fprintf(stderr, "*** FATAL ERROR: template conduit: %s is not written yet "
                  "(see docs/porting.md)\n", function);
  fflush(stderr);
  _exit(1);
}

/* PORTER 1: start the job (bootstrap), set gasneti_nodes and gasneti_mynode. */
int gasnetc_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  gasnetc_unwritten("gasnetc_init");
}

/* PORTER 2: how big a segment this node, and every node, can attach. */
uintptr_t gasnetc_max_local_segsize(void) { gasnetc_unwritten("gasnetc_max_local_segsize"); }
uintptr_t gasnetc_max_global_segsize(void) { gasnetc_unwritten("gasnetc_max_global_segsize"); }

/* PORTER 3: create this node's segment, exchange addresses, fill
 * gasneti_seginfo[] for every node; collective. */
int gasnetc_attach_segment(uintptr_t segsize) {
  (void)segsize;
  gasnetc_unwritten("gasnetc_attach_segment");
}

/* PORTER 4: which nodes share a host / memory. */
void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  (void)table;
  gasnetc_unwritten("gasnetc_nodeinfo");
}

/* PORTER 5: send a request; the payload buffer is the caller's again on return. */
void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) {
  (void)dest;
  (void)msg;
  gasnetc_unwritten("gasnetc_am_request");
}

/* PORTER 6: send a reply to token->src; while waiting for resources run
 * only gasnetc_am_poll_replies. */
void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  (void)token;
  (void)msg;
  gasnetc_unwritten("gasnetc_am_reply");
}

/* PORTER 7: deliver arrived messages through gasneti_am_deliver. */
int gasnetc_am_poll(void) { gasnetc_unwritten("gasnetc_am_poll"); }
int gasnetc_am_poll_replies(void) { gasnetc_unwritten("gasnetc_am_poll_replies"); }

/* PORTER 8: end the job with this code on every node. */
void gasnetc_exit(int exitcode) {
  (void)exitcode;
  gasnetc_unwritten("gasnetc_exit");
}

/* PORTER 9: processes sharing this host's cores (the wait policy uses it). */
unsigned gasnetc_local_processes(void) { return 1; }

/* template_conduit.c: every function of the conduit contract
 * (src/gasnet_internal.h, "the conduit contract"), each marked PORTER and
 * failing with a clear message until it is written. They come in the order
 * to write them in, numbered as the steps of docs/porting.md ("The order to
 * write things in"), which says what each must do. Split the conduit into
 * files by concern as it grows, and list them in local.mk. */
#include "gasnet_internal.h"

#include <stdlib.h>
#include <unistd.h>

/* An unwritten function fails loudly: the conduit must not pretend to work. */
static void gasnetc_unwritten(const char *function) GASNETI_NORETURN;
static void gasnetc_unwritten(const char *function) {
  fprintf(stderr, "*** FATAL ERROR: template conduit: %s is not written yet "
                  "(see docs/porting.md)\n", function);
  fflush(stderr);
  _exit(1);
}

/* PORTER 1: start the job (bootstrap), set gasneti_nodes and gasneti_mynode.
 * Under the template's launcher, gasneti_bootstrap_open (gasnet_bootstrap.h)
 * reads GASNETRUN_NODE and _NODES and connects the nodes; its allgather
 * then exchanges what they must know of each other (addresses, pids, and
 * in gasnetc_attach_segment the segments). */
int gasnetc_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  gasnetc_unwritten("gasnetc_init");
}

/* PORTER 1: processes sharing this host's cores (the wait policy uses it). */
unsigned gasnetc_local_processes(void) { return 1; }
/* PORTER 1: the CPUs those processes may run on together (the union of
 * their affinity masks: gasneti_cpuset_t). This process's own set is right
 * when every process of the host inherits one mask from the launcher;
 * exchange the sets at start-up when a launcher binds each process apart. */
unsigned gasnetc_local_cpus(void) { return gasneti_cpuset_count_mine(); }

/* PORTER 1: how big a segment this node, and every node, can attach. */
uintptr_t gasnetc_max_local_segsize(void) { gasnetc_unwritten("gasnetc_max_local_segsize"); }
uintptr_t gasnetc_max_global_segsize(void) { gasnetc_unwritten("gasnetc_max_global_segsize"); }

/* PORTER 2: end the job with this code on every node; other nodes learn it
 * when they poll (and at the latest after GASNET_EXITTIMEOUT). Takes no
 * lock a caller may hold: it runs from signal handlers and fatal errors.
 * Call gasneti_node_exiting() first on this and every other exit path (a
 * return from main, another node's exit noticed in a poll), so the signals
 * take their exit-time meaning and the statistics and trace files are
 * written. */
void gasnetc_exit(int exitcode) {
  (void)exitcode;
  gasnetc_unwritten("gasnetc_exit");
}

/* PORTER 3: create this node's segment, exchange addresses, fill
 * gasneti_seginfo[] for every node; collective. (Optional: set
 * gasneti_host_memory, the same on every node, if payloads between nodes
 * of one host in different supernodes go through the host's memory:
 * docs/porting.md.) */
int gasnetc_attach_segment(uintptr_t segsize) {
  (void)segsize;
  gasnetc_unwritten("gasnetc_attach_segment");
}

/* PORTER 3: which nodes share a host / memory. */
void gasnetc_nodeinfo(gasnet_nodeinfo_t *table) {
  (void)table;
  gasnetc_unwritten("gasnetc_nodeinfo");
}

/* PORTER 4: send a request; the payload buffer is the caller's again on
 * return. While waiting for resources, poll (gasnetc_am_poll). */
void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg) {
  (void)dest;
  (void)msg;
  gasnetc_unwritten("gasnetc_am_request");
}

/* PORTER 4: send a reply to token->src; while waiting for resources run
 * only gasnetc_am_poll_replies. */
void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg) {
  (void)token;
  (void)msg;
  gasnetc_unwritten("gasnetc_am_reply");
}

/* PORTER 4: deliver arrived messages through gasneti_am_deliver, a bounded
 * batch per call; notice another node's exit here too. */
int gasnetc_am_poll(void) { gasnetc_unwritten("gasnetc_am_poll"); }
int gasnetc_am_poll_replies(void) { gasnetc_unwritten("gasnetc_am_poll_replies"); }

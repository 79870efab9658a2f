/* gasnet_internal.h: what every conduit shares (gasneti_*), and the contract
 * a conduit fulfils (gasnetc_*). See docs/porting.md for the
 * contract in prose. */
#ifndef GASNET_INTERNAL_H
#define GASNET_INTERNAL_H

/* What configure found on this system (HAVE_SYS_PRCTL_H, ...): first, so
 * every conduit source sees it before any system header. */
#include "gasnet_build_config.h"

#include <gasnet.h>
#include <gasnet_hooks.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETI_THREADS 1
#define GASNETI_THREAD_LOCAL __thread
#else
#define GASNETI_THREAD_LOCAL
#endif

/* ------------------------------------------------------------ counters of the AM path
 * Words that client threads share in PAR builds (credits, fence counts)
 * are read and changed with these. A SEQ build runs one client thread and
 * the library starts none there (the collectives' progress thread exists
 * in PAR builds only), so plain loads and stores do: a locked instruction
 * right after a message's stores into shared memory waits for them to
 * leave the core, which a ping-pong pays on every message. */
#ifdef GASNETI_THREADS
static inline uint32_t gasneti_mt_load(const uint32_t *p) {
  return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
static inline void gasneti_mt_store(uint32_t *p, uint32_t v) {
  __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t gasneti_mt_add(uint32_t *p, uint32_t v) { /* the new value */
  return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}
static inline uint32_t gasneti_mt_exchange(uint32_t *p, uint32_t v) {
  return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
/* Replace *p by desired if it holds *expected; else *expected = *p. */
static inline int gasneti_mt_cas(uint32_t *p, uint32_t *expected, uint32_t desired) {
  return __atomic_compare_exchange_n(p, expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
#else
static inline uint32_t gasneti_mt_load(const uint32_t *p) { return *p; }
static inline void gasneti_mt_store(uint32_t *p, uint32_t v) { *p = v; }
static inline uint32_t gasneti_mt_add(uint32_t *p, uint32_t v) { return *p += v; }
static inline uint32_t gasneti_mt_exchange(uint32_t *p, uint32_t v) {
  uint32_t old = *p;
  *p = v;
  return old;
}
static inline int gasneti_mt_cas(uint32_t *p, uint32_t *expected, uint32_t desired) {
  if (*p != *expected) {
    *expected = *p;
    return 0;
  }
  *p = desired;
  return 1;
}
#endif

/* ------------------------------------------------------------ job state */
extern gasnet_node_t gasneti_mynode;
extern gasnet_node_t gasneti_nodes;
extern int gasneti_init_done;
extern int gasneti_attach_done;
/* Segment of every node, valid after attach. */
extern gasnet_seginfo_t *gasneti_seginfo;
/* Do nbytes at addr lie inside node's segment? */
static inline int gasneti_in_segment(gasnet_node_t node, const void *addr, size_t nbytes) {
  uintptr_t lo = (uintptr_t)gasneti_seginfo[node].addr, a = (uintptr_t)addr;
  uintptr_t size = gasneti_seginfo[node].size;
  return a >= lo && a - lo <= size && nbytes <= size - (a - lo);
}
/* Every node's supernode (gasnetc_nodeinfo), learned in gasnet_attach:
 * who a message reaches through shared memory and who over a network. */
extern gasnet_node_t *gasneti_supernodes;
static inline gasnet_node_t gasneti_supernode_of(gasnet_node_t node) {
  return gasneti_supernodes[node];
}

/* Set by the conduit at attach, the same on every node: what
 * gasneti_host_memory_paths (gasnet_hooks.h) answers. 0 unless set. */
extern int gasneti_host_memory;

/* ------------------------------------------------------------ errors */
/* Report a recoverable error once, where it is detected, and return it:
 *   return gasneti_error(GASNET_ERR_BAD_ARG, "gasnet_attach", "segsize %zu ...", n); */
extern int gasneti_error(int code, const char *call, const char *fmt, ...) GASNETI_PRINTF(3, 4);

/* ------------------------------------------------------------ signals (gasnet_error.c)
 * gasnet_init records the client's dispositions before gasnetc_init and
 * installs the node's handlers after it (so only in nodes, after MPI). */
extern void gasneti_signals_save(void);
extern void gasneti_signals_install(void);
/* Another node's exit or crash ends the job: run the client's SIGQUIT
 * handler, if it has one, as GASNet-1 does. Returns when there is none or
 * when it returns (it may call gasnet_exit instead). */
extern void gasneti_remote_exit_sigquit(void);
/* The node has begun its exit path (conduits call it on every one):
 * SIGQUIT is ignored from now on, SIGINT/SIGTERM/SIGHUP end it by their
 * default action, and the statistics and trace files are written and
 * closed. */
extern void gasneti_node_exiting(void);
/* Set by a conduit: runs in a node that caught a fatal signal, after the
 * message and before the node dies of it (tell the other nodes). */
extern void (*gasneti_fatalsignal_hook)(int sig);
/* Set by a conduit: asked before SIGINT, SIGTERM, SIGHUP or SIGQUIT is
 * acted on; returns 1 if the conduit holds the signal back (the thread is
 * inside code that must not be re-entered) and will raise it again. */
extern int (*gasneti_signal_defer_hook)(int sig);
/* Is the caller the process's initial thread (the one main runs on)? */
extern int gasneti_is_main_thread(void);

/* ------------------------------------------------------------ debugging aids (gasnet_debug.c)
 * gasneti_debug_init reads GASNET_BACKTRACE, _BACKTRACE_TYPE, GASNET_FREEZE
 * and _FREEZE_ON_ERROR in gasnet_init, and freezes there if asked.
 * gasneti_debug_on_fatal runs on a fatal error or signal, after its
 * message: the backtrace (stderr and trace file), then the freeze if asked.
 * gasneti_freeze stops the calling thread until gasnet_frozen is 0 or
 * SIGCONT arrives. */
extern void gasneti_debug_init(void);
extern void gasneti_debug_on_fatal(const char *why);
extern void gasneti_freeze(const char *why);

/* ------------------------------------------------------------ tracing and statistics
 * Open this node's files (in gasnet_init, once the node's number is
 * known) and write and close them (from gasneti_node_exiting). The events
 * themselves go through gasnet_hooks.h. */
#if defined(GASNET_TRACE) || defined(GASNET_STATS)
extern void gasneti_events_init(void);
extern void gasneti_events_finish(void);
#else
static inline void gasneti_events_init(void) {}
static inline void gasneti_events_finish(void) {}
#endif
#if defined(GASNET_TRACE)
extern int gasneti_trace_fd(void);
#else
static inline int gasneti_trace_fd(void) { return -1; }
#endif

/* ------------------------------------------------------------ environment */
/* Read a variable; with GASNET_VERBOSEENV set, node 0 prints each variable
 * the first time it is read, with its value or the default used (the
 * string form, gasneti_getenv_verbose, is in gasnet_hooks.h). */
extern int64_t gasneti_getenv_int(const char *name, int64_t dflt);
/* gasnet_init: before the conduit starts (every layer's reads are noted),
 * and once the node knows its number (node 0 lists what was read). */
extern void gasneti_env_hooks_install(void);
extern void gasneti_env_node_known(void);
/* The job asked for the listing (GASNET_VERBOSEENV set, and not to 0 or
 * no): node 0's reports of what a conduit decided follow it too. */
extern int gasneti_verboseenv_asked(void);
extern uint64_t gasneti_getenv_size(const char *name, uint64_t dflt);
extern double gasneti_getenv_double(const char *name, double dflt);
/* yes/no, 1/0, y/n, true/false, on/off (any case); anything else is fatal. */
extern int gasneti_getenv_yesno(const char *name, int dflt);
/* Parse "123", "64K", "2M", "1G": returns 0 on success. */
extern int gasneti_parse_size(const char *text, uint64_t *value_p);

/* ------------------------------------------------------------ address space (gasnet_segalign.c)
 * Aligned segments: every node's segment at the same virtual address, as
 * GASNet-1 clients take single-address paths when they find it so
 * (docs/user-guide.md, "Starting a job": segments at one address). A
 * conduit reserves a range, agrees with the other nodes on one that all
 * can reserve, and maps its segment there. */
/* GASNET_SEGMENT_ALIGN (default yes): whether to try. */
extern int gasneti_segment_align_wanted(void);
/* Reserve bytes (a page multiple) of address space, inaccessible and
 * holding no memory: anywhere when at is NULL, else exactly at (never
 * replacing a mapping). Returns the range, or NULL when it cannot. */
extern void *gasneti_addr_reserve(void *at, size_t bytes);
extern void gasneti_addr_release(void *addr, size_t bytes);

/* ------------------------------------------------------------ handlers */
extern gasneti_handler_fn_t gasneti_handler_table[256];
extern int gasneti_handler_register_client(gasnet_handlerentry_t *table, int numentries);

/* ------------------------------------------------------------ active messages */
typedef enum {
  GASNETI_AM_SHORT = 0,
  GASNETI_AM_MEDIUM = 1,
  GASNETI_AM_LONG = 2
} gasneti_am_category_t;

/* A message as the front-end hands it to a conduit and a conduit hands it
 * back on delivery. On delivery, payload points at the data: a buffer the
 * conduit owns until the handler returns (Medium) or the segment (Long). */
typedef struct {
  uint8_t category; /* gasneti_am_category_t */
  uint8_t handler;
  uint8_t numargs;
  uint8_t is_request;
  uint8_t anywhere; /* Long: dest_addr may lie outside the segment (gasneti_long_anywhere) */
  uint8_t detach;   /* Long: the send may return before the payload is read (gasneti_long_detaches) */
  size_t nbytes;
  void *payload;
  void *dest_addr; /* Long: where the payload goes in the destination segment */
  gasnet_handlerarg_t args[16];
} gasneti_am_t;

/* The token a handler receives. The conduit fills it before delivery and may
 * keep its own data behind conduit_data. */
struct gasneti_token_s {
  gasnet_node_t src;
  uint8_t is_request;
  uint8_t replied;
  void *conduit_data;
};

/* ------------------------------------------------------------ packing (gasnet_am_coalesce.c)
 * GASNET_AM_COALESCE: small client requests wait in a batch per
 * destination, sent as one Medium to the core handler
 * GASNETI_HANDLER_BUNDLE. gasneti_am_coalescing says whether it is on;
 * take packs a request (1) or declines it (0); flush_to sends dest's batch
 * before a request that is not packed; polled is called by every
 * gasnet_AMPoll, gasneti_am_flush (gasnet_hooks.h) by every wait step. */
#define GASNETI_HANDLER_BUNDLE 1
/* Does a request to this handler carry client requests, which a barrier
 * must fence (a client handler, or a bundle of packed ones)? */
static inline int gasneti_handler_carries_client(gasnet_handler_t handler) {
  return handler >= GASNETI_HANDLER_CLIENT_MIN || handler == GASNETI_HANDLER_BUNDLE;
}
extern int gasneti_am_coalescing;
/* Requests this thread has issued through gasnet_AMRequest* (packed or
 * not) outside the progress hooks: a conduit's pacer (gasnet_pace.h) tells
 * a thread that sends between polls from one that polls while it waits. */
extern GASNETI_THREAD_LOCAL unsigned gasneti_am_requests_issued;
extern void gasneti_am_coalesce_init(void);
extern int gasneti_am_coalesce_take(gasnet_node_t dest, const gasneti_am_t *am);
extern void gasneti_am_coalesce_flush_to(gasnet_node_t dest);
extern void gasneti_am_coalesce_polled(void);

/* Run the handler of a delivered message (called by conduits). */
extern void gasneti_am_deliver(struct gasneti_token_s *token, const gasneti_am_t *msg);
/* Call a handler with the signature its category and arity demand. */
extern void gasneti_am_invoke(gasneti_handler_fn_t fn, gasnet_token_t token,
                              const gasneti_am_t *msg);

/* ------------------------------------------------------------ progress */
/* Run the enabled progress hooks (a single load when none is enabled). */
extern int gasneti_progress_run(void);
/* Wait policy, from GASNET_WAIT_MODE or gasnet_set_waitmode. */
extern int gasneti_wait_mode;
/* local_processes of this job share local_cpus CPUs on this host (0:
 * unknown, then the host's online CPUs count). */
extern void gasneti_wait_init(unsigned local_processes, unsigned local_cpus);
/* The CPUs a process may run on (its affinity mask; every online CPU if
 * that cannot be read), as a fixed-size set a conduit can exchange with
 * the other processes of its host and merge (gasnetc_local_cpus). */
#define GASNETI_CPUSET_MAX 1024
#define GASNETI_CPUSET_WORDS (GASNETI_CPUSET_MAX / 64)
typedef struct {
  uint64_t bits[GASNETI_CPUSET_WORDS];
} gasneti_cpuset_t;
extern void gasneti_cpuset_mine(gasneti_cpuset_t *set);
extern void gasneti_cpuset_merge(gasneti_cpuset_t *into, const gasneti_cpuset_t *from);
extern unsigned gasneti_cpuset_count(const gasneti_cpuset_t *set);
/* The size of this process's own set. */
extern unsigned gasneti_cpuset_count_mine(void);
/* GASNET_POLL_PACE (default yes): whether a network conduit may rest its
 * network between polls of a sending thread (gasnet_pace.h). */
extern int gasneti_pace_enabled;
/* Back off once inside a wait loop that has already polled. */
extern void gasneti_wait_backoff(unsigned *spins);
/* The job is ending: another node has exited. May this node go on toward
 * its own exit (a collective exit where it finishes last: its main thread
 * computes, prints, polls, or waits for things that still complete)? Yes until timeout_s (GASNET_EXITTIMEOUT)
 * after the notice, unless its main thread is stuck: in one blocking wait
 * from the notice (or before) for half a second (a wait on the nodes that
 * left, which may never end). Conduits ask it on every poll that finds
 * the job ending, from any thread; a thread of a node that may not go on
 * ends it (GASNet-1: the client's SIGQUIT handler runs first).
 * *noticed_ns is the conduit's record of the notice, 0 until the first
 * call, which sets it to the time of that call (atomically: any thread). */
extern int gasneti_exit_may_go_on(int64_t *noticed_ns, double timeout_s);
/* Set by gasneti_fatalerror before it ends the node: the job ends in a
 * failure, not in an exit some node chose. Conduits tell the others so,
 * and a node told so does not go on toward an exit of its own: it ends at
 * its next poll, as after a fatal signal or a killed node. */
extern volatile int gasneti_fatal_ending;
/* Attach hooks registered by the layers above. */
extern void gasneti_attach_hooks_run(void);

/* ------------------------------------------------------------ the conduit contract
 * Every conduit implements these; src/ calls nothing else of it. */

/* Start the job: set gasneti_mynode and gasneti_nodes. */
extern int gasnetc_init(int *argc, char ***argv);
extern uintptr_t gasnetc_max_local_segsize(void);
extern uintptr_t gasnetc_max_global_segsize(void);
/* Create or register this node's segment of segsize bytes (page multiple,
 * at most the local maximum) and fill gasneti_seginfo[] for every node. */
extern int gasnetc_attach_segment(uintptr_t segsize);
extern void gasnetc_nodeinfo(gasnet_nodeinfo_t *table);
/* Send; the front-end has validated every argument. May poll while waiting
 * for resources (a reply sender must only run reply handlers meanwhile). */
extern void gasnetc_am_request(gasnet_node_t dest, gasneti_am_t *msg);
extern void gasnetc_am_reply(struct gasneti_token_s *token, gasneti_am_t *msg);
/* Deliver what has arrived; returns the number of messages handled. */
extern int gasnetc_am_poll(void);
/* Poll only for replies (used while a handler waits to send its reply). */
extern int gasnetc_am_poll_replies(void);
/* End this node now with the job exit code, making every node end. */
extern void gasnetc_exit(int exitcode) GASNETI_NORETURN;
/* Processes of this job sharing this host's cores (for the wait policy). */
extern unsigned gasnetc_local_processes(void);
/* CPUs those processes may run on together: the union of their affinity
 * masks (gasneti_cpuset_t; a conduit whose processes are alone on their
 * host, or inherit one mask, counts its own). 0 if unknown. */
extern unsigned gasnetc_local_cpus(void);

#endif

/* gasnet_hooks.h: the named hooks through which the layers above the core
 * (extended-ref and the collectives library) attach to it. Clients do not
 * need this header; layers built on the core include it after gasnet.h. */
#ifndef GASNET_HOOKS_H
#define GASNET_HOOKS_H

#include <gasnet.h>

GASNETI_BEGIN_EXTERNC

/* ------------------------------------------------------------ progress hooks
 * A layer registers a poll function once and enables it while it has work
 * in flight. Enabled functions run from gasnet_AMPoll() and from every step
 * of a blocking wait; when none is enabled the check is one atomic load.
 * Enable/disable calls nest (a counter), so each live operation may enable
 * on start and disable on completion. A poll function returns how much work
 * it did (0 when it only looked) and must never block. */
typedef int (*gasneti_progress_fn_t)(void *arg);
typedef struct gasneti_progress_hook_s gasneti_progress_hook_t;

extern gasneti_progress_hook_t *gasneti_progress_register(const char *name,
                                                          gasneti_progress_fn_t fn, void *arg);
extern void gasneti_progress_enable(gasneti_progress_hook_t *hook);
extern void gasneti_progress_disable(gasneti_progress_hook_t *hook);

/* ------------------------------------------------------------ handler ranges
 * AM handler indices are owned by range: core 1-63, extended 64-127 (the
 * collectives library takes 100-127 of it), clients 128-255. A layer
 * registers its handlers before or during gasnet_attach with explicit
 * indices in its range; a clash is a fatal error. */
#define GASNETI_HANDLER_CORE_MIN 1
#define GASNETI_HANDLER_CORE_MAX 63
#define GASNETI_HANDLER_EXTENDED_MIN 64
#define GASNETI_HANDLER_EXTENDED_MAX 99
#define GASNETI_HANDLER_COLL_MIN 100
#define GASNETI_HANDLER_COLL_MAX 127
#define GASNETI_HANDLER_CLIENT_MIN 128
#define GASNETI_HANDLER_CLIENT_MAX 255

extern void gasneti_handler_register_range(const gasnet_handlerentry_t *table, int numentries,
                                           int min_index, int max_index, const char *owner);

/* ------------------------------------------------------------ attach hooks
 * Called at the end of gasnet_attach, on every node, in registration order
 * (after segments are known, before gasnet_attach returns). Layers linked
 * into the program register from a constructor or from their own init. */
typedef void (*gasneti_attach_hook_fn_t)(void);
extern void gasneti_attach_hook_register(gasneti_attach_hook_fn_t fn);

/* Fatal error from any layer: prints "*** FATAL ERROR (node N): message"
 * and ends the whole job with a non-zero exit code. */
extern void gasneti_fatalerror(const char *fmt, ...) GASNETI_NORETURN GASNETI_PRINTF(1, 2);

/* Is this node between gasnet_barrier_notify and the wait (or successful
 * try) that completes it? Collectives may not be initiated then. */
extern int gasneti_barrier_pending(void);

/* Is the calling thread running an AM handler? Layers use this to reject
 * calls that are illegal inside handlers. */
extern int gasneti_in_handler(void);

/* Send every client request held back for packing (GASNET_AM_COALESCE,
 * docs/user-guide.md). A barrier's notify calls it: the barrier is a fence
 * for active messages. A no-op when nothing is held. */
extern void gasneti_am_flush(void);

/* A layer that runs several threads per process that wait in GASNet (the
 * collectives' images, its progress thread) says how many, so that the
 * default wait mode (GASNET_WAIT_MODE unset) blocks instead of spinning
 * when the job's waiting threads outnumber the cores. */
extern void gasneti_wait_threads_hint(unsigned threads_per_process);

/* ------------------------------------------------------------ cross-memory reads and writes
 * One-copy transfers between processes of the same host. gasneti_xmem_read
 * copies nbytes from remote_src, an address in node's process (any memory,
 * not only its segment), into local_dst in one copy; gasneti_xmem_write
 * copies nbytes from local_src to remote_dst in node's process. Both return
 * 0 on success, -1 when they cannot (node on another host, the kernel
 * refused, a conduit without support): the caller then moves the data
 * another way. A failed transfer may have written part of its destination.
 * gasneti_xmem_available is cheap and says whether a transfer with node may
 * work; its answer is decided at attach and is the same on every node of
 * the job (layers above choose algorithms by it, and every node must choose
 * alike), so a transfer it allows may still fail later (e.g. refused at run
 * time) and the caller must keep a fallback. The shared-memory layer (smp,
 * and mpi and ucx when the job is one supernode) implements them with Linux
 * cross-memory attach (GASNET_SMP_XMEM); conduits without support return
 * -1 and 0. */
extern int gasneti_xmem_read(gasnet_node_t node, void *local_dst, const void *remote_src,
                             size_t nbytes);
extern int gasneti_xmem_write(gasnet_node_t node, void *remote_dst, const void *local_src,
                              size_t nbytes);
extern int gasneti_xmem_available(gasnet_node_t node);

/* ------------------------------------------------------------ Longs to any address
 * gasneti_long_anywhere(node) says whether an AM Long request to node may
 * name a destination anywhere in node's process (malloc'd memory, the
 * stack of a waiting call), not only in its segment: conduits that land a
 * Long's payload by copying or receiving it (GASNETC_LONG_ANYWHERE in
 * their gasnet_core.h: ucx and mpi) allow it for every node outside this node's
 * supernode, where a network carries the message; never inside it. The
 * answer for a pair is the same on both nodes, and every node can tell
 * any pair's from gasnet_getNodeInfo (different supernodes, and the
 * conduit's flag). gasneti_AMRequestLongAnywhereM sends such a request
 * (numargs arguments, as gasnet_AMRequestLongM); to a node that does not
 * allow it, it is a fatal error. The sender must know the address is
 * live when the payload lands (the collectives' put algorithms learn it
 * from the receiver's READY). */
extern int gasneti_long_anywhere(gasnet_node_t node);
extern int gasneti_AMRequestLongAnywhereM(gasnet_node_t dest, gasnet_handler_t handler,
                                          void *source_addr, size_t nbytes, void *dest_addr,
                                          int numargs, ...);

/* ------------------------------------------------------------ Longs that return before their payload is read
 * gasneti_long_detaches(node) says whether a Long request to node sent
 * with gasneti_AMRequestLongDetachedM may return while the conduit still
 * reads its payload: where a rendezvous carries it, the receiver fetches
 * the bytes later and the sender can work meanwhile. Conduits say so with
 * GASNETC_LONG_DETACHES in their gasnet_core.h (ucx); it holds for every
 * node outside this node's supernode, never inside it. Otherwise the call
 * is gasnet_AMRequestLongM (with anywhere, gasneti_AMRequestLongAnywhereM).
 * The source belongs to the conduit until the request's handler has run
 * at node: the caller must learn that from the receiver (a reply from the
 * handler) before it changes or frees the source, or returns it to its own
 * caller. A Long that could not detach (the payload was read at once, or
 * went into a mapped segment) is simply done early. */
extern int gasneti_long_detaches(gasnet_node_t node);
extern int gasneti_AMRequestLongDetachedM(gasnet_node_t dest, gasnet_handler_t handler,
                                          void *source_addr, size_t nbytes, void *dest_addr,
                                          int anywhere, int numargs, ...);

/* ------------------------------------------------------------ a host's memory between supernodes
 * gasneti_host_memory_paths() says whether the conduit moves AM payloads
 * between two nodes of one host that are in different supernodes through
 * that host's memory rather than a network: a Long into the segment as a
 * copy through a mapping of it, and a large payload anywhere else as one
 * copy into place. The ucx conduit says so when UCX reaches every such
 * peer through its shared-memory transports (no supernodes, or smaller
 * ones than the host); a conduit that cannot tell (mpi: MPI picks its own
 * transport) says 0. Decided at attach, the same on every node: the
 * collectives choose algorithms by it (docs/collectives.md, "Puts into
 * buffers outside the segment"). */
extern int gasneti_host_memory_paths(void);

/* ------------------------------------------------------------ settings
 * An environment variable, read as gasnet_getenv reads it, reported by
 * GASNET_VERBOSEENV with dflt_desc when it is unset (what the layer will
 * use instead: "AMDISSEM", "the selector's choice"). */
extern const char *gasneti_getenv_verbose(const char *name, const char *dflt_desc);

/* ------------------------------------------------------------ tracing and statistics
 * Compiled in by configure --enable-trace (GASNET_TRACE) and --enable-stats
 * (GASNET_STATS); without them every call below is a constant 0 or an
 * empty inline function and the library holds no trace or statistics
 * code. Categories are GASNet-1's GASNET_TRACEMASK letters (docs/tools.md,
 * "Tracing and statistics"): A active messages, P puts, G gets, S syncs of
 * put/get, B barriers, W collectives, X syncs of collectives, L locks, I
 * information, C conduit, D message data, N source lines, H client, U
 * unsuppressable.
 *
 * gasneti_trace_on(cat): a line of category cat goes to this node's trace
 * file (one load when compiled in). gasneti_trace_printf writes one line,
 * "NODE THREAD MICROSECONDS CAT text", text formatted as printf does; by
 * convention text is an event name and key=value pairs.
 *
 * gasneti_stats_on(cat): events of category cat are counted.
 * gasneti_stats_add records one event of kind name (qual, when not NULL,
 * tells kinds of one name apart, e.g. a collective's algorithm) with a
 * value (bytes, or nanoseconds for the _TIME unit): count, total, minimum,
 * maximum and a power-of-two histogram, written at exit to
 * GASNET_STATSFILE. name and qual must live as long as the program (string
 * literals, an algorithm's name). */
typedef enum {
  GASNETI_STATS_BYTES = 0, /* value: a size in bytes */
  GASNETI_STATS_TIME = 1,  /* value: nanoseconds */
  GASNETI_STATS_COUNT = 2  /* value: ignored, the event is counted */
} gasneti_stats_unit_t;

#if defined(GASNET_TRACE) || defined(GASNET_STATS)
/* Per category letter: bit 1 traced, bit 2 counted. */
extern unsigned char gasneti_event_cats[256];
#endif

#if defined(GASNET_TRACE)
static inline int gasneti_trace_on(char cat) {
  return gasneti_event_cats[(unsigned char)cat] & 1;
}
/* Is a put or get to this node itself traced (GASNET_TRACELOCAL)? */
extern int gasneti_trace_local(void);
extern void gasneti_trace_printf(char cat, const char *fmt, ...) GASNETI_PRINTF(2, 3);
#else
static inline int gasneti_trace_on(char cat) {
  (void)cat;
  return 0;
}
static inline int gasneti_trace_local(void) { return 0; }
static inline void gasneti_trace_printf(char cat, const char *fmt, ...) {
  (void)cat;
  (void)fmt;
}
#endif

#if defined(GASNET_STATS)
static inline int gasneti_stats_on(char cat) {
  return (gasneti_event_cats[(unsigned char)cat] & 2) != 0;
}
extern void gasneti_stats_add(char cat, const char *name, const char *qual,
                              gasneti_stats_unit_t unit, uint64_t value);
#else
static inline int gasneti_stats_on(char cat) {
  (void)cat;
  return 0;
}
static inline void gasneti_stats_add(char cat, const char *name, const char *qual,
                                     gasneti_stats_unit_t unit, uint64_t value) {
  (void)cat;
  (void)name;
  (void)qual;
  (void)unit;
  (void)value;
}
#endif

/* Either of the two: the test a hot path makes before it builds an event.
 * One load and a branch predicted not taken, so a build with events
 * compiled in but off runs the hot path as the build without them. */
#if defined(GASNET_TRACE) || defined(GASNET_STATS)
static inline int gasneti_event_on(char cat) {
  return __builtin_expect(gasneti_event_cats[(unsigned char)cat] != 0, 0);
}
#else
static inline int gasneti_event_on(char cat) {
  (void)cat;
  return 0;
}
#endif

/* Nanoseconds on a monotonic clock, for event durations. */
extern int64_t gasneti_now_ns(void);

/* Sync calls' events (extended-ref's category S, coll's X), one per call,
 * named after it. gasneti_event_start gives the start time of a wait when
 * cat is on (0 otherwise); gasneti_event_waited records how long it waited
 * (trace: time_us, statistics: nanoseconds); gasneti_event_tried records a
 * try's answer and returns it; gasneti_event_mark counts a call. */
static inline int64_t gasneti_event_start(char cat) {
  return gasneti_event_on(cat) ? gasneti_now_ns() : 0;
}
#if defined(GASNET_TRACE) || defined(GASNET_STATS)
extern void gasneti_event_waited_slow(char cat, const char *call, int64_t start_ns);
extern int gasneti_event_tried_slow(char cat, const char *call, int rc);
extern void gasneti_event_mark_slow(char cat, const char *call);
static inline void gasneti_event_waited(char cat, const char *call, int64_t start_ns) {
  if (start_ns) gasneti_event_waited_slow(cat, call, start_ns);
}
static inline int gasneti_event_tried(char cat, const char *call, int rc) {
  return gasneti_event_on(cat) ? gasneti_event_tried_slow(cat, call, rc) : rc;
}
static inline void gasneti_event_mark(char cat, const char *call) {
  if (gasneti_event_on(cat)) gasneti_event_mark_slow(cat, call);
}
#else
static inline void gasneti_event_waited(char cat, const char *call, int64_t start_ns) {
  (void)cat;
  (void)call;
  (void)start_ns;
}
static inline int gasneti_event_tried(char cat, const char *call, int rc) {
  (void)cat;
  (void)call;
  return rc;
}
static inline void gasneti_event_mark(char cat, const char *call) {
  (void)cat;
  (void)call;
}
#endif

GASNETI_END_EXTERNC

#endif

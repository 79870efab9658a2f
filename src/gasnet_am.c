/* gasnet_am.c: the active message front-end. It turns each public AM call
 * into a gasneti_am_t, checks the arguments (naming the call and the bad
 * value), enforces the handler-context rules, and hands the message to the
 * conduit. */
#include "gasnet_internal.h"

#include <string.h>

/* What kind of handler, if any, the calling thread is running. */
typedef enum {
  GASNETI_CTX_NONE = 0,
  GASNETI_CTX_REQUEST,
  GASNETI_CTX_REPLY
} gasneti_handler_ctx_t;

static GASNETI_THREAD_LOCAL gasneti_handler_ctx_t gasneti_handler_ctx;

int gasneti_in_handler(void) { return gasneti_handler_ctx != GASNETI_CTX_NONE; }

/* ------------------------------------------------------------ events
 * Category A: every request and reply sent (AMREQUEST_SHORT ...) and every
 * handler run (AMHANDLER_REQUEST_SHORT ...); D adds the first bytes of a
 * payload. Names are indexed [is_request][category]. */
static const char *const gasneti_am_sent_names[2][3] = {
    {"AMREPLY_SHORT", "AMREPLY_MEDIUM", "AMREPLY_LONG"},
    {"AMREQUEST_SHORT", "AMREQUEST_MEDIUM", "AMREQUEST_LONG"}};
static const char *const gasneti_am_ran_names[2][3] = {
    {"AMHANDLER_REPLY_SHORT", "AMHANDLER_REPLY_MEDIUM", "AMHANDLER_REPLY_LONG"},
    {"AMHANDLER_REQUEST_SHORT", "AMHANDLER_REQUEST_MEDIUM", "AMHANDLER_REQUEST_LONG"}};

/* " data=HEX" of the first bytes of a payload, or "" without D. */
static void gasneti_am_data(char *out, size_t size, const void *payload, size_t nbytes) {
  out[0] = '\0';
  if (!gasneti_trace_on('D') || !payload || !nbytes) return;
  size_t shown = nbytes < 16 ? nbytes : 16, n = (size_t)snprintf(out, size, " data=");
  for (size_t i = 0; i < shown && n + 3 < size; i++)
    n += (size_t)snprintf(out + n, size - n, "%02x", ((const unsigned char *)payload)[i]);
}

/* Kept out of line and cold: the send and delivery paths pay only the
 * gasneti_event_on test when events are off. */
__attribute__((noinline, cold)) static void gasneti_am_event(const char *const names[2][3], const char *peer_key,
                             gasnet_node_t peer, const gasneti_am_t *am) {
  const char *name = names[am->is_request][am->category];
  /* The library's own messages (handlers below the client's range) are
   * counted apart from the client's. */
  const char *qual = am->handler < GASNETI_HANDLER_CLIENT_MIN ? "library" : NULL;
  if (gasneti_stats_on('A'))
    gasneti_stats_add('A', name, qual, GASNETI_STATS_BYTES, (uint64_t)am->nbytes);
  if (!gasneti_trace_on('A')) return;
  char data[48];
  gasneti_am_data(data, sizeof(data), am->payload, am->nbytes);
  gasneti_trace_printf('A', "%s %s=%u handler=%u args=%u bytes=%zu%s", name, peer_key,
                       (unsigned)peer, (unsigned)am->handler, (unsigned)am->numargs, am->nbytes,
                       data);
}

/* A message from its arguments in an array. The numbered macros in C hand
 * theirs over so: walking a va_list took 85 of the 785 instructions of an
 * 8-byte broadcast's root (8 arguments), a copy of the array a few. */
static inline void gasneti_am_fill(gasneti_am_t *am, gasneti_am_category_t category, int is_request,
                                   gasnet_handler_t handler, void *src, size_t nbytes, void *dst,
                                   int numargs, const gasnet_handlerarg_t *args,
                                   const char *call) {
  if (numargs < 0 || numargs > 16)
    gasneti_fatalerror("%s: numargs %d is outside 0..16", call, numargs);
  am->category = (uint8_t)category;
  am->is_request = (uint8_t)is_request;
  am->handler = handler;
  am->numargs = (uint8_t)numargs;
  am->payload = src;
  am->nbytes = nbytes;
  am->dest_addr = dst;
  am->anywhere = 0;
  am->detach = 0;
  int i = 0;
  for (; i + 4 <= numargs; i += 4) memcpy(&am->args[i], &args[i], 4 * sizeof(gasnet_handlerarg_t));
  for (; i < numargs; i++) am->args[i] = args[i];
}

/* The variable-arity calls (the M forms, and the numbered macros in C++)
 * read their arguments into an array and go on as the array forms. */
static void gasneti_va_args(gasnet_handlerarg_t out[16], int numargs, va_list ap,
                            const char *call) {
  if (numargs < 0 || numargs > 16)
    gasneti_fatalerror("%s: numargs %d is outside 0..16", call, numargs);
  for (int i = 0; i < numargs; i++) out[i] = (gasnet_handlerarg_t)va_arg(ap, int);
}

__attribute__((noinline)) static void gasneti_am_check_payload_all(const gasneti_am_t *am,
                                                                 gasnet_node_t dest,
                                                                 const char *call) {
  if (am->nbytes && !am->payload)
    gasneti_fatalerror("%s: source_addr is NULL with nbytes %zu", call, am->nbytes);
  if (am->category == GASNETI_AM_MEDIUM && am->nbytes > gasnet_AMMaxMedium())
    gasneti_fatalerror("%s: nbytes %zu exceeds gasnet_AMMaxMedium() %zu", call, am->nbytes,
                       gasnet_AMMaxMedium());
  if (am->category != GASNETI_AM_LONG) return;
  size_t max = am->is_request ? gasnet_AMMaxLongRequest() : gasnet_AMMaxLongReply();
  if (am->nbytes > max)
    gasneti_fatalerror("%s: nbytes %zu exceeds the Long limit %zu", call, am->nbytes, max);
  if (am->anywhere) {
    if (am->nbytes && !am->dest_addr)
      gasneti_fatalerror("%s: dest_addr is NULL with nbytes %zu", call, am->nbytes);
    return;
  }
  if (!gasneti_in_segment(dest, am->dest_addr, am->nbytes)) {
    char *lo = gasneti_seginfo[dest].addr;
    gasneti_fatalerror("%s: destination %p + %zu bytes lies outside node %u's segment [%p, %p)",
                       call, am->dest_addr, am->nbytes, (unsigned)dest, (void *)lo,
                       (void *)(lo + gasneti_seginfo[dest].size));
  }
}

/* The checks above, the common case (a Short or Medium whose payload is
 * there and fits) decided inline: small messages are sent by the million. */
static inline void gasneti_am_check_payload(const gasneti_am_t *am, gasnet_node_t dest,
                                            const char *call) {
  if (__builtin_expect(am->category == GASNETI_AM_LONG || am->nbytes > GASNETC_MAX_MEDIUM ||
                           (am->nbytes && !am->payload),
                       0))
    gasneti_am_check_payload_all(am, dest, call);
}

GASNETI_THREAD_LOCAL unsigned gasneti_am_requests_issued;

static int gasneti_am_request(gasnet_node_t dest, gasneti_am_t *am, const char *call) {
  if (!gasneti_attach_done) gasneti_fatalerror("%s: called before gasnet_attach", call);
  if (dest >= gasneti_nodes)
    gasneti_fatalerror("%s: dest %u is not a node (gasnet_nodes() is %u)", call, (unsigned)dest,
                       (unsigned)gasneti_nodes);
  if (gasneti_handler_ctx != GASNETI_CTX_NONE)
    gasneti_fatalerror("%s: AM requests may not be sent from inside an AM handler "
                       "(a request for handler %u to node %u)",
                       call, (unsigned)am->handler, (unsigned)dest);
  gasneti_am_check_payload(am, dest, call);
  if (gasneti_event_on('A')) gasneti_am_event(gasneti_am_sent_names, "dest", dest, am);
  gasneti_am_requests_issued++;
  if (gasneti_am_coalescing) {
    if (gasneti_am_coalesce_take(dest, am)) return GASNET_OK;
    gasneti_am_coalesce_flush_to(dest);
  }
  gasnetc_am_request(dest, am);
  return GASNET_OK;
}

static int gasneti_am_reply(gasnet_token_t token, gasneti_am_t *am, const char *call) {
  if (!token) gasneti_fatalerror("%s: token is NULL", call);
  if (!token->is_request || gasneti_handler_ctx != GASNETI_CTX_REQUEST)
    gasneti_fatalerror("%s: replies may be sent only from inside a request handler", call);
  if (token->replied)
    gasneti_fatalerror("%s: a request handler may reply at most once (to node %u)", call,
                       (unsigned)token->src);
  gasneti_am_check_payload(am, token->src, call);
  token->replied = 1;
  if (gasneti_event_on('A')) gasneti_am_event(gasneti_am_sent_names, "dest", token->src, am);
  gasnetc_am_reply(token, am);
  return GASNET_OK;
}

/* A Long request; anywhere: its destination may lie outside the segment
 * (gasneti_long_anywhere); detach: the conduit may return before it has
 * read the payload (gasneti_long_detaches). */
enum { GASNETI_LONG_ANYWHERE = 1, GASNETI_LONG_DETACH = 2 };

/* Every request and reply call ends in one of these two. how: the
 * GASNETI_LONG_ flags of a Long request. */
static int gasneti_am_request_array(gasnet_node_t dest, gasneti_am_category_t category,
                                    gasnet_handler_t handler, void *src, size_t nbytes, void *dst,
                                    unsigned how, int numargs, const gasnet_handlerarg_t *args,
                                    const char *call) {
  gasneti_am_t am;
  gasneti_am_fill(&am, category, 1, handler, src, nbytes, dst, numargs, args, call);
  am.anywhere = (how & GASNETI_LONG_ANYWHERE) != 0;
  am.detach = (how & GASNETI_LONG_DETACH) != 0;
  return gasneti_am_request(dest, &am, call);
}

static int gasneti_am_reply_array(gasnet_token_t token, gasneti_am_category_t category,
                                  gasnet_handler_t handler, void *src, size_t nbytes, void *dst,
                                  int numargs, const gasnet_handlerarg_t *args, const char *call) {
  gasneti_am_t am;
  gasneti_am_fill(&am, category, 0, handler, src, nbytes, dst, numargs, args, call);
  return gasneti_am_reply(token, &am, call);
}

/* ------------------------------------------------------------ the array forms
 * What the numbered macros call in C (gasnet_am_arity.h). */
int gasneti_AMRequestShortA(gasnet_node_t dest, gasnet_handler_t handler, int numargs,
                            const gasnet_handlerarg_t *args) {
  return gasneti_am_request_array(dest, GASNETI_AM_SHORT, handler, NULL, 0, NULL, 0, numargs, args,
                                  "gasnet_AMRequestShort");
}

int gasneti_AMRequestMediumA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                             size_t nbytes, int numargs, const gasnet_handlerarg_t *args) {
  return gasneti_am_request_array(dest, GASNETI_AM_MEDIUM, handler, source_addr, nbytes, NULL, 0,
                                  numargs, args, "gasnet_AMRequestMedium");
}

int gasneti_AMRequestLongA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, void *dest_addr, int numargs,
                           const gasnet_handlerarg_t *args) {
  return gasneti_am_request_array(dest, GASNETI_AM_LONG, handler, source_addr, nbytes, dest_addr,
                                  0, numargs, args, "gasnet_AMRequestLong");
}

/* Every conduit here has finished reading the source buffer when the send
 * call returns, so the asynchronous form is the synchronous one. */
int gasneti_AMRequestLongAsyncA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                size_t nbytes, void *dest_addr, int numargs,
                                const gasnet_handlerarg_t *args) {
  return gasneti_am_request_array(dest, GASNETI_AM_LONG, handler, source_addr, nbytes, dest_addr,
                                  0, numargs, args, "gasnet_AMRequestLongAsync");
}

int gasneti_AMReplyShortA(gasnet_token_t token, gasnet_handler_t handler, int numargs,
                          const gasnet_handlerarg_t *args) {
  return gasneti_am_reply_array(token, GASNETI_AM_SHORT, handler, NULL, 0, NULL, numargs, args,
                                "gasnet_AMReplyShort");
}

int gasneti_AMReplyMediumA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, int numargs, const gasnet_handlerarg_t *args) {
  return gasneti_am_reply_array(token, GASNETI_AM_MEDIUM, handler, source_addr, nbytes, NULL,
                                numargs, args, "gasnet_AMReplyMedium");
}

int gasneti_AMReplyLongA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                         size_t nbytes, void *dest_addr, int numargs,
                         const gasnet_handlerarg_t *args) {
  return gasneti_am_reply_array(token, GASNETI_AM_LONG, handler, source_addr, nbytes, dest_addr,
                                numargs, args, "gasnet_AMReplyLong");
}

/* ------------------------------------------------------------ the variable-arity forms
 * Each reads its arguments and calls its array form. */
int gasneti_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMRequestShort");
  va_end(ap);
  return gasneti_AMRequestShortA(dest, handler, numargs, args);
}

int gasneti_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                             size_t nbytes, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMRequestMedium");
  va_end(ap);
  return gasneti_AMRequestMediumA(dest, handler, source_addr, nbytes, numargs, args);
}

int gasneti_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, void *dest_addr, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMRequestLong");
  va_end(ap);
  return gasneti_AMRequestLongA(dest, handler, source_addr, nbytes, dest_addr, numargs, args);
}

int gasneti_AMRequestLongAsyncM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                size_t nbytes, void *dest_addr, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMRequestLongAsync");
  va_end(ap);
  return gasneti_AMRequestLongAsyncA(dest, handler, source_addr, nbytes, dest_addr, numargs, args);
}

int gasneti_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMReplyShort");
  va_end(ap);
  return gasneti_AMReplyShortA(token, handler, numargs, args);
}

int gasneti_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMReplyMedium");
  va_end(ap);
  return gasneti_AMReplyMediumA(token, handler, source_addr, nbytes, numargs, args);
}

int gasneti_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                         size_t nbytes, void *dest_addr, int numargs, ...) {
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, "gasnet_AMReplyLong");
  va_end(ap);
  return gasneti_AMReplyLongA(token, handler, source_addr, nbytes, dest_addr, numargs, args);
}

/* ------------------------------------------------------------ Longs to any address
 * Conduits that deliver a Long's payload by copying or receiving it into
 * place (not by writing a mapped segment) can take any destination in a
 * node of another supernode; they say so with GASNETC_LONG_ANYWHERE. */
#ifndef GASNETC_LONG_ANYWHERE
#define GASNETC_LONG_ANYWHERE 0
#endif

/* Is node a valid node outside this node's supernode? */
static int gasneti_beyond_supernode(gasnet_node_t node) {
  return node < gasneti_nodes && gasneti_supernode_of(node) != gasneti_supernode_of(gasneti_mynode);
}

int gasneti_long_anywhere(gasnet_node_t node) {
  return GASNETC_LONG_ANYWHERE && gasneti_beyond_supernode(node);
}

int gasneti_host_memory;
int gasneti_host_memory_paths(void) { return gasneti_host_memory; }

static void gasneti_check_anywhere(gasnet_node_t dest, const char *call) {
  if (dest < gasneti_nodes && !gasneti_long_anywhere(dest))
    gasneti_fatalerror("%s: node %u takes Longs only into its segment (the %s conduit, "
                       "gasneti_long_anywhere)",
                       call, (unsigned)dest, GASNET_CONDUIT_NAME_STR);
}

int gasneti_AMRequestLongAnywhereM(gasnet_node_t dest, gasnet_handler_t handler,
                                   void *source_addr, size_t nbytes, void *dest_addr,
                                   int numargs, ...) {
  static const char call[] = "gasneti_AMRequestLongAnywhere";
  gasneti_check_anywhere(dest, call);
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, call);
  va_end(ap);
  return gasneti_am_request_array(dest, GASNETI_AM_LONG, handler, source_addr, nbytes, dest_addr,
                                  GASNETI_LONG_ANYWHERE, numargs, args, call);
}

/* ------------------------------------------------------------ Longs that return early
 * Conduits whose Long may still be reading its payload when the send
 * returns (a rendezvous the receiver completes) say so with
 * GASNETC_LONG_DETACHES; only between supernodes, where a network (or
 * the library underneath) carries the message. */
#ifndef GASNETC_LONG_DETACHES
#define GASNETC_LONG_DETACHES 0
#endif

int gasneti_long_detaches(gasnet_node_t node) {
  return GASNETC_LONG_DETACHES && gasneti_beyond_supernode(node);
}

int gasneti_AMRequestLongDetachedM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                   size_t nbytes, void *dest_addr, int anywhere, int numargs,
                                   ...) {
  static const char call[] = "gasneti_AMRequestLongDetached";
  if (anywhere) gasneti_check_anywhere(dest, call);
  unsigned how = (anywhere ? GASNETI_LONG_ANYWHERE : 0u) |
                 (gasneti_long_detaches(dest) ? GASNETI_LONG_DETACH : 0u);
  gasnet_handlerarg_t args[16];
  va_list ap;
  va_start(ap, numargs);
  gasneti_va_args(args, numargs, ap, call);
  va_end(ap);
  return gasneti_am_request_array(dest, GASNETI_AM_LONG, handler, source_addr, nbytes, dest_addr,
                                  how, numargs, args, call);
}

/* The limits a conduit sets in its gasnet_core.h (docs/porting.md,
 * "Messages"): GASNet-1 asks at least 512 bytes of each; a Long limit may
 * be equal to or below the Medium one, no layer here needs it larger. */
_Static_assert(GASNETC_MAX_MEDIUM >= 512,
               "gasnet_core.h: GASNETC_MAX_MEDIUM must be at least 512 bytes");
_Static_assert(GASNETC_MAX_LONG_REQUEST >= 512 && GASNETC_MAX_LONG_REPLY >= 512,
               "gasnet_core.h: GASNETC_MAX_LONG_REQUEST and _REPLY must be at least 512 bytes");

size_t gasnet_AMMaxMedium(void) { return GASNETC_MAX_MEDIUM; }
size_t gasnet_AMMaxLongRequest(void) { return GASNETC_MAX_LONG_REQUEST; }
size_t gasnet_AMMaxLongReply(void) { return GASNETC_MAX_LONG_REPLY; }

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex) {
  if (!token || !srcindex)
    return gasneti_error(GASNET_ERR_BAD_ARG, "gasnet_AMGetMsgSource", "token %p srcindex %p",
                         (void *)token, (void *)srcindex);
  *srcindex = token->src;
  return GASNET_OK;
}

/* A message for an index no handler was registered at: the call that
 * sent it (e.g. gasnet_AMRequestShort2), its sender and the index. */
__attribute__((noreturn, cold, noinline)) static void
gasneti_am_unregistered(const struct gasneti_token_s *token, const gasneti_am_t *msg) {
  static const char *const kind[3] = {"Short", "Medium", "Long"};
  gasneti_fatalerror("gasnet_AM%s%s%u from node %u: AM handler index %u is not registered",
                     msg->is_request ? "Request" : "Reply", kind[msg->category % 3],
                     (unsigned)msg->numargs, (unsigned)token->src, (unsigned)msg->handler);
}

void gasneti_am_deliver(struct gasneti_token_s *token, const gasneti_am_t *msg) {
  gasneti_handler_fn_t fn = gasneti_handler_table[msg->handler];
  if (!fn) gasneti_am_unregistered(token, msg);
  if (gasneti_event_on('A')) gasneti_am_event(gasneti_am_ran_names, "src", token->src, msg);
  gasneti_handler_ctx_t saved = gasneti_handler_ctx;
  gasneti_handler_ctx = msg->is_request ? GASNETI_CTX_REQUEST : GASNETI_CTX_REPLY;
  gasneti_am_invoke(fn, token, msg);
  gasneti_handler_ctx = saved;
}

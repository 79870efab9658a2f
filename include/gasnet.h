/* gasnet.h: the GASNet-1 (spec 1.8) core and extended API.
 *
 * Clients define exactly one of GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR
 * before including this header (GASNET_SEQ when none is given) and link the
 * conduit library built for that mode; a mismatch fails at link time. */
#ifndef GASNET_H
#define GASNET_H

#include <pthread.h>

#include <gasnet_config.h>
/* The basic macros (_STRINGIFY, if_pf, PLATFORM_*) and the system headers
 * GASNet-1 clients expect gasnet.h to bring in. */
#include <gasnet_basic.h>

/* ------------------------------------------------------------ thread mode */
#if (defined(GASNET_SEQ) + defined(GASNET_PARSYNC) + defined(GASNET_PAR)) > 1
#error "define at most one of GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR"
#endif
#if !defined(GASNET_SEQ) && !defined(GASNET_PARSYNC) && !defined(GASNET_PAR)
#define GASNET_SEQ 1
#endif
#if defined(GASNET_PAR)
#define GASNETI_THREADMODE_STR "PAR"
#define GASNETI_LINKCHECK_SYM gasneti_linkcheck_threadmode_PAR
#elif defined(GASNET_PARSYNC)
#define GASNETI_THREADMODE_STR "PARSYNC"
#define GASNETI_LINKCHECK_SYM gasneti_linkcheck_threadmode_PARSYNC
#else
#define GASNETI_THREADMODE_STR "SEQ"
#define GASNETI_LINKCHECK_SYM gasneti_linkcheck_threadmode_SEQ
#endif

#if defined(GASNET_DEBUG) && defined(GASNET_NDEBUG)
#error "GASNET_DEBUG and GASNET_NDEBUG are both defined"
#endif

/* ------------------------------------------------------------ versions */
#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8

#ifdef __cplusplus
#define GASNETI_BEGIN_EXTERNC extern "C" {
#define GASNETI_END_EXTERNC }
#else
#define GASNETI_BEGIN_EXTERNC
#define GASNETI_END_EXTERNC
#endif

#if defined(__GNUC__)
#define GASNETI_NORETURN __attribute__((__noreturn__))
#define GASNETI_PRINTF(fmt, first) __attribute__((__format__(__printf__, fmt, first)))
#else
#define GASNETI_NORETURN
#define GASNETI_PRINTF(fmt, first)
#endif

/* ------------------------------------------------------------ types */
typedef uint32_t gasnet_node_t;
typedef uint8_t gasnet_handler_t;
typedef int32_t gasnet_handlerarg_t;
typedef uintptr_t gasnet_register_value_t;
typedef uint32_t gasnet_image_t;

struct gasneti_token_s;
typedef struct gasneti_token_s *gasnet_token_t;

typedef struct {
  void *addr;
  uintptr_t size;
} gasnet_seginfo_t;

typedef struct {
  gasnet_node_t host;      /* nodes with equal host share a machine */
  gasnet_node_t supernode; /* nodes with equal supernode share memory */
  intptr_t offset;         /* add to a peer's segment address to reach it locally */
} gasnet_nodeinfo_t;

typedef void (*gasneti_handler_fn_t)();
typedef struct {
  gasnet_handler_t index; /* 0: let gasnet_attach choose one and write it back */
  gasneti_handler_fn_t fnptr;
} gasnet_handlerentry_t;

/* Thread info: kept for source compatibility; this implementation finds
 * its per-thread state itself, so the macros carry nothing. */
typedef void *gasnet_threadinfo_t;
#define GASNET_BEGIN_FUNCTION() ((void)0)
#define GASNET_GET_THREADINFO() ((gasnet_threadinfo_t)0)
#define GASNET_POST_THREADINFO(info) ((void)(info))

/* The hidden thread-info argument of GASNet-1's internal (gasnete_)
 * functions, which some clients call directly, as GASNet-1's
 * gasnet_extended_help.h spells it: in PAR and PARSYNC a function declared
 * with GASNETE_THREAD_FARG takes one more argument, which callers supply
 * with GASNETE_THREAD_GET (or GASNETE_THREAD_PASS inside such a function);
 * in SEQ every one of these is empty. The value carried is always
 * GASNET_GET_THREADINFO()'s, which nothing reads. */
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETE_THREAD_FARG_ALONE gasnet_threadinfo_t const _threadinfo
#define GASNETE_THREAD_FARG , GASNETE_THREAD_FARG_ALONE
#define GASNETE_THREAD_GET_ALONE GASNET_GET_THREADINFO()
#define GASNETE_THREAD_GET , GASNETE_THREAD_GET_ALONE
#define GASNETE_THREAD_PASS_ALONE (_threadinfo)
#define GASNETE_THREAD_PASS , GASNETE_THREAD_PASS_ALONE
#define GASNETE_THREAD_LOOKUP GASNETE_THREAD_FARG_ALONE = GASNETE_THREAD_GET_ALONE;
#else
#define GASNETE_THREAD_FARG_ALONE void
#define GASNETE_THREAD_FARG
#define GASNETE_THREAD_GET_ALONE
#define GASNETE_THREAD_GET
#define GASNETE_THREAD_PASS_ALONE
#define GASNETE_THREAD_PASS
#define GASNETE_THREAD_LOOKUP
#endif
#define GASNETE_THREAD_SWALLOW(x)

/* ------------------------------------------------------------ error codes */
#define GASNET_OK 0
#define GASNET_ERR_RAW_BASE 10000
#define GASNET_ERR_NOT_INIT (GASNET_ERR_RAW_BASE + 1)
#define GASNET_ERR_RESOURCE (GASNET_ERR_RAW_BASE + 2)
#define GASNET_ERR_BAD_ARG (GASNET_ERR_RAW_BASE + 3)
#define GASNET_ERR_NOT_READY (GASNET_ERR_RAW_BASE + 4)
#define GASNET_ERR_BARRIER_MISMATCH (GASNET_ERR_RAW_BASE + 5)

/* ------------------------------------------------------------ wait modes */
#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2

/* ------------------------------------------------------------ segment mode */
#if (defined(GASNET_SEGMENT_FAST) + defined(GASNET_SEGMENT_LARGE) + \
     defined(GASNET_SEGMENT_EVERYTHING)) != 1
#error "gasnet_config.h must define exactly one GASNET_SEGMENT_* mode"
#endif

#define GASNET_PAGESIZE 4096
/* The alignment the computation collectives enforce on their buffers (a
 * buffer of elements must be aligned to the element's own alignment, capped
 * at this): 8 unless configured otherwise (--with-data-alignment). Addresses
 * the library hands out (segments, Medium payloads) are 16-byte aligned. */
#define GASNET_DATA_ALIGNMENT GASNETI_CONFIG_DATA_ALIGNMENT

/* The conduit's own definitions (name, limits, PSHM, aligned segments).
 * Libraries built once for every conduit (the collectives) define
 * GASNETI_CONDUIT_NEUTRAL and see only what all conduits share. */
#ifndef GASNETI_CONDUIT_NEUTRAL
#include <gasnet_core.h>
#ifndef GASNET_CONFIG_STRING
#define GASNET_CONFIG_STRING \
  GASNETI_BUILD_CONFIG_STRING ",CONDUIT=" GASNET_CONDUIT_NAME_STR ",THREADMODE=" GASNETI_THREADMODE_STR
#endif
#endif

GASNETI_BEGIN_EXTERNC

/* ------------------------------------------------------------ start-up */
extern int GASNETI_LINKCHECK_SYM;
extern int gasneti_init(int *argc, char ***argv, int *linkcheck, int *conduit_linkcheck);
#ifndef GASNETI_CONDUIT_NEUTRAL
/* Named after the conduit whose gasnet_core.h the client was compiled with;
 * only that conduit's library defines it. */
#define GASNETI_CONDUIT_LINKCHECK_SYM _CONCAT(gasneti_linkcheck_conduit_, GASNET_CONDUIT_NAME)
extern int GASNETI_CONDUIT_LINKCHECK_SYM;
/* The references to the thread-mode and conduit symbols make a client built
 * for one mode or conduit fail to link against a library built for
 * another (tests/conformance.sh relies on it). */
static inline int gasnet_init(int *argc, char ***argv) {
  return gasneti_init(argc, argv, &GASNETI_LINKCHECK_SYM, &GASNETI_CONDUIT_LINKCHECK_SYM);
}
#endif
extern int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize,
                         uintptr_t minheapoffset);
extern void gasnet_exit(int exitcode) GASNETI_NORETURN;

extern gasnet_node_t gasnet_mynode(void);
extern gasnet_node_t gasnet_nodes(void);
extern int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries);
extern int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries);
extern uintptr_t gasnet_getMaxLocalSegmentSize(void);
extern uintptr_t gasnet_getMaxGlobalSegmentSize(void);
extern char *gasnet_getenv(const char *name);

extern const char *gasnet_ErrorName(int errval);
extern const char *gasnet_ErrorDesc(int errval);
extern int gasnet_set_waitmode(int wait_mode);

/* ------------------------------------------------------------ active messages */
/* Functions rather than constants, so layers built once for every conduit
 * ask the conduit they are linked with. */
static inline size_t gasnet_AMMaxArgs(void) { return 16; }
extern size_t gasnet_AMMaxMedium(void);
extern size_t gasnet_AMMaxLongRequest(void);
extern size_t gasnet_AMMaxLongReply(void);

extern int gasnet_AMPoll(void);
extern int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex);

/* Variable-arity entry points; numargs is 0..16, the args are gasnet_handlerarg_t. */
extern int gasneti_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...);
extern int gasneti_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                    size_t nbytes, int numargs, ...);
extern int gasneti_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                  size_t nbytes, void *dest_addr, int numargs, ...);
extern int gasneti_AMRequestLongAsyncM(gasnet_node_t dest, gasnet_handler_t handler,
                                       void *source_addr, size_t nbytes, void *dest_addr,
                                       int numargs, ...);
extern int gasneti_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...);
extern int gasneti_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler,
                                  void *source_addr, size_t nbytes, int numargs, ...);
extern int gasneti_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                                size_t nbytes, void *dest_addr, int numargs, ...);

/* The same calls with the arguments in an array of numargs (none: NULL);
 * what the numbered macros use in C (gasnet_am_arity.h). */
extern int gasneti_AMRequestShortA(gasnet_node_t dest, gasnet_handler_t handler, int numargs,
                                   const gasnet_handlerarg_t *args);
extern int gasneti_AMRequestMediumA(gasnet_node_t dest, gasnet_handler_t handler,
                                    void *source_addr, size_t nbytes, int numargs,
                                    const gasnet_handlerarg_t *args);
extern int gasneti_AMRequestLongA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                  size_t nbytes, void *dest_addr, int numargs,
                                  const gasnet_handlerarg_t *args);
extern int gasneti_AMRequestLongAsyncA(gasnet_node_t dest, gasnet_handler_t handler,
                                       void *source_addr, size_t nbytes, void *dest_addr,
                                       int numargs, const gasnet_handlerarg_t *args);
extern int gasneti_AMReplyShortA(gasnet_token_t token, gasnet_handler_t handler, int numargs,
                                 const gasnet_handlerarg_t *args);
extern int gasneti_AMReplyMediumA(gasnet_token_t token, gasnet_handler_t handler,
                                  void *source_addr, size_t nbytes, int numargs,
                                  const gasnet_handlerarg_t *args);
extern int gasneti_AMReplyLongA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                                size_t nbytes, void *dest_addr, int numargs,
                                const gasnet_handlerarg_t *args);

#define gasnet_AMRequestShortM gasneti_AMRequestShortM
#define gasnet_AMRequestMediumM gasneti_AMRequestMediumM
#define gasnet_AMRequestLongM gasneti_AMRequestLongM
#define gasnet_AMRequestLongAsyncM gasneti_AMRequestLongAsyncM
#define gasnet_AMReplyShortM gasneti_AMReplyShortM
#define gasnet_AMReplyMediumM gasneti_AMReplyMediumM
#define gasnet_AMReplyLongM gasneti_AMReplyLongM

/* ------------------------------------------------------------ waiting */
/* One step of a blocking wait: poll the network, run the progress hooks,
 * then spin, yield or sleep as the wait mode and the core count advise.
 * *spins counts the steps of this wait so the back-off can grow. */
extern void gasneti_wait_step(unsigned *spins);

#define GASNET_BLOCKUNTIL(cond)                          \
  do {                                                   \
    unsigned gasneti_blockuntil_spins_ = 0;              \
    while (!(cond)) gasneti_wait_step(&gasneti_blockuntil_spins_); \
  } while (0)

/* ------------------------------------------------------------ handler-safe locks */
typedef struct {
  pthread_mutex_t mutex;
} gasnet_hsl_t;
#define GASNET_HSL_INITIALIZER {PTHREAD_MUTEX_INITIALIZER}

extern void gasnet_hsl_init(gasnet_hsl_t *hsl);
extern void gasnet_hsl_destroy(gasnet_hsl_t *hsl);
extern void gasnet_hsl_lock(gasnet_hsl_t *hsl);
extern void gasnet_hsl_unlock(gasnet_hsl_t *hsl);
extern int gasnet_hsl_trylock(gasnet_hsl_t *hsl);

/* No conduit here delivers messages asynchronously (by signal or thread),
 * so there is nothing to hold off: these exist for source compatibility. */
static inline void gasnet_hold_interrupts(void) {}
static inline void gasnet_resume_interrupts(void) {}

GASNETI_END_EXTERNC

#include <gasnet_am_arity.h>
#include <gasnet_extended.h>
/* GASNet-1 clients include gasnet.h only and expect the collectives with it. */
#include <gasnet_coll.h>

#endif /* GASNET_H */

/* gasnet_tools.h: the portable tools of GASNet-1 (timers, atomics, memory
 * barriers, locks, thread keys, environment helpers, system queries,
 * backtraces, checksums and the client trace macros).
 *
 * Usable on its own: a client that includes only this header links with
 * -lgasnet_tools-par (threaded) or -lgasnet_tools-seq. A GASNet client may
 * include it before or after gasnet.h and links the conduit library, which
 * contains the tools. The thread mode comes from GASNETT_THREAD_SAFE /
 * GASNETT_THREAD_SINGLE, else from GASNET_PAR / PARSYNC / SEQ, else
 * thread-safe (see gasnet_tools_basic.h). docs/tools.md is the reference. */
#ifndef GASNET_TOOLS_H
#define GASNET_TOOLS_H

#include "gasnet_tools_basic.h"
#include "gasnet_tools_atomic.h"
#include "gasnet_tools_timer.h"
#include "gasnet_tools_thread.h"
#include "gasnet_tools_trace.h"

GASNETT_BEGIN_EXTERNC

/* ------------------------------------------------------------ environment */
/* Value of an environment variable, or NULL. */
extern char *gasnett_getenv(const char *keyname);
extern void gasnett_setenv(const char *key, const char *value);
extern void gasnett_unsetenv(const char *key);

/* Nonzero when GASNET_VERBOSEENV asks for every setting read through the
 * _withdefault calls to be reported on stderr. */
extern int gasnett_verboseenv(void);

/* Parses a decimal or 0x-hex integer. When mem_size_multiplier is nonzero
 * the value is a memory size: it may be fractional and may end in a K, M,
 * G or T (power-of-two) or B suffix, and a bare number is multiplied by
 * mem_size_multiplier. A malformed string is a fatal error. */
extern int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier);

/* Integer setting: defaultval when unset or empty, else parsed as above. */
extern int64_t gasnett_getenv_int_withdefault(const char *keyname, int64_t defaultval,
                                              uint64_t mem_size_multiplier);

/* Boolean setting: Y/YES/1 give 1, N/NO/0 give 0 (any case, first letter
 * decides), unset or empty gives defaultval, anything else is fatal. */
extern int gasnett_getenv_yesno_withdefault(const char *keyname, int defaultval);

/* ------------------------------------------------------------ system */
/* Online processors, or 0 when the system cannot say. */
extern int gasnett_cpu_count(void);
/* This host's name (a static string, valid for the life of the process). */
extern const char *gasnett_gethostname(void);
extern int gasnett_sched_yield(void);

/* Prints "*** FATAL ERROR: <message>" on stderr (with a backtrace when
 * GASNET_BACKTRACE is set) and aborts. */
extern void gasnett_fatalerror(const char *msg, ...) GASNETT_NORETURN GASNETTI_PRINTF_ATTR(1, 2);
/* Ends the whole process, every thread of it, at once with exitcode; no
 * atexit handlers, no stdio flush. */
extern void gasnett_killmyprocess(int exitcode) GASNETT_NORETURN;

/* Installs handler for sigtocatch (SIG_DFL and SIG_IGN allowed) and
 * returns the one it replaces. */
typedef void (*gasnett_sighandlerfn_t)(int);
extern gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp);

/* Lines describing configuration choices that cost performance (e.g. a
 * debug build), or "" when there are none. */
extern const char *gasnett_performance_warning_str(void);

/* Flushes stdout and stderr. */
extern void gasnett_flush_streams(void);

/* ------------------------------------------------------------ backtraces */
/* A backtrace mechanism: fnp writes the calling thread's stack to fd and
 * returns 0 on success. threadsupport says whether it works in threaded
 * processes. A client installs its own by filling gasnett_backtrace_user
 * (or defining the variable itself) before gasnett_backtrace_init. */
typedef struct {
  const char *name;
  int (*fnp)(int fd);
  int threadsupport;
} gasnett_backtrace_type_t;
extern gasnett_backtrace_type_t gasnett_backtrace_user;

/* Records the executable's name and readies the mechanisms (loading now
 * what a signal handler could not load later). Returns 1. */
extern int gasnett_backtrace_init(const char *exename);
/* Writes a backtrace of the calling thread to fd: the user mechanism first,
 * then the C library's. Returns 0 on success. */
extern int gasnett_print_backtrace(int fd);
/* Same, but only when GASNET_BACKTRACE is set to yes. */
extern int gasnett_print_backtrace_ifenabled(int fd);

/* ------------------------------------------------------------ memory */
/* Order-sensitive 64-bit checksum of numbytes bytes, for comparing data. */
extern uint64_t gasnett_checksum(const void *p, int numbytes);

/* Number of zero bytes in a region; the _copy form also copies it. */
extern size_t gasnett_count0s(const void *src, size_t bytes);
extern size_t gasnett_count0s_copy(void *dst, const void *src, size_t bytes);

/* Number of zero bytes in one word. Folding each byte's bits onto its low
 * bit leaves a 1 per nonzero byte; the multiply sums those into the top
 * byte. */
GASNETTI_INLINE int gasnett_count0s_uint32_t(uint32_t x) {
  x |= x >> 4;
  x |= x >> 2;
  x |= x >> 1;
  x &= UINT32_C(0x01010101);
  return 4 - (int)((x * UINT32_C(0x01010101)) >> 24);
}
GASNETTI_INLINE int gasnett_count0s_uint64_t(uint64_t x) {
  x |= x >> 4;
  x |= x >> 2;
  x |= x >> 1;
  x &= UINT64_C(0x0101010101010101);
  return 8 - (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

GASNETT_END_EXTERNC

#endif /* GASNET_TOOLS_H */

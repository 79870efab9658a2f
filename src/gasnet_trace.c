/* gasnet_trace.c: the trace file (configure --enable-trace).
 *
 * GASNET_TRACEFILE names each node's file; without it nothing is written
 * and each trace point costs one load. A line is
 *   NODE THREAD MICROSECONDS CAT TEXT [@FILE:LINE]
 * MICROSECONDS since this node's gasnet_init, THREAD 0 for the main thread
 * and 1, 2, ... for others in the order they first trace, CAT the
 * category letter, TEXT an event name and key=value pairs (or a client's
 * free text), FILE:LINE the client's last GASNETT_TRACE_SETSOURCELINE when
 * category N is on. Lines are written whole under a lock, so threads do not
 * interleave within a line. */
#include "gasnet_events.h"

#include <stdarg.h>
#include <string.h>

#define GASNETI_TRACE_LINE_MAX 2048

static FILE *gasneti_trace_file;
static int gasneti_trace_flush;        /* GASNET_TRACEFLUSH: flush every line */
static int gasneti_trace_local_on = 1; /* GASNET_TRACELOCAL */
static int64_t gasneti_trace_t0;
static int gasneti_trace_closed;
static unsigned gasneti_trace_next_thread;
#if defined(GASNETI_THREADS)
static pthread_mutex_t gasneti_trace_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

static GASNETI_THREAD_LOCAL int gasneti_trace_thread_id = -1;
static GASNETI_THREAD_LOCAL const char *gasneti_trace_src_file;
static GASNETI_THREAD_LOCAL unsigned gasneti_trace_src_line;
static GASNETI_THREAD_LOCAL int gasneti_trace_src_frozen;

static unsigned gasneti_trace_thread(void) {
  if (gasneti_trace_thread_id < 0)
    gasneti_trace_thread_id =
        gasneti_is_main_thread()
            ? 0
            : (int)__atomic_add_fetch(&gasneti_trace_next_thread, 1, __ATOMIC_RELAXED);
  return (unsigned)gasneti_trace_thread_id;
}

static void gasneti_trace_write(const char *line, size_t n) {
#if defined(GASNETI_THREADS)
  pthread_mutex_lock(&gasneti_trace_lock);
#endif
  if (gasneti_trace_file && !gasneti_trace_closed) {
    fwrite(line, 1, n, gasneti_trace_file);
    if (gasneti_trace_flush) fflush(gasneti_trace_file);
  }
#if defined(GASNETI_THREADS)
  pthread_mutex_unlock(&gasneti_trace_lock);
#endif
}

/* Append what snprintf-like `wrote` says was formatted into line at *n,
 * clipped to the room left. */
static void gasneti_trace_advance(size_t *n, int wrote, size_t room) {
  if (wrote < 0) return;
  *n += (size_t)wrote;
  if (*n > room) *n = room;
}

static void gasneti_trace_vline(char cat, const char *fmt, va_list ap) {
  char line[GASNETI_TRACE_LINE_MAX];
  const size_t room = sizeof(line) - 1; /* for the newline */
  size_t n = 0;
  double us = (double)(gasneti_now_ns() - gasneti_trace_t0) / 1e3;
  gasneti_trace_advance(&n,
                        snprintf(line, room, "%u %u %.3f %c ", (unsigned)gasneti_mynode,
                                 gasneti_trace_thread(), us, cat),
                        room - 1);
  gasneti_trace_advance(&n, vsnprintf(line + n, room - n, fmt, ap), room - 1);
  if (gasneti_trace_src_file && (gasneti_event_cats['N'] & GASNETI_EVENT_TRACED)) {
    char where[512];
    int w = snprintf(where, sizeof(where), " @%s:%u", gasneti_trace_src_file,
                     gasneti_trace_src_line);
    size_t len = w < 0 ? 0 : (size_t)w < sizeof(where) ? (size_t)w : sizeof(where) - 1;
    if (len > room - 1 - n) len = room - 1 - n;
    memcpy(line + n, where, len);
    n += len;
  }
  for (size_t i = 0; i < n; i++)
    if (line[i] == '\n') line[i] = ' '; /* one event, one line */
  line[n++] = '\n';
  gasneti_trace_write(line, n);
}

void gasneti_trace_printf(char cat, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gasneti_trace_vline(cat, fmt, ap);
  va_end(ap);
}

int gasneti_trace_local(void) { return __atomic_load_n(&gasneti_trace_local_on, __ATOMIC_RELAXED); }

void gasneti_trace_init(void) {
  gasneti_trace_t0 = gasneti_now_ns();
  gasneti_trace_file = gasneti_events_start("GASNET_TRACEFILE", "(none: no trace)",
                                            "GASNET_TRACEMASK", GASNETI_EVENT_TRACED);
  gasneti_trace_local_on = gasneti_getenv_yesno("GASNET_TRACELOCAL", 1);
  gasneti_trace_flush = gasneti_getenv_yesno("GASNET_TRACEFLUSH", 0);
  if (!gasneti_trace_file) return;
  char active[32];
  gasneti_events_mask_get(GASNETI_EVENT_TRACED, active, sizeof(active));
  gasneti_events_header(gasneti_trace_file, "trace", active);
  if (gasneti_trace_flush) fflush(gasneti_trace_file);
}

/* Once, from the node's exit path. */
void gasneti_trace_finish(void) {
  if (!gasneti_trace_file || __atomic_exchange_n(&gasneti_trace_closed, 1, __ATOMIC_ACQ_REL)) return;
  gasneti_events_mask_set("GASNET_TRACEMASK", "", GASNETI_EVENT_TRACED, 0);
#if defined(GASNETI_THREADS)
  pthread_mutex_lock(&gasneti_trace_lock);
#endif
  gasneti_events_close(gasneti_trace_file);
  gasneti_trace_file = NULL;
#if defined(GASNETI_THREADS)
  pthread_mutex_unlock(&gasneti_trace_lock);
#endif
}

/* The file descriptor of an open trace file (for a backtrace after a fatal
 * error), flushed; -1 when there is none. */
int gasneti_trace_fd(void) {
  FILE *f = gasneti_trace_file;
  if (!f || gasneti_trace_closed) return -1;
  fflush(f);
  return fileno(f);
}

/* ------------------------------------------------------------ the client's macros
 * GASNETT_TRACE_* of gasnet_tools_trace.h, in a client built with the
 * conduit's flags against a tracing build. */
void gasnetti_trace_printf(const char *fmt, ...) {
  if (!gasneti_trace_on('H')) return;
  va_list ap;
  va_start(ap, fmt);
  gasneti_trace_vline('H', fmt, ap);
  va_end(ap);
}

void gasnetti_trace_printf_force(const char *fmt, ...) {
  if (!gasneti_trace_file || gasneti_trace_closed) return;
  va_list ap;
  va_start(ap, fmt);
  gasneti_trace_vline('U', fmt, ap);
  va_end(ap);
}

const char *gasnetti_trace_getmask(void) {
  static char mask[32];
  gasneti_events_mask_get(GASNETI_EVENT_TRACED, mask, sizeof(mask));
  return mask;
}

void gasnetti_trace_setmask(const char *mask) {
  gasneti_events_mask_set("GASNETT_TRACE_SETMASK", mask ? mask : "", GASNETI_EVENT_TRACED,
                          gasneti_trace_file != NULL && !gasneti_trace_closed);
}

int gasnetti_trace_get_tracelocal(void) { return gasneti_trace_local(); }
void gasnetti_trace_set_tracelocal(int on) {
  __atomic_store_n(&gasneti_trace_local_on, on != 0, __ATOMIC_RELAXED);
}

void gasnetti_trace_setsourceline(const char *file, unsigned line) {
  if (gasneti_trace_src_frozen) return;
  gasneti_trace_src_file = file;
  gasneti_trace_src_line = line;
}

void gasnetti_trace_getsourceline(const char **file, unsigned *line) {
  *file = gasneti_trace_src_file;
  *line = gasneti_trace_src_line;
}

void gasnetti_trace_freezesourceline(void) { gasneti_trace_src_frozen++; }
void gasnetti_trace_unfreezesourceline(void) {
  if (gasneti_trace_src_frozen > 0) gasneti_trace_src_frozen--;
}

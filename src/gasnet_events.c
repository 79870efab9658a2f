/* gasnet_events.c: what tracing and statistics share (built when configure
 * compiles in either, --enable-trace or --enable-stats): the category
 * masks, the per-node output files, and the start and end of both.
 *
 * Each node opens its own files in gasnet_init, once it knows its number,
 * and writes its statistics and closes its trace when it begins to end
 * (gasneti_node_exiting), on every exit path. */
#include "gasnet_events.h"

#include <string.h>
#include <unistd.h>

unsigned char gasneti_event_cats[256];

/* GASNet-1's letters, in its order; GASNET_TRACEMASK and GASNET_STATSMASK
 * default to all of them. */
static const char gasneti_all_cats[] = "GPSWXBLAICDNHU";

void gasneti_events_mask_set(const char *var, const char *mask, unsigned char bit, int open) {
  for (const char *p = mask; *p; p++)
    if (!strchr(gasneti_all_cats, *p))
      gasneti_fatalerror("%s=\"%s\": '%c' is not a category letter (valid: %s)", var, mask, *p,
                         gasneti_all_cats);
  for (const char *c = gasneti_all_cats; *c; c++) {
    unsigned char *slot = &gasneti_event_cats[(unsigned char)*c];
    unsigned char want = open && strchr(mask, *c) ? bit : 0;
    __atomic_store_n(slot, (unsigned char)((*slot & ~bit) | want), __ATOMIC_RELAXED);
  }
}

void gasneti_events_mask_get(unsigned char bit, char *out, size_t size) {
  size_t n = 0;
  for (const char *c = gasneti_all_cats; *c && n + 1 < size; c++)
    if (__atomic_load_n(&gasneti_event_cats[(unsigned char)*c], __ATOMIC_RELAXED) & bit)
      out[n++] = *c;
  out[n] = '\0';
}

const char *gasneti_events_all_cats(void) { return gasneti_all_cats; }

/* The file name with every '%' replaced by this node's number. */
static void gasneti_events_path(const char *pattern, char *out, size_t size) {
  size_t n = 0;
  for (const char *p = pattern; *p && n + 1 < size; p++) {
    if (*p != '%') {
      out[n++] = *p;
      continue;
    }
    int w = snprintf(out + n, size - n, "%u", (unsigned)gasneti_mynode);
    if (w < 0 || (size_t)w >= size - n) break;
    n += (size_t)w;
  }
  out[n] = '\0';
}

FILE *gasneti_events_open(const char *var, const char *pattern) {
  if (!strcmp(pattern, "-") || !strcmp(pattern, "stderr")) return stderr;
  if (!strcmp(pattern, "stdout")) return stdout;
  char path[4096];
  gasneti_events_path(pattern, path, sizeof(path));
  FILE *f = fopen(path, "w");
  if (!f) gasneti_fatalerror("%s=\"%s\": cannot open %s for writing", var, pattern, path);
  return f;
}

void gasneti_events_close(FILE *f) {
  if (!f) return;
  if (f == stderr || f == stdout)
    fflush(f);
  else
    fclose(f);
}

void gasneti_events_header(FILE *f, const char *what, const char *mask) {
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  fprintf(f, "# gasnet %s: node %u of %u, pid %d, host %s, %s, mask %s\n", what,
          (unsigned)gasneti_mynode, (unsigned)gasneti_nodes, (int)getpid(), host,
#if defined(GASNETI_THREADS)
          "PAR",
#else
          "SEQ",
#endif
          mask);
}

void gasneti_events_init(void) {
#if defined(GASNET_TRACE)
  gasneti_trace_init();
#endif
#if defined(GASNET_STATS)
  gasneti_stats_init();
#endif
}

void gasneti_events_finish(void) {
#if defined(GASNET_STATS)
  gasneti_stats_finish();
#endif
#if defined(GASNET_TRACE)
  gasneti_trace_finish();
#endif
}

FILE *gasneti_events_start(const char *file_var, const char *none_text, const char *mask_var,
                           unsigned char bit) {
  const char *path = gasneti_getenv_verbose(file_var, none_text);
  const char *mask = gasneti_getenv_verbose(mask_var, gasneti_all_cats);
  if (!mask) mask = gasneti_all_cats;
  FILE *f = path && *path ? gasneti_events_open(file_var, path) : NULL;
  gasneti_events_mask_set(mask_var, mask, bit, f != NULL);
  return f;
}

/* ------------------------------------------------------------ sync calls */
void gasneti_event_waited_slow(char cat, const char *call, int64_t start_ns) {
  int64_t ns = gasneti_now_ns() - start_ns;
  if (gasneti_stats_on(cat)) gasneti_stats_add(cat, call, NULL, GASNETI_STATS_TIME, (uint64_t)ns);
  if (gasneti_trace_on(cat)) gasneti_trace_printf(cat, "%s time_us=%.3f", call, (double)ns / 1e3);
}

int gasneti_event_tried_slow(char cat, const char *call, int rc) {
  if (gasneti_stats_on(cat)) gasneti_stats_add(cat, call, NULL, GASNETI_STATS_COUNT, 0);
  if (gasneti_trace_on(cat))
    gasneti_trace_printf(cat, "%s result=%s", call, rc == GASNET_OK ? "ok" : "not_ready");
  return rc;
}

void gasneti_event_mark_slow(char cat, const char *call) {
  if (gasneti_stats_on(cat)) gasneti_stats_add(cat, call, NULL, GASNETI_STATS_COUNT, 0);
  if (gasneti_trace_on(cat)) gasneti_trace_printf(cat, "%s", call);
}

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

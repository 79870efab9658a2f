/* gasnet_events.h: the pieces tracing (gasnet_trace.c) and statistics
 * (gasnet_stats.c) share (gasnet_events.c). Built only when configure
 * compiles in one of them; the rest of the library sees gasnet_hooks.h's
 * inline calls and gasneti_events_init / _finish (gasnet_internal.h). */
#ifndef GASNET_EVENTS_H
#define GASNET_EVENTS_H

#include "gasnet_internal.h"

#include <stdio.h>

/* Bits of gasneti_event_cats. */
#define GASNETI_EVENT_TRACED 1
#define GASNETI_EVENT_COUNTED 2

/* Set bit in the categories mask lists (and clear it elsewhere), or clear
 * it everywhere when open is 0 (no output file); a letter that is no
 * category is a fatal error naming var. */
extern void gasneti_events_mask_set(const char *var, const char *mask, unsigned char bit,
                                    int open);
/* The letters whose bit is set, in GASNet-1's order. */
extern void gasneti_events_mask_get(unsigned char bit, char *out, size_t size);
extern const char *gasneti_events_all_cats(void);

/* The file a GASNET_TRACEFILE / GASNET_STATSFILE value names for this node
 * ('%' is the node's number; "-" and "stderr" are stderr, "stdout"
 * stdout); a file that cannot be opened is a fatal error naming var. */
extern FILE *gasneti_events_open(const char *var, const char *pattern);
extern void gasneti_events_close(FILE *f);
/* Reads file_var and mask_var (listed by GASNET_VERBOSEENV, none_text
 * shown when the file is not set), opens this node's file and sets bit for
 * the mask's categories; returns the file, or NULL (and no category on)
 * when file_var is not set. */
extern FILE *gasneti_events_start(const char *file_var, const char *none_text,
                                  const char *mask_var, unsigned char bit);
/* The first line of either file: "# gasnet WHAT: node N of M, pid P, host H,
 * SEQ|PAR, mask LETTERS". */
extern void gasneti_events_header(FILE *f, const char *what, const char *mask);

#if defined(GASNET_TRACE)
extern void gasneti_trace_init(void);
extern void gasneti_trace_finish(void);
#endif
#if defined(GASNET_STATS)
extern void gasneti_stats_init(void);
extern void gasneti_stats_finish(void);
/* Is a statistics file open (GASNET_STATSFILE)? */
extern int gasneti_stats_active(void);
#endif

#endif

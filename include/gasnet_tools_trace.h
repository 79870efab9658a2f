/* gasnet_tools_trace.h: the client tracing and statistics macros of the
 * GASNet tools. Included by gasnet_tools.h.
 *
 * A GASNet client (one built with the conduit's flags, which name the
 * thread mode: GASNET_SEQ, GASNET_PAR or GASNET_PARSYNC) against a library
 * configured with --enable-trace or --enable-stats (or --enable-debug) gets
 * the working macros: GASNETT_TRACE_PRINTF writes a line of category H
 * into its node's trace file (GASNET_TRACEFILE), _FORCE one of category U
 * whatever the mask, and the mask, local-operation and source-line calls
 * act on the library's tracing (docs/tools.md, "Tracing and statistics").
 * Otherwise (a build without them, or a tools-only program) every macro is
 * a statement-shaped expression that does nothing, while still "using" its
 * arguments so that variables kept only for tracing do not draw
 * unused-variable warnings; such a build holds no trace code at all. */
#ifndef GASNET_TOOLS_TRACE_H
#define GASNET_TOOLS_TRACE_H

#include "gasnet_tools_basic.h"

#if defined(GASNET_SEQ) || defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETTI_TRACE_CLIENT 1
#endif

#if defined(GASNETTI_TRACE_CLIENT) && defined(GASNET_TRACE)
#define GASNETT_TRACE_ENABLED 1
#else
#define GASNETT_TRACE_ENABLED 0
#endif
#if defined(GASNETTI_TRACE_CLIENT) && defined(GASNET_STATS)
#define GASNETT_STATS_ENABLED 1
#else
#define GASNETT_STATS_ENABLED 0
#endif

GASNETT_BEGIN_EXTERNC
/* Only ever named inside sizeof, never called, so it has no definition: it
 * gives the trace arguments a context in which they are checked for
 * validity but not evaluated. */
extern int gasnetti_trace_args_unused(int ignored, ...);
#if GASNETT_TRACE_ENABLED
/* The library's side of the macros below (gasnet_trace.c). */
extern unsigned char gasneti_event_cats[256];
extern void gasnetti_trace_printf(const char *fmt, ...) GASNETTI_PRINTF_ATTR(1, 2);
extern void gasnetti_trace_printf_force(const char *fmt, ...) GASNETTI_PRINTF_ATTR(1, 2);
extern const char *gasnetti_trace_getmask(void);
extern void gasnetti_trace_setmask(const char *mask);
extern int gasnetti_trace_get_tracelocal(void);
extern void gasnetti_trace_set_tracelocal(int on);
extern void gasnetti_trace_setsourceline(const char *file, unsigned line);
extern void gasnetti_trace_getsourceline(const char **file, unsigned *line);
extern void gasnetti_trace_freezesourceline(void);
extern void gasnetti_trace_unfreezesourceline(void);
#endif
#if GASNETT_STATS_ENABLED
extern const char *gasnetti_stats_getmask(void);
extern void gasnetti_stats_setmask(const char *mask);
#endif
GASNETT_END_EXTERNC

/* Both spellings seen in GASNet-1 clients compile:
 *   GASNETT_TRACE_PRINTF("fmt %d", x);
 *   GASNETT_TRACE_PRINTF(("fmt %d", x));
 * The second passes one parenthesised comma expression, which would draw
 * "left-hand operand of comma expression has no effect"; the preprocessor
 * removes those parentheses first, so both become the argument list
 * "fmt %d", x. (Hence a single-parenthesis call whose first argument itself
 * starts with a parenthesis, like a cast, is not supported.) The arguments
 * are evaluated only when the line is written (category H on and a trace
 * file open; always for _FORCE when a file is open), so they must not carry
 * side effects the program depends on. */
#if GASNETT_TRACE_ENABLED
#define GASNETT_TRACE_PRINTF(...)                                                              \
  ((gasneti_event_cats['H'] & 1) ? gasnetti_trace_printf(GASNETTI_TRACE_UNWRAP(__VA_ARGS__)) \
                                 : (void)0)
#define GASNETT_TRACE_PRINTF_FORCE(...) gasnetti_trace_printf_force(GASNETTI_TRACE_UNWRAP(__VA_ARGS__))
#else
#define GASNETT_TRACE_PRINTF(...) GASNETTI_TRACE_DISCARD(__VA_ARGS__)
#define GASNETT_TRACE_PRINTF_FORCE(...) GASNETTI_TRACE_DISCARD(__VA_ARGS__)
#endif

#define GASNETTI_TRACE_DISCARD(...) \
  ((void)sizeof(gasnetti_trace_args_unused(0, GASNETTI_TRACE_UNWRAP(__VA_ARGS__))))
/* GASNETTI_TRACE_UNWRAP: ("fmt", x) -> "fmt", x; and "fmt", x unchanged.
 * GASNETTI_TRACE_IS_PAREN(t) is 1 when t starts with a parenthesis: only
 * then does the PROBE macro name meet a "(" and expand to "~, 1", shifting
 * the 1 into second place. */
#define GASNETTI_TRACE_UNWRAP(...)                                              \
  GASNETTI_TRACE_CAT(GASNETTI_TRACE_UNWRAP_,                                    \
                     GASNETTI_TRACE_IS_PAREN(GASNETTI_TRACE_FIRST(__VA_ARGS__, ~))) \
  (__VA_ARGS__)
#define GASNETTI_TRACE_UNWRAP_0(...) __VA_ARGS__
#define GASNETTI_TRACE_UNWRAP_1(...) GASNETTI_TRACE_STRIP __VA_ARGS__
#define GASNETTI_TRACE_STRIP(...) __VA_ARGS__
#define GASNETTI_TRACE_FIRST(first, ...) first
#define GASNETTI_TRACE_IS_PAREN(t) GASNETTI_TRACE_SECOND(GASNETTI_TRACE_PROBE t, 0, ~)
#define GASNETTI_TRACE_PROBE(...) ~, 1
#define GASNETTI_TRACE_SECOND(...) GASNETTI_TRACE_SECOND_(__VA_ARGS__)
#define GASNETTI_TRACE_SECOND_(a, b, ...) b
#define GASNETTI_TRACE_CAT(a, b) GASNETTI_TRACE_CAT_(a, b)
#define GASNETTI_TRACE_CAT_(a, b) a##b

/* Masks are strings of category letters (GASNET_TRACEMASK's): the ones
 * traced or counted now, "" when nothing is. Setting one while no file is
 * open changes nothing. */
#if GASNETT_TRACE_ENABLED
#define GASNETT_TRACE_GETMASK() gasnetti_trace_getmask()
#define GASNETT_TRACE_SETMASK(newmask) gasnetti_trace_setmask(newmask)
#else
#define GASNETT_TRACE_GETMASK() ((const char *)"")
#define GASNETT_TRACE_SETMASK(newmask) ((void)(newmask))
#endif
#if GASNETT_STATS_ENABLED
#define GASNETT_STATS_GETMASK() gasnetti_stats_getmask()
#define GASNETT_STATS_SETMASK(newmask) gasnetti_stats_setmask(newmask)
#else
#define GASNETT_STATS_GETMASK() ((const char *)"")
#define GASNETT_STATS_SETMASK(newmask) ((void)(newmask))
#endif

/* Whether puts and gets to the calling node itself are traced
 * (GASNET_TRACELOCAL; for the whole process). */
#if GASNETT_TRACE_ENABLED
#define GASNETT_TRACE_GET_TRACELOCAL() gasnetti_trace_get_tracelocal()
#define GASNETT_TRACE_SET_TRACELOCAL(newval) gasnetti_trace_set_tracelocal(newval)
#else
#define GASNETT_TRACE_GET_TRACELOCAL() 0
#define GASNETT_TRACE_SET_TRACELOCAL(newval) ((void)(newval))
#endif

/* Source-line tracking, per thread: the position the client last set,
 * appended to its trace lines as @FILE:LINE when category N is on; frozen,
 * later sets are ignored until unfrozen. Without tracing the position is
 * unknown: a NULL file name and line 0. */
#if GASNETT_TRACE_ENABLED
#define GASNETT_TRACE_GETSOURCELINE(pfilename, plinenum) \
  gasnetti_trace_getsourceline((pfilename), (plinenum))
#define GASNETT_TRACE_SETSOURCELINE(filename, linenum) \
  gasnetti_trace_setsourceline((filename), (unsigned)(linenum))
#define GASNETT_TRACE_FREEZESOURCELINE() gasnetti_trace_freezesourceline()
#define GASNETT_TRACE_UNFREEZESOURCELINE() gasnetti_trace_unfreezesourceline()
#else
#define GASNETT_TRACE_GETSOURCELINE(pfilename, plinenum) \
  ((void)(*(pfilename) = 0), (void)(*(plinenum) = 0))
#define GASNETT_TRACE_SETSOURCELINE(filename, linenum) ((void)(filename), (void)(linenum))
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)0)
#endif

#endif /* GASNET_TOOLS_TRACE_H */

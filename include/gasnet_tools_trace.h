/* gasnet_tools_trace.h: the client tracing and statistics macros of the
 * GASNet tools. Included by gasnet_tools.h.
 *
 * Client-visible tracing is compiled out in this implementation, so every
 * macro is a statement-shaped expression that does nothing, while still
 * "using" its arguments so that variables kept only for tracing do not
 * draw unused-variable warnings. */
#ifndef GASNET_TOOLS_TRACE_H
#define GASNET_TOOLS_TRACE_H

#include "gasnet_tools_basic.h"

#define GASNETT_TRACE_ENABLED 0
#define GASNETT_STATS_ENABLED 0

GASNETT_BEGIN_EXTERNC
/* Only ever named inside sizeof, never called, so it has no definition: it
 * gives the trace arguments a context in which they are checked for
 * validity but not evaluated. */
extern int gasnetti_trace_args_unused(int ignored, ...);
GASNETT_END_EXTERNC

/* Both spellings seen in GASNet-1 clients compile:
 *   GASNETT_TRACE_PRINTF("fmt %d", x);
 *   GASNETT_TRACE_PRINTF(("fmt %d", x));
 * The second passes one parenthesised comma expression, which would draw
 * "left-hand operand of comma expression has no effect"; the preprocessor
 * removes those parentheses first, so both become the argument list
 * "fmt %d", x. (Hence a single-parenthesis call whose first argument itself
 * starts with a parenthesis, like a cast, is not supported.)
 * The arguments are not evaluated (tracing is off), so they must not carry
 * side effects the program depends on. */
#define GASNETT_TRACE_PRINTF(...) GASNETTI_TRACE_DISCARD(__VA_ARGS__)
#define GASNETT_TRACE_PRINTF_FORCE(...) GASNETTI_TRACE_DISCARD(__VA_ARGS__)

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

/* Masks are strings of trace/stats category letters; none are enabled. */
#define GASNETT_TRACE_GETMASK() ((const char *)"")
#define GASNETT_TRACE_SETMASK(newmask) ((void)(newmask))
#define GASNETT_STATS_GETMASK() ((const char *)"")
#define GASNETT_STATS_SETMASK(newmask) ((void)(newmask))

/* Per-thread "trace local operations too" switch. */
#define GASNETT_TRACE_GET_TRACELOCAL() 0
#define GASNETT_TRACE_SET_TRACELOCAL(newval) ((void)(newval))

/* Source-line tracking: the current position is unknown, reported as a NULL
 * file name and line 0. */
#define GASNETT_TRACE_GETSOURCELINE(pfilename, plinenum) \
  ((void)(*(pfilename) = 0), (void)(*(plinenum) = 0))
#define GASNETT_TRACE_SETSOURCELINE(filename, linenum) ((void)(filename), (void)(linenum))
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)0)

#endif /* GASNET_TOOLS_TRACE_H */

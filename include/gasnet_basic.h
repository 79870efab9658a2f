/* gasnet_basic.h: the small macros every GASNet-1 client sees through
 * gasnet.h (and gasnet_tools.h): token pasting and stringizing, branch
 * hints, 64-bit word splitting, the platform identification macros, and the
 * system headers GASNet-1's headers pull in, which clients rely on.
 * Included by gasnet.h and gasnet_tools_basic.h; clients include those. */
#ifndef GASNET_BASIC_H
#define GASNET_BASIC_H

#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <gasnet_portable_platform.h>

/* _STRINGIFY(x): x after macro expansion, as a string literal.
 * _CONCAT(a, b): a and b, each expanded, pasted into one token.
 * A client that defines them itself keeps its own definitions. */
#ifndef _STRINGIFY
#define _STRINGIFY_HELPER(x) #x
#define _STRINGIFY(x) _STRINGIFY_HELPER(x)
#endif
#ifndef _CONCAT
#define _CONCAT_HELPER(a, b) a##b
#define _CONCAT(a, b) _CONCAT_HELPER(a, b)
#endif

/* Branch hints: the value of expr, told to the compiler as likely true or
 * likely false. */
#if defined(__GNUC__) || defined(__clang__)
#define GASNETT_PREDICT_TRUE(expr) __builtin_expect(!!(expr), 1)
#define GASNETT_PREDICT_FALSE(expr) __builtin_expect(!!(expr), 0)
#else
#define GASNETT_PREDICT_TRUE(expr) (!!(expr))
#define GASNETT_PREDICT_FALSE(expr) (!!(expr))
#endif

/* if_pf(cond) stmt: an `if` whose condition is predicted false (pf) or
 * true (pt); an `else` may follow as after any `if`. */
#ifndef if_pf
#define if_pf(cond) if (GASNETT_PREDICT_FALSE(cond))
#endif
#ifndef if_pt
#define if_pt(cond) if (GASNETT_PREDICT_TRUE(cond))
#endif

/* A 64-bit value (a pointer on a 64-bit platform) as two 32-bit halves and
 * back: how clients send pointers in 32-bit AM handler arguments. */
#define GASNETI_HIWORD(arg) ((uint32_t)(((uint64_t)(uintptr_t)(arg)) >> 32))
#define GASNETI_LOWORD(arg) ((uint32_t)((uint64_t)(uintptr_t)(arg)))
#define GASNETI_MAKEWORD(hi, lo) \
  ((uint64_t)((((uint64_t)(uint32_t)(hi)) << 32) | ((uint64_t)(uint32_t)(lo))))

#endif /* GASNET_BASIC_H */

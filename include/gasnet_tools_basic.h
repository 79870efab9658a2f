/* gasnet_tools_basic.h: thread mode, compiler portability and configuration
 * macros of the GASNet tools. Included by gasnet_tools.h; clients include
 * gasnet_tools.h rather than this file. */
#ifndef GASNET_TOOLS_BASIC_H
#define GASNET_TOOLS_BASIC_H

#include <gasnet_config.h>
#include <gasnet_basic.h>

/* ------------------------------------------------------------ thread mode */
/* A client says whether its threads share the tools. GASNet-1 clients that
 * include gasnet.h first rely on the choice following GASNET_PAR / PARSYNC /
 * SEQ (gasnet.h defines GASNET_SEQ when the client names no mode). A
 * tools-only client that says nothing may still run threads, so the safe
 * choice is the default. The implementation is the same in both modes (every
 * lock is a real pthread lock, every atomic a real atomic); the mode is
 * recorded for clients and in GASNETT_CONFIG_STRING. */
#if defined(GASNETT_THREAD_SAFE) && defined(GASNETT_THREAD_SINGLE)
#error "define at most one of GASNETT_THREAD_SAFE and GASNETT_THREAD_SINGLE"
#endif
#if !defined(GASNETT_THREAD_SAFE) && !defined(GASNETT_THREAD_SINGLE)
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETT_THREAD_SAFE 1
#elif defined(GASNET_SEQ)
#define GASNETT_THREAD_SINGLE 1
#else
#define GASNETT_THREAD_SAFE 1
#endif
#endif

#if defined(GASNETT_THREAD_SAFE)
#define GASNETTI_THREAD_MODEL_STR "PAR"
#else
#define GASNETTI_THREAD_MODEL_STR "SEQ"
#endif

/* ------------------------------------------------------------ C / C++ linkage */
#ifdef __cplusplus
#define GASNETT_EXTERNC extern "C"
#define GASNETT_BEGIN_EXTERNC extern "C" {
#define GASNETT_END_EXTERNC }
#else
#define GASNETT_EXTERNC extern
#define GASNETT_BEGIN_EXTERNC
#define GASNETT_END_EXTERNC
#endif

/* ------------------------------------------------------------ compiler features */
#if defined(__GNUC__) || defined(__clang__)
#define GASNETTI_HAVE_GNU_ATTRIBUTES 1
#endif

/* __inline__ is accepted by GNU compilers in every language mode, including
 * strict C89, so a client's -std choice cannot break the header. */
#if defined(GASNETTI_HAVE_GNU_ATTRIBUTES)
#define GASNETTI_INLINE static __inline__
#elif defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define GASNETTI_INLINE static inline
#else
#define GASNETTI_INLINE static
#endif

/* GASNet-1 usage: GASNETT_INLINE(fn) int fn(int x) { ... } */
#define GASNETT_INLINE(fnname) GASNETTI_INLINE

#if defined(GASNETTI_HAVE_GNU_ATTRIBUTES)
#define GASNETT_NORETURN __attribute__((__noreturn__))
#define GASNETTI_UNUSED __attribute__((__unused__))
#define GASNETTI_USED __attribute__((__used__))
#define GASNETTI_ALIGNED(n) __attribute__((__aligned__(n)))
#define GASNETTI_PRINTF_ATTR(fmtarg, firstvararg) \
  __attribute__((__format__(__printf__, fmtarg, firstvararg)))
#define GASNETTI_PREDICT_FALSE(expr) __builtin_expect(!!(expr), 0)
#else
#define GASNETT_NORETURN
#define GASNETTI_UNUSED
#define GASNETTI_USED
#define GASNETTI_ALIGNED(n)
#define GASNETTI_PRINTF_ATTR(fmtarg, firstvararg)
#define GASNETTI_PREDICT_FALSE(expr) (expr)
#endif

/* GASNet-1 places GASNETT_NORETURNP(fn) after a declaration, for compilers
 * that mark non-returning functions by pragma. GNU compilers take the
 * attribute (GASNETT_NORETURN) instead, so this expands to nothing. */
#define GASNETT_NORETURNP(fnpname)

/* GASNet-1 usage:
 *   GASNETT_FORMAT_PRINTF(myfn,1,2,
 *   extern void myfn(const char *fmt, ...));
 * The declarator is taken as variadic so that commas in it are harmless. */
#define GASNETT_FORMAT_PRINTF(fnname, fmtarg, firstvararg, ...) \
  GASNETTI_PRINTF_ATTR(fmtarg, firstvararg) __VA_ARGS__

#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) || \
    (defined(__cplusplus) && __cplusplus >= 201103L)
#define GASNETT_CURRENT_FUNCTION __func__
#elif defined(GASNETTI_HAVE_GNU_ATTRIBUTES)
#define GASNETT_CURRENT_FUNCTION __FUNCTION__
#else
#define GASNETT_CURRENT_FUNCTION ""
#endif

/* Embeds an identification string in the object file where the `ident` and
 * `strings` tools find it. The trailing extern declaration swallows the
 * client's semicolon, so the macro is usable at file scope. */
#define GASNETT_IDENT(identName, identText)                   \
  extern volatile char identName[];                           \
  GASNETTI_USED volatile char identName[] = identText;        \
  extern int gasnetti_ident_semicolon_##identName

/* ------------------------------------------------------------ configuration */
#define GASNETT_CACHE_LINE_BYTES 64
#define GASNETT_PAGESIZE 4096
/* Client threads per process the tools (and the PAR libraries) are sized
 * for; the tools themselves impose no limit. Matches GASNet-1's default. */
#define GASNETT_MAX_THREADS 256
/* GASNETT_CONFIGURE_MISMATCH marks, in GASNet-1, a client compiler other
 * than the configured one; every compiler here shares one ABI, so it stays
 * undefined (clients test it with #ifdef). */

#define GASNETT_RELEASE_VERSION_MAJOR GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MINOR GASNET_RELEASE_VERSION_MINOR
#define GASNETT_RELEASE_VERSION_PATCH GASNET_RELEASE_VERSION_PATCH

/* The system tuple configure found, when gasnet_config.h records one;
 * otherwise it is rebuilt from the compiler's target macros. */
#if defined(GASNETI_SYSTEM_TUPLE)
#define GASNETT_SYSTEM_TUPLE GASNETI_SYSTEM_TUPLE
#else
#if defined(__x86_64__)
#define GASNETTI_SYSTEM_CPU "x86_64-pc"
#elif defined(__i386__)
#define GASNETTI_SYSTEM_CPU "i686-pc"
#elif defined(__aarch64__)
#define GASNETTI_SYSTEM_CPU "aarch64-unknown"
#elif defined(__arm__)
#define GASNETTI_SYSTEM_CPU "arm-unknown"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define GASNETTI_SYSTEM_CPU "powerpc64le-unknown"
#elif defined(__powerpc64__)
#define GASNETTI_SYSTEM_CPU "powerpc64-unknown"
#elif defined(__riscv) && defined(__LP64__)
#define GASNETTI_SYSTEM_CPU "riscv64-unknown"
#else
#define GASNETTI_SYSTEM_CPU "unknown-unknown"
#endif
#if defined(__linux__)
#define GASNETTI_SYSTEM_OS "linux-gnu"
#elif defined(__APPLE__)
#define GASNETTI_SYSTEM_OS "darwin"
#elif defined(__FreeBSD__)
#define GASNETTI_SYSTEM_OS "freebsd"
#else
#define GASNETTI_SYSTEM_OS "unknown"
#endif
#define GASNETT_SYSTEM_TUPLE GASNETTI_SYSTEM_CPU "-" GASNETTI_SYSTEM_OS
#endif

#if defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 4
#define GASNETTI_PTR_STR "PTR=32bit"
#else
#define GASNETTI_PTR_STR "PTR=64bit"
#endif

#ifndef GASNETI_BUILD_CONFIG_STRING
#define GASNETI_BUILD_CONFIG_STRING "RELEASE=unknown"
#endif

/* Library configuration plus this client's tools configuration, in the
 * comma-separated key form of GASNet-1. */
#define GASNETT_CONFIG_STRING                                              \
  GASNETI_BUILD_CONFIG_STRING "," GASNETTI_PTR_STR "," GASNETTI_THREAD_MODEL_STR \
  ",timers_posixrt,membars_native,atomics_native,atomic32_native,atomic64_native"

#endif /* GASNET_TOOLS_BASIC_H */

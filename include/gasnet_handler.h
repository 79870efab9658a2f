/* gasnet_handler.h: helpers GASNet-1 client runtimes use to write active
 * message handlers and their calls once for 32- and 64-bit platforms.
 *
 * AM handler arguments are 32 bits wide, so a pointer travels as one
 * argument on a 32-bit platform and as two (high word, low word) on a
 * 64-bit one. A client writes
 *
 *   SHORT_HANDLER(put_reply, 1, 2, (token, UNPACK(a0)), (token, UNPACK2(a0, a1)));
 *   SHORT_REQ(1, 2, (node, gasneti_handleridx(put_reply), PACK(ptr)));
 *
 * and gets put_reply_32 or put_reply_64 (a handler taking cnt32 or cnt64
 * arguments named a0, a1, ... that calls put_reply_inner with the inner
 * argument list of its width), the request with the right arity, and a
 * handler-table entry for it from gasneti_handler_tableentry_with_bits(put_reply).
 * The index macro gasneti_handleridx(name) expands to _hidx_<name>, which
 * the client defines (usually as an enum constant).
 *
 * Include it after gasnet.h. */
#ifndef GASNET_HANDLER_H
#define GASNET_HANDLER_H

#include <gasnet.h>

/* ARGSn: ", gasnet_handlerarg_t a0, ..., a(n-1)", the tail of a handler's
 * parameter list. */
#define ARGS0
#define ARGS1 ARGS0, gasnet_handlerarg_t a0
#define ARGS2 ARGS1, gasnet_handlerarg_t a1
#define ARGS3 ARGS2, gasnet_handlerarg_t a2
#define ARGS4 ARGS3, gasnet_handlerarg_t a3
#define ARGS5 ARGS4, gasnet_handlerarg_t a4
#define ARGS6 ARGS5, gasnet_handlerarg_t a5
#define ARGS7 ARGS6, gasnet_handlerarg_t a6
#define ARGS8 ARGS7, gasnet_handlerarg_t a7
#define ARGS9 ARGS8, gasnet_handlerarg_t a8
#define ARGS10 ARGS9, gasnet_handlerarg_t a9
#define ARGS11 ARGS10, gasnet_handlerarg_t a10
#define ARGS12 ARGS11, gasnet_handlerarg_t a11
#define ARGS13 ARGS12, gasnet_handlerarg_t a12
#define ARGS14 ARGS13, gasnet_handlerarg_t a13
#define ARGS15 ARGS14, gasnet_handlerarg_t a14
#define ARGS16 ARGS15, gasnet_handlerarg_t a15

/* ARGNAMESn: ", a0, ..., a(n-1)", the same arguments passed on. */
#define ARGNAMES0
#define ARGNAMES1 ARGNAMES0, a0
#define ARGNAMES2 ARGNAMES1, a1
#define ARGNAMES3 ARGNAMES2, a2
#define ARGNAMES4 ARGNAMES3, a3
#define ARGNAMES5 ARGNAMES4, a4
#define ARGNAMES6 ARGNAMES5, a5
#define ARGNAMES7 ARGNAMES6, a6
#define ARGNAMES8 ARGNAMES7, a7
#define ARGNAMES9 ARGNAMES8, a8
#define ARGNAMES10 ARGNAMES9, a9
#define ARGNAMES11 ARGNAMES10, a10
#define ARGNAMES12 ARGNAMES11, a11
#define ARGNAMES13 ARGNAMES12, a12
#define ARGNAMES14 ARGNAMES13, a13
#define ARGNAMES15 ARGNAMES14, a14
#define ARGNAMES16 ARGNAMES15, a15

/* The handler suffix and argument count for this platform's pointer width. */
#if PLATFORM_ARCH_64
#define GASNETI_HANDLER_BITS(name) name##_64
#define GASNETI_HANDLER_PICK(cnt32, cnt64) cnt64
#else
#define GASNETI_HANDLER_BITS(name) name##_32
#define GASNETI_HANDLER_PICK(cnt32, cnt64) cnt32
#endif
#define GASNETI_HANDLER_PASTE_(a, b) a##b
#define GASNETI_HANDLER_PASTE(a, b) GASNETI_HANDLER_PASTE_(a, b)
/* gasnet_AM<kind><n>; kind is given without the gasnet_AM prefix because
 * gasnet_AMRequestShort itself is a macro and would expand before pasting. */
#define GASNETI_HANDLER_AM_(kind, n) gasnet_AM##kind##n
#define GASNETI_HANDLER_AM(kind, n) GASNETI_HANDLER_AM_(kind, n)

/* ------------------------------------------------------------ sending
 * args is the parenthesised argument list of the fixed-arity call, with
 * every pointer wrapped in PACK(). */
#define SHORT_REQ(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(RequestShort, GASNETI_HANDLER_PICK(cnt32, cnt64)) args
#define SHORT_REP(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(ReplyShort, GASNETI_HANDLER_PICK(cnt32, cnt64)) args
#define MEDIUM_REQ(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(RequestMedium, GASNETI_HANDLER_PICK(cnt32, cnt64)) args
#define MEDIUM_REP(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(ReplyMedium, GASNETI_HANDLER_PICK(cnt32, cnt64)) args
#define LONG_REQ(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(RequestLong, GASNETI_HANDLER_PICK(cnt32, cnt64)) args
#define LONG_REP(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(ReplyLong, GASNETI_HANDLER_PICK(cnt32, cnt64)) args
#define LONGASYNC_REQ(cnt32, cnt64, args) \
  GASNETI_HANDLER_AM(RequestLongAsync, GASNETI_HANDLER_PICK(cnt32, cnt64)) args

/* PACK(ptr) is one argument (32-bit) or two (64-bit); the handler turns
 * them back into a pointer with UNPACK(a0) or UNPACK2(a0, a1). */
#if PLATFORM_ARCH_64
#define PACK(ptr) ((gasnet_handlerarg_t)GASNETI_HIWORD(ptr)), ((gasnet_handlerarg_t)GASNETI_LOWORD(ptr))
#define UNPACK2(a0, a1) ((void *)(uintptr_t)GASNETI_MAKEWORD(a0, a1))
#else
#define PACK(ptr) ((gasnet_handlerarg_t)(uintptr_t)(ptr))
#define UNPACK(a0) ((void *)(uintptr_t)(uint32_t)(a0))
#endif

/* ------------------------------------------------------------ handlers
 * GASNETI_HANDLER_SCOPE is the storage class of the generated handlers
 * (extern unless the client says static before including this file). */
#ifndef GASNETI_HANDLER_SCOPE
#define GASNETI_HANDLER_SCOPE extern
#endif

/* The trailing declaration takes the semicolon the client writes after a
 * handler definition, so the macro reads like a declaration. */
#define GASNETI_HANDLER_END(name) extern int gasneti_handler_defined_##name

#define SHORT_HANDLER_DECL(name, cnt32, cnt64)      \
  GASNETI_HANDLER_SCOPE void GASNETI_HANDLER_BITS(name)( \
      gasnet_token_t token GASNETI_HANDLER_PASTE(ARGS, GASNETI_HANDLER_PICK(cnt32, cnt64)))
#define MEDIUM_HANDLER_DECL(name, cnt32, cnt64)                        \
  GASNETI_HANDLER_SCOPE void GASNETI_HANDLER_BITS(name)(gasnet_token_t token, void *addr, \
                                                        size_t nbytes GASNETI_HANDLER_PASTE( \
                                                            ARGS, GASNETI_HANDLER_PICK(cnt32, cnt64)))
#if PLATFORM_ARCH_64
#define GASNETI_HANDLER_INNER(innerargs32, innerargs64) innerargs64
#else
#define GASNETI_HANDLER_INNER(innerargs32, innerargs64) innerargs32
#endif
#define SHORT_HANDLER(name, cnt32, cnt64, innerargs32, innerargs64) \
  SHORT_HANDLER_DECL(name, cnt32, cnt64);                           \
  SHORT_HANDLER_DECL(name, cnt32, cnt64) {                          \
    name##_inner GASNETI_HANDLER_INNER(innerargs32, innerargs64);   \
  }                                                                 \
  GASNETI_HANDLER_END(name)
#define MEDIUM_HANDLER(name, cnt32, cnt64, innerargs32, innerargs64) \
  MEDIUM_HANDLER_DECL(name, cnt32, cnt64);                           \
  MEDIUM_HANDLER_DECL(name, cnt32, cnt64) {                          \
    name##_inner GASNETI_HANDLER_INNER(innerargs32, innerargs64);    \
  }                                                                  \
  GASNETI_HANDLER_END(name)

/* Handlers whose arguments are the same at both widths. */
#define SHORT_HANDLER_NOBITS_DECL(name, cnt) \
  GASNETI_HANDLER_SCOPE void name(gasnet_token_t token ARGS##cnt)
#define MEDIUM_HANDLER_NOBITS_DECL(name, cnt) \
  GASNETI_HANDLER_SCOPE void name(gasnet_token_t token, void *addr, size_t nbytes ARGS##cnt)

/* Long handlers have the Medium signature. */
#define LONG_HANDLER MEDIUM_HANDLER
#define LONG_HANDLER_DECL MEDIUM_HANDLER_DECL
#define LONG_HANDLER_NOBITS_DECL MEDIUM_HANDLER_NOBITS_DECL

/* ------------------------------------------------------------ handler tables */
#define gasneti_handleridx(fnname) _hidx_##fnname
#define gasneti_handler_tableentry_no_bits(fnname) \
  { gasneti_handleridx(fnname), (gasneti_handler_fn_t)(fnname) }
#define gasneti_handler_tableentry_with_bits(fnname) \
  { gasneti_handleridx(fnname), (gasneti_handler_fn_t)GASNETI_HANDLER_BITS(fnname) }

#endif /* GASNET_HANDLER_H */

/* gasnet_am_invoke.c: calling a handler through the table's generic pointer
 * with the exact signature its category and argument count demand (calling
 * through a mismatched function type would be undefined). */
#include "gasnet_internal.h"

typedef gasnet_handlerarg_t A;

static void gasneti_invoke_short(gasneti_handler_fn_t fn, gasnet_token_t t, int n, const A *a) {
  switch (n) {
    case 0: ((void (*)(gasnet_token_t))fn)(t); break;
    case 1: ((void (*)(gasnet_token_t, A))fn)(t, a[0]); break;
    case 2: ((void (*)(gasnet_token_t, A, A))fn)(t, a[0], a[1]); break;
    case 3: ((void (*)(gasnet_token_t, A, A, A))fn)(t, a[0], a[1], a[2]); break;
    case 4: ((void (*)(gasnet_token_t, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3]); break;
    case 5: ((void (*)(gasnet_token_t, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4]); break;
    case 6: ((void (*)(gasnet_token_t, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5]); break;
    case 7: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
    case 8: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
    case 9: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
    case 10: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); break;
    case 11: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); break;
    case 12: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); break;
    case 13: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); break;
    case 14: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
    case 15: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]); break;
    case 16: ((void (*)(gasnet_token_t, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
    default: gasneti_fatalerror("AM with %d arguments cannot be delivered", n);
  }
}

static void gasneti_invoke_payload(gasneti_handler_fn_t fn, gasnet_token_t t, void *p, size_t b,
                                   int n, const A *a) {
  switch (n) {
    case 0: ((void (*)(gasnet_token_t, void *, size_t))fn)(t, p, b); break;
    case 1: ((void (*)(gasnet_token_t, void *, size_t, A))fn)(t, p, b, a[0]); break;
    case 2: ((void (*)(gasnet_token_t, void *, size_t, A, A))fn)(t, p, b, a[0], a[1]); break;
    case 3: ((void (*)(gasnet_token_t, void *, size_t, A, A, A))fn)(t, p, b, a[0], a[1], a[2]); break;
    case 4: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3]); break;
    case 5: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4]); break;
    case 6: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5]); break;
    case 7: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
    case 8: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
    case 9: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
    case 10: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); break;
    case 11: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); break;
    case 12: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); break;
    case 13: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); break;
    case 14: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
    case 15: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]); break;
    case 16: ((void (*)(gasnet_token_t, void *, size_t, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A))fn)(t, p, b, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
    default: gasneti_fatalerror("AM with %d arguments cannot be delivered", n);
  }
}

void gasneti_am_invoke(gasneti_handler_fn_t fn, gasnet_token_t token, const gasneti_am_t *msg) {
  if (msg->category == GASNETI_AM_SHORT)
    gasneti_invoke_short(fn, token, msg->numargs, msg->args);
  else
    gasneti_invoke_payload(fn, token, msg->payload, msg->nbytes, msg->numargs, msg->args);
}

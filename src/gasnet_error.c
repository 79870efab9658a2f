/* gasnet_error.c: error names and texts, recoverable error reports, and the
 * one fatal-error path every layer uses. */
#include "gasnet_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  int code;
  const char *name;
  const char *desc;
} gasneti_errinfo_t;

static const gasneti_errinfo_t gasneti_errors[] = {
    {GASNET_OK, "GASNET_OK", "no error"},
    {GASNET_ERR_NOT_INIT, "GASNET_ERR_NOT_INIT", "GASNet message layer not initialized"},
    {GASNET_ERR_RESOURCE, "GASNET_ERR_RESOURCE", "problem with requested resource"},
    {GASNET_ERR_BAD_ARG, "GASNET_ERR_BAD_ARG", "bad argument to GASNet call"},
    {GASNET_ERR_NOT_READY, "GASNET_ERR_NOT_READY", "non-blocking operation not complete"},
    {GASNET_ERR_BARRIER_MISMATCH, "GASNET_ERR_BARRIER_MISMATCH",
     "barrier id's mismatched"},
};

static const gasneti_errinfo_t *gasneti_errinfo(int code) {
  for (size_t i = 0; i < sizeof(gasneti_errors) / sizeof(gasneti_errors[0]); i++)
    if (gasneti_errors[i].code == code) return &gasneti_errors[i];
  return NULL;
}

const char *gasnet_ErrorName(int errval) {
  const gasneti_errinfo_t *e = gasneti_errinfo(errval);
  return e ? e->name : "*unknown*";
}

const char *gasnet_ErrorDesc(int errval) {
  const gasneti_errinfo_t *e = gasneti_errinfo(errval);
  return e ? e->desc : "no description available";
}

int gasneti_error(int code, const char *call, const char *fmt, ...) {
  va_list ap;
  char msg[512];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (gasneti_init_done)
    fprintf(stderr, "gasnet: node %u: %s failed (%s): %s\n", (unsigned)gasneti_mynode, call,
            gasnet_ErrorName(code), msg);
  else
    fprintf(stderr, "gasnet: %s failed (%s): %s\n", call, gasnet_ErrorName(code), msg);
  fflush(stderr);
  return code;
}

void gasneti_fatalerror(const char *fmt, ...) {
  va_list ap;
  char msg[1024];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (gasneti_init_done)
    fprintf(stderr, "*** FATAL ERROR (node %u): %s\n", (unsigned)gasneti_mynode, msg);
  else
    fprintf(stderr, "*** FATAL ERROR: %s\n", msg);
  fflush(stderr);
  if (gasneti_init_done) gasnetc_exit(1);
  _Exit(1);
}

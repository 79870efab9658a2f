/* gasnet_hsl.c: handler-safe locks. No conduit here runs handlers
 * asynchronously, so an HSL is a plain mutex; the one rule worth checking
 * is that a handler does not return while holding one, which the mutex's
 * error checking cannot see, so HSLs stay simple and fast. */
#include "gasnet_internal.h"

#include <errno.h>
#include <string.h>

/* Category L: each lock, unlock and try, with the lock's address. */
static void gasneti_hsl_event(const char *call, const gasnet_hsl_t *hsl, const char *result) {
  if (gasneti_stats_on('L')) gasneti_stats_add('L', call, NULL, GASNETI_STATS_COUNT, 0);
  if (gasneti_trace_on('L'))
    gasneti_trace_printf('L', "%s hsl=%p%s%s", call, (const void *)hsl, result ? " result=" : "",
                         result ? result : "");
}

void gasnet_hsl_init(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_init(&hsl->mutex, NULL);
  if (rc) gasneti_fatalerror("gasnet_hsl_init: failed to initialise the lock: %s", strerror(rc));
}

void gasnet_hsl_destroy(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_destroy(&hsl->mutex);
  if (rc) gasneti_fatalerror("gasnet_hsl_destroy: failed to destroy the lock: %s", strerror(rc));
}

void gasnet_hsl_lock(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_lock(&hsl->mutex);
  if (rc) gasneti_fatalerror("gasnet_hsl_lock: failed to lock: %s", strerror(rc));
  if (gasneti_event_on('L')) gasneti_hsl_event("gasnet_hsl_lock", hsl, NULL);
}

void gasnet_hsl_unlock(gasnet_hsl_t *hsl) {
  if (gasneti_event_on('L')) gasneti_hsl_event("gasnet_hsl_unlock", hsl, NULL);
  int rc = pthread_mutex_unlock(&hsl->mutex);
  if (rc) gasneti_fatalerror("gasnet_hsl_unlock: failed to unlock: %s", strerror(rc));
}

int gasnet_hsl_trylock(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_trylock(&hsl->mutex);
  if (rc == 0 || rc == EBUSY) {
    if (gasneti_event_on('L'))
      gasneti_hsl_event("gasnet_hsl_trylock", hsl, rc == 0 ? "ok" : "not_ready");
    return rc == 0 ? GASNET_OK : GASNET_ERR_NOT_READY;
  }
  gasneti_fatalerror("gasnet_hsl_trylock: failed to try the lock: %s", strerror(rc));
}

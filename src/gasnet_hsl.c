/* gasnet_hsl.c: handler-safe locks. No conduit here runs handlers
 * asynchronously, so an HSL is a plain mutex; the one rule worth checking
 * is that a handler does not return while holding one, which the mutex's
 * error checking cannot see, so HSLs stay simple and fast. */
#include "gasnet_internal.h"

#include <errno.h>
#include <string.h>

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
}

void gasnet_hsl_unlock(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_unlock(&hsl->mutex);
  if (rc) gasneti_fatalerror("gasnet_hsl_unlock: failed to unlock: %s", strerror(rc));
}

int gasnet_hsl_trylock(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_trylock(&hsl->mutex);
  if (rc == 0) return GASNET_OK;
  if (rc == EBUSY) return GASNET_ERR_NOT_READY;
  gasneti_fatalerror("gasnet_hsl_trylock: failed to try the lock: %s", strerror(rc));
}

/* tools_rwlock.c: the reader-writer lock of the tools (see
 * gasnet_tools_thread.h for why it is not pthread_rwlock_t). */
#include "gasnet_tools_internal.h"

void gasnett_rwlock_init(gasnett_rwlock_t *l) {
  gasnett_mutex_init(&l->lock);
  gasnett_cond_init(&l->changed);
  l->readers = 0;
  l->writer = 0;
}

void gasnett_rwlock_destroy(gasnett_rwlock_t *l) {
  if (l->readers || l->writer)
    gasnett_fatalerror("gasnett_rwlock_destroy: lock %p is still held (%u readers, %d writer)",
                       (void *)l, l->readers, l->writer);
  gasnett_cond_destroy(&l->changed);
  gasnett_mutex_destroy(&l->lock);
}

void gasnett_rwlock_rdlock(gasnett_rwlock_t *l) {
  gasnett_mutex_lock(&l->lock);
  while (l->writer) gasnett_cond_wait(&l->changed, &l->lock);
  l->readers++;
  gasnett_mutex_unlock(&l->lock);
}

void gasnett_rwlock_wrlock(gasnett_rwlock_t *l) {
  gasnett_mutex_lock(&l->lock);
  while (l->writer || l->readers) gasnett_cond_wait(&l->changed, &l->lock);
  l->writer = 1;
  gasnett_mutex_unlock(&l->lock);
}

int gasnett_rwlock_tryrdlock(gasnett_rwlock_t *l) {
  int rc = EBUSY;
  gasnett_mutex_lock(&l->lock);
  if (!l->writer) {
    l->readers++;
    rc = 0;
  }
  gasnett_mutex_unlock(&l->lock);
  return rc;
}

int gasnett_rwlock_trywrlock(gasnett_rwlock_t *l) {
  int rc = EBUSY;
  gasnett_mutex_lock(&l->lock);
  if (!l->writer && !l->readers) {
    l->writer = 1;
    rc = 0;
  }
  gasnett_mutex_unlock(&l->lock);
  return rc;
}

void gasnett_rwlock_unlock(gasnett_rwlock_t *l) {
  int wake;
  gasnett_mutex_lock(&l->lock);
  if (l->writer) {
    l->writer = 0;
  } else if (l->readers) {
    l->readers--;
  } else {
    gasnett_mutex_unlock(&l->lock);
    gasnett_fatalerror("gasnett_rwlock_unlock: lock %p is not held", (void *)l);
  }
  /* Waiters can only proceed once the lock is wholly free. */
  wake = !l->writer && !l->readers;
  gasnett_mutex_unlock(&l->lock);
  if (wake) gasnett_cond_broadcast(&l->changed);
}

/* gasnet_tools_thread.h: mutexes, condition variables, reader-writer locks
 * and thread-local keys of the GASNet tools. Included by gasnet_tools.h.
 *
 * The locks are real pthread locks in both thread modes: a single-threaded
 * client pays an uncontended lock (~20 ns) and in exchange can never be
 * wrong about which mode a library or a helper thread was built for. */
#ifndef GASNET_TOOLS_THREAD_H
#define GASNET_TOOLS_THREAD_H

#include <errno.h>
#include <pthread.h>

#include "gasnet_tools_basic.h"

GASNETT_BEGIN_EXTERNC

/* Reports a failed pthread call (which means a corrupt or misused lock) and
 * aborts: the GASNet-1 lock calls return nothing that could carry the error. */
extern void gasneti_tools_pthread_failed(const char *call, int rc) GASNETT_NORETURN;

GASNETTI_INLINE void gasnetti_pthread_check(int rc, const char *call) {
  if (GASNETTI_PREDICT_FALSE(rc != 0)) gasneti_tools_pthread_failed(call, rc);
}

/* ------------------------------------------------------------ mutex */
typedef pthread_mutex_t gasnett_mutex_t;
#define GASNETT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER

GASNETTI_INLINE void gasnett_mutex_init(gasnett_mutex_t *pl) {
  gasnetti_pthread_check(pthread_mutex_init(pl, NULL), "pthread_mutex_init");
}
GASNETTI_INLINE void gasnett_mutex_destroy(gasnett_mutex_t *pl) {
  gasnetti_pthread_check(pthread_mutex_destroy(pl), "pthread_mutex_destroy");
}
GASNETTI_INLINE void gasnett_mutex_lock(gasnett_mutex_t *pl) {
  gasnetti_pthread_check(pthread_mutex_lock(pl), "pthread_mutex_lock");
}
GASNETTI_INLINE void gasnett_mutex_unlock(gasnett_mutex_t *pl) {
  gasnetti_pthread_check(pthread_mutex_unlock(pl), "pthread_mutex_unlock");
}
/* 0 when the lock was taken, EBUSY when another thread holds it. */
GASNETTI_INLINE int gasnett_mutex_trylock(gasnett_mutex_t *pl) {
  const int rc = pthread_mutex_trylock(pl);
  if (rc != EBUSY) gasnetti_pthread_check(rc, "pthread_mutex_trylock");
  return rc;
}

/* ------------------------------------------------------------ condition variable */
typedef pthread_cond_t gasnett_cond_t;
#define GASNETT_COND_INITIALIZER PTHREAD_COND_INITIALIZER

GASNETTI_INLINE void gasnett_cond_init(gasnett_cond_t *pc) {
  gasnetti_pthread_check(pthread_cond_init(pc, NULL), "pthread_cond_init");
}
GASNETTI_INLINE void gasnett_cond_destroy(gasnett_cond_t *pc) {
  gasnetti_pthread_check(pthread_cond_destroy(pc), "pthread_cond_destroy");
}
GASNETTI_INLINE void gasnett_cond_signal(gasnett_cond_t *pc) {
  gasnetti_pthread_check(pthread_cond_signal(pc), "pthread_cond_signal");
}
GASNETTI_INLINE void gasnett_cond_broadcast(gasnett_cond_t *pc) {
  gasnetti_pthread_check(pthread_cond_broadcast(pc), "pthread_cond_broadcast");
}
/* As pthread_cond_wait: pl must be held; wakeups may be spurious, so wait
 * in a loop on the condition. */
GASNETTI_INLINE void gasnett_cond_wait(gasnett_cond_t *pc, gasnett_mutex_t *pl) {
  gasnetti_pthread_check(pthread_cond_wait(pc, pl), "pthread_cond_wait");
}

/* ------------------------------------------------------------ reader-writer lock */
/* Built from a mutex and a condition variable rather than pthread_rwlock_t,
 * which <pthread.h> hides from clients compiled in strict ISO C mode: one
 * layout for every client keeps structures holding a lock identical across
 * translation units. Readers are preferred (as glibc's default rwlock), so a
 * thread may take a read lock it already holds. */
typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t changed; /* signalled whenever readers or writer drop */
  unsigned readers;       /* threads holding the lock shared */
  int writer;             /* 1 while a thread holds the lock exclusive */
} gasnett_rwlock_t;
#define GASNETT_RWLOCK_INITIALIZER {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0}

extern void gasnett_rwlock_init(gasnett_rwlock_t *l);
extern void gasnett_rwlock_destroy(gasnett_rwlock_t *l);
extern void gasnett_rwlock_rdlock(gasnett_rwlock_t *l);
extern void gasnett_rwlock_wrlock(gasnett_rwlock_t *l);
/* 0 when taken, EBUSY when it would have to wait. */
extern int gasnett_rwlock_tryrdlock(gasnett_rwlock_t *l);
extern int gasnett_rwlock_trywrlock(gasnett_rwlock_t *l);
/* Releases a read or a write hold, whichever the caller has. */
extern void gasnett_rwlock_unlock(gasnett_rwlock_t *l);

/* ------------------------------------------------------------ thread keys */
/* A key is a thread-local pointer named at file scope:
 *   GASNETT_THREADKEY_DEFINE(mykey);           (one .c file)
 *   GASNETT_THREADKEY_DECLARE(mykey);          (a header, for the others)
 *   gasnett_threadkey_set(mykey, p); q = gasnett_threadkey_get(mykey);
 * Compiler TLS makes get/set a single load or store, and every thread starts
 * with NULL, so no initialisation is ever needed; the _noinit forms and
 * gasnett_threadkey_init exist for GASNet-1 code that calls them. */
#if defined(GASNETTI_HAVE_GNU_ATTRIBUTES)
#define GASNETTI_TLS __thread
#elif defined(__cplusplus) && __cplusplus >= 201103L
#define GASNETTI_TLS thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define GASNETTI_TLS _Thread_local
#else
#error "gasnet_tools.h needs compiler thread-local storage for thread keys"
#endif

/* A struct rather than a bare pointer, so that passing anything but a key
 * to the calls below fails to compile. */
typedef struct {
  void *value;
} gasnetti_threadkey_t;

#define GASNETT_THREADKEY_DECLARE(key) extern GASNETTI_TLS gasnetti_threadkey_t key
#define GASNETT_THREADKEY_DEFINE(key) GASNETTI_TLS gasnetti_threadkey_t key = {NULL}

GASNETTI_INLINE void *gasnetti_threadkey_get(gasnetti_threadkey_t *k) { return k->value; }
GASNETTI_INLINE void gasnetti_threadkey_set(gasnetti_threadkey_t *k, void *v) { k->value = v; }
GASNETTI_INLINE void gasnetti_threadkey_init(gasnetti_threadkey_t *k) { (void)k; }

#define gasnett_threadkey_get(key) gasnetti_threadkey_get(&(key))
#define gasnett_threadkey_set(key, newvalue) gasnetti_threadkey_set(&(key), (newvalue))
#define gasnett_threadkey_get_noinit(key) gasnetti_threadkey_get(&(key))
#define gasnett_threadkey_set_noinit(key, newvalue) gasnetti_threadkey_set(&(key), (newvalue))
#define gasnett_threadkey_init(key) gasnetti_threadkey_init(&(key))

GASNETT_END_EXTERNC

#endif /* GASNET_TOOLS_THREAD_H */

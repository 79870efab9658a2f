/* testmisc.c: the small parts of the core API.
 *   - gasnet_ErrorName / gasnet_ErrorDesc for every error code
 *   - gasnet_getenv of a variable set before gasnet_init, on every node
 *   - gasnet_set_waitmode: each mode works, a bad one is refused
 *   - the configuration, conduit and version macros, the thread-info macros
 *   - handler-safe locks: lock, trylock, unlock, also inside handlers */
#include "test.h"

#ifdef GASNET_PAR
#include <pthread.h>
#endif

/* ------------------------------------------------------------ compile-time */

#if !defined(GASNET_RELEASE_VERSION_MAJOR) || !defined(GASNET_RELEASE_VERSION_MINOR) || \
    !defined(GASNET_RELEASE_VERSION_PATCH)
#error "GASNET_RELEASE_VERSION_MAJOR/MINOR/PATCH missing"
#endif
#if GASNET_RELEASE_VERSION_MAJOR != 1 || GASNET_RELEASE_VERSION_MINOR < 18
#error "GASNet-1 clients need a 1.x release of at least 1.18"
#endif
#if !defined(GASNET_SPEC_VERSION_MAJOR) || !defined(GASNET_SPEC_VERSION_MINOR)
#error "GASNET_SPEC_VERSION_MAJOR/MINOR missing"
#endif
#if !defined(GASNET_CONFIG_STRING) || !defined(GASNET_CONDUIT_NAME_STR) || \
    !defined(GASNET_CORE_NAME) || !defined(GASNET_CORE_VERSION)
#error "a configuration macro is missing"
#endif
#if !defined(GASNET_MAXNODES) || !defined(GASNET_PAGESIZE)
#error "GASNET_MAXNODES or GASNET_PAGESIZE missing"
#endif
#if defined(GASNET_SEQ) + defined(GASNET_PARSYNC) + defined(GASNET_PAR) != 1
#error "exactly one thread mode must be defined after including gasnet.h"
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *const config_string = GASNET_CONFIG_STRING;
static const char *const conduit_name = GASNET_CONDUIT_NAME_STR;
static const char *const core_name = STR(GASNET_CORE_NAME);
static const char *const core_version = STR(GASNET_CORE_VERSION);

static void check_macros(void) {
  TEST_CHECK(config_string[0] != '\0', "GASNET_CONFIG_STRING is empty");
  TEST_CHECK(conduit_name[0] != '\0' && core_name[0] != '\0' && core_version[0] != '\0',
             "conduit name '%s', core '%s', version '%s'", conduit_name, core_name, core_version);
  TEST_CHECK(GASNET_SPEC_VERSION_MAJOR == 1, "spec version %d.%d", GASNET_SPEC_VERSION_MAJOR,
             GASNET_SPEC_VERSION_MINOR);
  TEST_CHECK((GASNET_PAGESIZE & (GASNET_PAGESIZE - 1)) == 0, "GASNET_PAGESIZE %ld",
             (long)GASNET_PAGESIZE);
  TEST_CHECK(GASNET_MAXNODES >= TEST_NODES, "GASNET_MAXNODES %ld < %u nodes", (long)GASNET_MAXNODES,
             (unsigned)TEST_NODES);
  TEST_CHECK(gasnet_AMMaxArgs() >= 16, "gasnet_AMMaxArgs() is %zu", gasnet_AMMaxArgs());
  /* GASNet-1's minimums; a Long limit may be below the Medium one. */
  TEST_CHECK(gasnet_AMMaxMedium() >= 512, "gasnet_AMMaxMedium() is %zu", gasnet_AMMaxMedium());
  TEST_CHECK(gasnet_AMMaxLongRequest() >= 512 && gasnet_AMMaxLongReply() >= 512,
             "Long limits %zu/%zu below 512 bytes", gasnet_AMMaxLongRequest(),
             gasnet_AMMaxLongReply());
  test_print0("testmisc: %s / conduit %s, core %s %s, release %d.%d.%d, spec %d.%d\n",
              config_string, conduit_name, core_name, core_version, GASNET_RELEASE_VERSION_MAJOR,
              GASNET_RELEASE_VERSION_MINOR, GASNET_RELEASE_VERSION_PATCH, GASNET_SPEC_VERSION_MAJOR,
              GASNET_SPEC_VERSION_MINOR);
}

/* The thread-info macros must compile in the places clients put them. */
static int threadinfo_user(void) {
  GASNET_BEGIN_FUNCTION();
  gasnet_threadinfo_t ti = GASNET_GET_THREADINFO();
  GASNET_POST_THREADINFO(ti);
  return 1;
}

/* ------------------------------------------------------------ errors */

static void check_errors(void) {
  static const struct {
    int code;
    const char *name;
  } codes[] = {
      {GASNET_OK, "GASNET_OK"},
      {GASNET_ERR_NOT_INIT, "GASNET_ERR_NOT_INIT"},
      {GASNET_ERR_RESOURCE, "GASNET_ERR_RESOURCE"},
      {GASNET_ERR_BAD_ARG, "GASNET_ERR_BAD_ARG"},
      {GASNET_ERR_NOT_READY, "GASNET_ERR_NOT_READY"},
      {GASNET_ERR_BARRIER_MISMATCH, "GASNET_ERR_BARRIER_MISMATCH"},
  };
  const int n = (int)(sizeof codes / sizeof codes[0]);
  for (int i = 0; i < n; i++) {
    const char *name = gasnet_ErrorName(codes[i].code);
    const char *desc = gasnet_ErrorDesc(codes[i].code);
    TEST_CHECK(name && !strcmp(name, codes[i].name), "gasnet_ErrorName(%d) is '%s', expected '%s'",
               codes[i].code, name ? name : "(null)", codes[i].name);
    TEST_CHECK(desc && desc[0], "gasnet_ErrorDesc(%s) is empty", codes[i].name);
    for (int j = 0; j < i; j++)
      TEST_CHECK(strcmp(desc, gasnet_ErrorDesc(codes[j].code)) != 0,
                 "%s and %s have the same description '%s'", codes[i].name, codes[j].name, desc);
  }
  TEST_CHECK(GASNET_ERR_NOT_INIT == GASNET_ERR_RAW_BASE + 1, "GASNet-1 error numbering changed");
  /* Unknown codes still get printable text. */
  TEST_CHECK(gasnet_ErrorName(12345) != NULL && gasnet_ErrorDesc(12345) != NULL,
             "no text for an unknown error code");
}

/* ------------------------------------------------------------ environment */

#define ENV_NAME "GASNET_TESTMISC_VALUE"
#define ENV_VALUE "value with spaces=and;punctuation"

static void check_getenv(void) {
  const char *v = gasnet_getenv(ENV_NAME);
  TEST_CHECK(v != NULL, "gasnet_getenv(%s) is NULL", ENV_NAME);
  TEST_CHECK(!strcmp(v, ENV_VALUE), "gasnet_getenv(%s) is '%s', expected '%s'", ENV_NAME, v,
             ENV_VALUE);
  TEST_CHECK(gasnet_getenv("GASNET_TESTMISC_SURELY_UNSET") == NULL,
             "gasnet_getenv of an unset variable is not NULL");
}

/* ------------------------------------------------------------ wait modes */

static void check_waitmodes(void) {
  static const int modes[] = {GASNET_WAIT_SPIN, GASNET_WAIT_BLOCK, GASNET_WAIT_SPINBLOCK};
  for (int i = 0; i < 3; i++) {
    GASNET_Safe(gasnet_set_waitmode(modes[i]));
    test_barrier(); /* communication still works in this mode */
  }
  int rc = gasnet_set_waitmode(99);
  TEST_CHECK(rc == GASNET_ERR_BAD_ARG, "gasnet_set_waitmode(99) returned %s", gasnet_ErrorName(rc));
  rc = gasnet_set_waitmode(-1);
  TEST_CHECK(rc == GASNET_ERR_BAD_ARG, "gasnet_set_waitmode(-1) returned %s", gasnet_ErrorName(rc));
  test_barrier();
}

/* ------------------------------------------------------------ HSLs */

static gasnet_hsl_t static_lock = GASNET_HSL_INITIALIZER;
static gasnet_hsl_t handler_lock;
static int handler_count;
enum { H_LOCKED_INC = TEST_HIDX_FIRST, H_LOCKED_ACK };

static void locked_inc_handler(gasnet_token_t token) {
  gasnet_hsl_lock(&handler_lock);
  handler_count++;
  gasnet_hsl_unlock(&handler_lock);
  GASNET_Safe(gasnet_AMReplyShort0(token, H_LOCKED_ACK));
}

static int acks;
static void locked_ack_handler(gasnet_token_t token) {
  (void)token;
  __atomic_fetch_add(&acks, 1, __ATOMIC_ACQ_REL);
}

#ifdef GASNET_PAR
/* While another thread holds the lock, trylock must refuse. */
static void *try_held_lock(void *arg) {
  int rc = gasnet_hsl_trylock((gasnet_hsl_t *)arg);
  return (void *)(intptr_t)rc;
}

static void check_trylock_contended(gasnet_hsl_t *l) {
  pthread_t t;
  void *res;
  gasnet_hsl_lock(l);
  TEST_CHECK(pthread_create(&t, NULL, try_held_lock, l) == 0, "pthread_create failed");
  TEST_CHECK(pthread_join(t, &res) == 0, "pthread_join failed");
  gasnet_hsl_unlock(l);
  TEST_CHECK((intptr_t)res == GASNET_ERR_NOT_READY, "trylock of a held lock returned %s",
             gasnet_ErrorName((int)(intptr_t)res));
}
#endif

static void check_hsl(void) {
  gasnet_hsl_t dyn;
  gasnet_hsl_init(&dyn);
  gasnet_hsl_t *locks[] = {&static_lock, &dyn};
  for (int i = 0; i < 2; i++) {
    gasnet_hsl_lock(locks[i]);
    gasnet_hsl_unlock(locks[i]);
    int rc = gasnet_hsl_trylock(locks[i]);
    TEST_CHECK(rc == GASNET_OK, "trylock of a free lock returned %s", gasnet_ErrorName(rc));
    gasnet_hsl_unlock(locks[i]);
#ifdef GASNET_PAR
    check_trylock_contended(locks[i]);
#endif
  }
  gasnet_hsl_destroy(&dyn);

  /* Handlers take a lock: every node increments every node's counter. */
  for (gasnet_node_t d = 0; d < TEST_NODES; d++)
    GASNET_Safe(gasnet_AMRequestShort0(d, H_LOCKED_INC));
  GASNET_BLOCKUNTIL(__atomic_load_n(&acks, __ATOMIC_ACQUIRE) >= (int)TEST_NODES);
  test_barrier();
  TEST_CHECK(__atomic_load_n(&acks, __ATOMIC_ACQUIRE) == (int)TEST_NODES,
             "%d replies for %u requests", __atomic_load_n(&acks, __ATOMIC_ACQUIRE),
             (unsigned)TEST_NODES);
  gasnet_hsl_lock(&handler_lock);
  int count = handler_count;
  gasnet_hsl_unlock(&handler_lock);
  TEST_CHECK(count == (int)TEST_NODES, "locked counter is %d, expected %u", count,
             (unsigned)TEST_NODES);
}

static gasnet_handlerentry_t handlers[] = {
    {H_LOCKED_INC, (void (*)())locked_inc_handler},
    {H_LOCKED_ACK, (void (*)())locked_ack_handler},
};

int main(int argc, char **argv) {
  /* Before gasnet_init, so every node starts with it in its environment. */
  TEST_CHECK(setenv(ENV_NAME, ENV_VALUE, 1) == 0, "setenv failed");
  /* Names and descriptions need no initialisation. */
  check_errors();
  gasnet_hsl_init(&handler_lock);
  test_init_handlers(&argc, &argv, 0, handlers, 2);
  check_macros();
  TEST_CHECK(threadinfo_user(), "unreachable");
  check_getenv();
  check_waitmodes();
  check_hsl();
  test_finish("testmisc");
}

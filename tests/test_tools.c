/* test_tools.c: checks the gasnet_tools.h facilities, single process.
 * Exit status 0 when every check passed; each failed check is printed. */
#define _POSIX_C_SOURCE 200809L

#include <gasnet_tools.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int checks_passed = 0, checks_failed = 0;

static void check(int ok, const char *what, const char *file, int line) {
  if (ok) {
    checks_passed++;
  } else {
    checks_failed++;
    printf("FAILED %s:%d: %s\n", file, line, what);
    fflush(stdout);
  }
}
#define CHECK(cond) check(!!(cond), #cond, __FILE__, __LINE__)

/* ------------------------------------------------------------ atomics */
static gasnett_atomic_t static_atomic = gasnett_atomic_init(42);
static gasnett_atomic32_t static_atomic32 = gasnett_atomic32_init(7);
static gasnett_atomic64_t static_atomic64 = gasnett_atomic64_init(UINT64_C(1) << 40);

/* Every flag combination a client may pass, so each ordering path runs. */
static const int all_flags[] = {
    0,
    GASNETT_ATOMIC_ACQ,
    GASNETT_ATOMIC_REL,
    GASNETT_ATOMIC_ACQ | GASNETT_ATOMIC_REL,
    GASNETT_ATOMIC_MB_PRE,
    GASNETT_ATOMIC_MB_POST,
    GASNETT_ATOMIC_MB_PRE | GASNETT_ATOMIC_MB_POST,
    GASNETT_ATOMIC_RMB_PRE,
    GASNETT_ATOMIC_WMB_POST,
    GASNETT_ATOMIC_ACQ_IF_TRUE,
    GASNETT_ATOMIC_ACQ_IF_FALSE,
    GASNETT_ATOMIC_REL | GASNETT_ATOMIC_ACQ_IF_TRUE,
};
#define NFLAGS ((int)(sizeof(all_flags) / sizeof(all_flags[0])))

static void test_atomics_values(void) {
  int i;
  gasnett_atomic_t a = gasnett_atomic_init(5);
  gasnett_atomic64_t b = gasnett_atomic64_init(0);

  CHECK(gasnett_atomic_read(&static_atomic, 0) == 42);
  CHECK(gasnett_atomic32_read(&static_atomic32, 0) == 7);
  CHECK(gasnett_atomic64_read(&static_atomic64, 0) == (UINT64_C(1) << 40));

  for (i = 0; i < NFLAGS; i++) {
    const int f = all_flags[i];
    gasnett_atomic_set(&a, 5, f);
    CHECK(gasnett_atomic_read(&a, f) == 5);
    CHECK(gasnett_atomic_add(&a, 3, f) == 8);
    CHECK(gasnett_atomic_subtract(&a, 2, f) == 6);
    gasnett_atomic_increment(&a, f);
    CHECK(gasnett_atomic_read(&a, f) == 7);
    gasnett_atomic_decrement(&a, f);
    CHECK(gasnett_atomic_read(&a, f) == 6);
    CHECK(gasnett_atomic_swap(&a, 9, f) == 6);
    CHECK(gasnett_atomic_compare_and_swap(&a, 9, 11, f));
    CHECK(!gasnett_atomic_compare_and_swap(&a, 9, 12, f));
    CHECK(gasnett_atomic_read(&a, f) == 11);
    gasnett_atomic_set(&a, 2, f);
    CHECK(!gasnett_atomic_decrement_and_test(&a, f));
    CHECK(gasnett_atomic_decrement_and_test(&a, f));

    gasnett_atomic64_set(&b, UINT64_C(0x100000000), f);
    CHECK(gasnett_atomic64_read(&b, f) == UINT64_C(0x100000000));
    /* a CAS that looked at 32 bits only would succeed here */
    CHECK(!gasnett_atomic64_compare_and_swap(&b, 0, 1, f));
    CHECK(gasnett_atomic64_compare_and_swap(&b, UINT64_C(0x100000000), UINT64_C(0x200000001), f));
    CHECK(gasnett_atomic64_add(&b, UINT64_C(0x100000000), f) == UINT64_C(0x300000001));
    CHECK(gasnett_atomic64_subtract(&b, 1, f) == UINT64_C(0x300000000));
    CHECK(gasnett_atomic64_swap(&b, 3, f) == UINT64_C(0x300000000));
    gasnett_atomic64_increment(&b, f);
    gasnett_atomic64_decrement(&b, f);
    CHECK(!gasnett_atomic64_decrement_and_test(&b, f));
    CHECK(!gasnett_atomic64_decrement_and_test(&b, f));
    CHECK(gasnett_atomic64_decrement_and_test(&b, f));

    gasnett_atomic32_set(&static_atomic32, 1, f);
    CHECK(gasnett_atomic32_add(&static_atomic32, 1, f) == 2);
    CHECK(gasnett_atomic32_subtract(&static_atomic32, 1, f) == 1);
    CHECK(gasnett_atomic32_swap(&static_atomic32, 4, f) == 1);
    CHECK(gasnett_atomic32_compare_and_swap(&static_atomic32, 4, 5, f));
    gasnett_atomic32_increment(&static_atomic32, f);
    gasnett_atomic32_decrement(&static_atomic32, f);
    CHECK(!gasnett_atomic32_decrement_and_test(&static_atomic32, f));
  }

  /* wraparound, both widths */
  gasnett_atomic_set(&a, 0, 0);
  gasnett_atomic_decrement(&a, 0);
  CHECK(gasnett_atomic_read(&a, 0) == GASNETT_ATOMIC_MAX);
  CHECK(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)) == -1);
  CHECK(gasnett_atomic_signed(0x80000000u) == GASNETT_ATOMIC_SIGNED_MIN);
  CHECK(gasnett_atomic_signed(5) == 5);
  gasnett_atomic_increment(&a, 0);
  CHECK(gasnett_atomic_read(&a, 0) == 0);
  gasnett_atomic64_set(&b, UINT64_MAX, 0);
  gasnett_atomic64_increment(&b, 0);
  CHECK(gasnett_atomic64_read(&b, 0) == 0);
  CHECK(gasnett_atomic64_subtract(&b, 1, 0) == UINT64_MAX);
  CHECK(gasnett_atomic64_add(&b, 2, 0) == 1);

  gasnett_local_mb();
  gasnett_local_rmb();
  gasnett_local_wmb();
  gasnett_compiler_fence();
  CHECK(GASNETT_HAVE_ATOMIC_CAS == 1 && GASNETT_HAVE_ATOMIC_ADD_SUB == 1);
#ifdef GASNETT_USING_GENERIC_ATOMICOPS
  CHECK(!"GASNETT_USING_GENERIC_ATOMICOPS must be left undefined");
#endif
}

#define NTHREADS 4
#define HAMMER_ITERS 100000

static gasnett_atomic_t hammer_inc = gasnett_atomic_init(0);
static gasnett_atomic_t hammer_cas = gasnett_atomic_init(0);
static gasnett_atomic_t hammer_down = gasnett_atomic_init(NTHREADS * HAMMER_ITERS);
static gasnett_atomic_t hammer_zero_seen = gasnett_atomic_init(0);
static gasnett_atomic64_t hammer_wide = gasnett_atomic64_init(0);
static const uint64_t hammer_wide_step = (UINT64_C(1) << 33) + 1;

static void *hammer_thread(void *arg) {
  int i;
  (void)arg;
  for (i = 0; i < HAMMER_ITERS; i++) {
    uint32_t old;
    gasnett_atomic_increment(&hammer_inc, 0);
    gasnett_atomic64_add(&hammer_wide, hammer_wide_step, 0);
    do {
      old = gasnett_atomic_read(&hammer_cas, 0);
    } while (!gasnett_atomic_compare_and_swap(&hammer_cas, old, old + 1, GASNETT_ATOMIC_ACQ));
    if (gasnett_atomic_decrement_and_test(&hammer_down, GASNETT_ATOMIC_REL))
      gasnett_atomic_increment(&hammer_zero_seen, 0);
  }
  return NULL;
}

static void test_atomics_threads(void) {
  pthread_t t[NTHREADS];
  int i;
  for (i = 0; i < NTHREADS; i++) CHECK(pthread_create(&t[i], NULL, hammer_thread, NULL) == 0);
  for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(t[i], NULL) == 0);
  CHECK(gasnett_atomic_read(&hammer_inc, 0) == NTHREADS * HAMMER_ITERS);
  CHECK(gasnett_atomic_read(&hammer_cas, 0) == NTHREADS * HAMMER_ITERS);
  CHECK(gasnett_atomic_read(&hammer_down, 0) == 0);
  CHECK(gasnett_atomic_read(&hammer_zero_seen, 0) == 1);
  CHECK(gasnett_atomic64_read(&hammer_wide, 0) == hammer_wide_step * NTHREADS * HAMMER_ITERS);
}

/* ------------------------------------------------------------ timers */
static void test_timers(void) {
  const struct timespec twenty_ms = {0, 20 * 1000 * 1000};
  gasnett_tick_t t0, t1, prev;
  uint64_t tod0, tod1, us, ns;
  double gran, over;
  int i, monotonic = 1;

  tod0 = gasnett_gettimeofday_us();
  t0 = gasnett_ticks_now();
  nanosleep(&twenty_ms, NULL);
  t1 = gasnett_ticks_now();
  tod1 = gasnett_gettimeofday_us();
  CHECK(t1 > t0);
  us = gasnett_ticks_to_us(t1 - t0);
  ns = gasnett_ticks_to_ns(t1 - t0);
  /* A sleep lasts at least what was asked; allow a loaded machine 2 s. */
  CHECK(us >= 19900 && us < 2000000);
  CHECK(ns / 1000 == us);
  CHECK(tod1 - tod0 >= 19000 && tod1 - tod0 < 2100000);
  /* the two clocks agree on the interval to within 10 ms */
  CHECK((us > tod1 - tod0 ? us - (tod1 - tod0) : (tod1 - tod0) - us) < 10000);

  prev = gasnett_ticks_now();
  for (i = 0; i < 100000; i++) {
    const gasnett_tick_t now = gasnett_ticks_now();
    if (now < prev) monotonic = 0;
    prev = now;
  }
  CHECK(monotonic);
  CHECK(GASNETT_TICK_MIN < GASNETT_TICK_MAX);

  gran = gasnett_tick_granularityus();
  over = gasnett_tick_overheadus();
  CHECK(gran > 0.0 && gran < 1000.0);
  CHECK(over > 0.0 && over < 100.0);
  CHECK(gasnett_tick_granularityus() == gran); /* cached */
#ifdef GASNETT_USING_GETTIMEOFDAY
  CHECK(!"GASNETT_USING_GETTIMEOFDAY must be left undefined");
#endif
}

/* ------------------------------------------------------------ locks */
static gasnett_mutex_t pp_lock = GASNETT_MUTEX_INITIALIZER;
static gasnett_cond_t pp_cond = GASNETT_COND_INITIALIZER;
static int pp_turn = 0;   /* 0: main's turn, 1: the partner's */
static int pp_rounds = 0; /* handoffs completed by the partner */
#define PP_ROUNDS 1000

static void *pingpong_partner(void *arg) {
  int i;
  (void)arg;
  for (i = 0; i < PP_ROUNDS; i++) {
    gasnett_mutex_lock(&pp_lock);
    while (pp_turn != 1) gasnett_cond_wait(&pp_cond, &pp_lock);
    pp_rounds++;
    pp_turn = 0;
    gasnett_cond_broadcast(&pp_cond);
    gasnett_mutex_unlock(&pp_lock);
  }
  return NULL;
}

static void *trylock_other_thread(void *arg) {
  int *result = (int *)arg;
  *result = gasnett_mutex_trylock(&pp_lock);
  if (*result == 0) gasnett_mutex_unlock(&pp_lock);
  return NULL;
}

static gasnett_rwlock_t rw = GASNETT_RWLOCK_INITIALIZER;
static int rw_a = 0, rw_b = 0; /* equal whenever a reader looks */
static gasnett_atomic_t rw_torn = gasnett_atomic_init(0);

static void *rw_thread(void *arg) {
  const int writer = (int)(intptr_t)arg;
  int i;
  for (i = 0; i < 20000; i++) {
    if (writer) {
      gasnett_rwlock_wrlock(&rw);
      rw_a++;
      rw_b++;
      gasnett_rwlock_unlock(&rw);
    } else {
      gasnett_rwlock_rdlock(&rw);
      if (rw_a != rw_b) gasnett_atomic_increment(&rw_torn, 0);
      gasnett_rwlock_unlock(&rw);
    }
  }
  return NULL;
}

static void test_locks(void) {
  pthread_t t[NTHREADS];
  gasnett_mutex_t m;
  gasnett_cond_t c;
  gasnett_rwlock_t l;
  int i, other_result = -1;

  CHECK(pthread_create(&t[0], NULL, pingpong_partner, NULL) == 0);
  for (i = 0; i < PP_ROUNDS; i++) {
    gasnett_mutex_lock(&pp_lock);
    while (pp_turn != 0) gasnett_cond_wait(&pp_cond, &pp_lock);
    pp_turn = 1;
    gasnett_cond_signal(&pp_cond);
    gasnett_mutex_unlock(&pp_lock);
  }
  gasnett_mutex_lock(&pp_lock);
  while (pp_turn != 0) gasnett_cond_wait(&pp_cond, &pp_lock);
  gasnett_mutex_unlock(&pp_lock);
  CHECK(pthread_join(t[0], NULL) == 0);
  CHECK(pp_rounds == PP_ROUNDS);

  gasnett_mutex_lock(&pp_lock);
  CHECK(pthread_create(&t[0], NULL, trylock_other_thread, &other_result) == 0);
  CHECK(pthread_join(t[0], NULL) == 0);
  CHECK(other_result == EBUSY);
  gasnett_mutex_unlock(&pp_lock);
  CHECK(gasnett_mutex_trylock(&pp_lock) == 0);
  gasnett_mutex_unlock(&pp_lock);

  gasnett_mutex_init(&m);
  gasnett_cond_init(&c);
  gasnett_mutex_lock(&m);
  gasnett_cond_broadcast(&c);
  gasnett_mutex_unlock(&m);
  gasnett_cond_destroy(&c);
  gasnett_mutex_destroy(&m);

  gasnett_rwlock_init(&l);
  gasnett_rwlock_rdlock(&l);
  CHECK(gasnett_rwlock_tryrdlock(&l) == 0); /* readers share */
  CHECK(gasnett_rwlock_trywrlock(&l) == EBUSY);
  gasnett_rwlock_unlock(&l);
  gasnett_rwlock_unlock(&l);
  CHECK(gasnett_rwlock_trywrlock(&l) == 0);
  CHECK(gasnett_rwlock_tryrdlock(&l) == EBUSY);
  CHECK(gasnett_rwlock_trywrlock(&l) == EBUSY);
  gasnett_rwlock_unlock(&l);
  gasnett_rwlock_wrlock(&l);
  gasnett_rwlock_unlock(&l);
  gasnett_rwlock_destroy(&l);

  for (i = 0; i < NTHREADS; i++)
    CHECK(pthread_create(&t[i], NULL, rw_thread, (void *)(intptr_t)(i % 2)) == 0);
  for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(t[i], NULL) == 0);
  CHECK(gasnett_atomic_read(&rw_torn, 0) == 0);
  CHECK(rw_a == 20000 * (NTHREADS / 2) && rw_b == rw_a);
}

/* ------------------------------------------------------------ thread keys */
GASNETT_THREADKEY_DECLARE(test_key);
GASNETT_THREADKEY_DEFINE(test_key);
static GASNETT_THREADKEY_DEFINE(test_static_key);
static gasnett_atomic_t key_arrived = gasnett_atomic_init(0);
static gasnett_atomic_t key_errors = gasnett_atomic_init(0);

static void *key_thread(void *arg) {
  int mine = 0;
  (void)arg;
  gasnett_threadkey_init(test_key);
  if (gasnett_threadkey_get(test_key) != NULL) gasnett_atomic_increment(&key_errors, 0);
  if (gasnett_threadkey_get_noinit(test_static_key) != NULL)
    gasnett_atomic_increment(&key_errors, 0);
  gasnett_threadkey_set(test_key, &mine);
  gasnett_threadkey_set_noinit(test_static_key, &mine);
  /* every thread has set its key before any checks its own */
  gasnett_atomic_increment(&key_arrived, GASNETT_ATOMIC_REL);
  while (gasnett_atomic_read(&key_arrived, GASNETT_ATOMIC_ACQ) < NTHREADS) gasnett_sched_yield();
  if (gasnett_threadkey_get(test_key) != &mine) gasnett_atomic_increment(&key_errors, 0);
  if (gasnett_threadkey_get_noinit(test_static_key) != &mine)
    gasnett_atomic_increment(&key_errors, 0);
  return NULL;
}

static void test_threadkeys(void) {
  pthread_t t[NTHREADS];
  int i, main_value = 0;
  gasnett_threadkey_set(test_key, &main_value);
  for (i = 0; i < NTHREADS; i++) CHECK(pthread_create(&t[i], NULL, key_thread, NULL) == 0);
  for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(t[i], NULL) == 0);
  CHECK(gasnett_atomic_read(&key_errors, 0) == 0);
  CHECK(gasnett_threadkey_get(test_key) == &main_value);
}

/* ------------------------------------------------------------ child processes */
/* Runs fn in a child with stderr captured; returns the wait status and
 * leaves the child's stderr in out. */
static int run_child(void (*fn)(void), char *out, size_t outsz) {
  int fds[2], status = -1;
  size_t got = 0;
  pid_t pid;
  fflush(stdout);
  fflush(stderr);
  if (pipe(fds) != 0) return -1;
  pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    fn();
    _exit(0);
  }
  close(fds[1]);
  for (;;) {
    const ssize_t n = read(fds[0], out + got, outsz - 1 - got);
    if (n <= 0) break;
    got += (size_t)n;
  }
  out[got] = '\0';
  close(fds[0]);
  waitpid(pid, &status, 0);
  return status;
}

static int aborted(int status) { return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT; }

static void child_bad_env_int(void) {
  gasnett_setenv("GASNETT_TEST_BAD", "4Q");
  (void)gasnett_getenv_int_withdefault("GASNETT_TEST_BAD", 0, 1);
}
static void child_suffix_not_allowed(void) { (void)gasnett_parse_int("4K", 0); }
static void child_bad_yesno(void) {
  gasnett_setenv("GASNETT_TEST_BAD", "maybe");
  (void)gasnett_getenv_yesno_withdefault("GASNETT_TEST_BAD", 0);
}
/* GASNET_VERBOSEENV is read once per process, and this one has read it
 * already: the child starts this program afresh to see it. */
static const char *self_path;
#define VERBOSE_CHILD_ARG "--verboseenv-child"
static void child_verbose(void) {
  gasnett_setenv("GASNET_VERBOSEENV", "1");
  gasnett_setenv("GASNETT_TEST_SHOWN", "64K");
  execl("/proc/self/exe", self_path, VERBOSE_CHILD_ARG, (char *)NULL);
  execl(self_path, self_path, VERBOSE_CHILD_ARG, (char *)NULL); /* no /proc */
  _exit(99);
}
static int verbose_child_main(void) {
  (void)gasnett_getenv_int_withdefault("GASNETT_TEST_SHOWN", 0, 1);
  (void)gasnett_getenv_int_withdefault("GASNETT_TEST_SHOWN", 0, 1); /* shown once */
  return gasnett_verboseenv() ? 0 : 3;
}
static void child_fatal(void) {
  gasnett_unsetenv("GASNET_BACKTRACE");
  gasnett_fatalerror("boom %d", 42);
}
static void child_kill(void) { gasnett_killmyprocess(7); }

/* ------------------------------------------------------------ environment */
static int64_t env_int(const char *value, uint64_t mult) {
  gasnett_setenv("GASNETT_TEST_INT", value);
  return gasnett_getenv_int_withdefault("GASNETT_TEST_INT", -99, mult);
}

static int env_yesno(const char *value, int dflt) {
  gasnett_setenv("GASNETT_TEST_YN", value);
  return gasnett_getenv_yesno_withdefault("GASNETT_TEST_YN", dflt);
}

static void test_env(void) {
  char out[4096];
  const char *s;
  int status;

  CHECK(env_int("4K", 1) == 4096);
  CHECK(env_int("2M", 1) == 2097152);
  CHECK(env_int("1G", 1) == (INT64_C(1) << 30));
  CHECK(env_int("3t", 1) == (INT64_C(3) << 40));
  CHECK(env_int("4KB", 1) == 4096);
  CHECK(env_int("1.5K", 1) == 1536);
  CHECK(env_int("100B", 1) == 100);
  CHECK(env_int("3", UINT64_C(1) << 20) == 3 * 1048576); /* bare number in the default unit */
  CHECK(env_int("  12  ", 0) == 12);
  CHECK(env_int("-3", 0) == -3);
  CHECK(env_int("0x10", 0) == 16);
  CHECK(env_int("", 0) == -99);
  gasnett_unsetenv("GASNETT_TEST_INT");
  CHECK(gasnett_getenv("GASNETT_TEST_INT") == NULL);
  CHECK(gasnett_getenv_int_withdefault("GASNETT_TEST_INT", 77, 1) == 77);
  CHECK(gasnett_parse_int("123", 0) == 123);
  CHECK(gasnett_parse_int("8M", 1) == 8388608);
  CHECK(gasnett_parse_int(NULL, 0) == 0);

  gasnett_setenv("GASNETT_TEST_STR", "hello");
  s = gasnett_getenv("GASNETT_TEST_STR");
  CHECK(s && !strcmp(s, "hello"));

  CHECK(env_yesno("yes", 0) == 1);
  CHECK(env_yesno("Y", 0) == 1);
  CHECK(env_yesno("1", 0) == 1);
  CHECK(env_yesno("NO", 1) == 0);
  CHECK(env_yesno("n", 1) == 0);
  CHECK(env_yesno("0", 1) == 0);
  CHECK(env_yesno("", 1) == 1);
  gasnett_unsetenv("GASNETT_TEST_YN");
  CHECK(gasnett_getenv_yesno_withdefault("GASNETT_TEST_YN", 1) == 1);
  CHECK(gasnett_getenv_yesno_withdefault("GASNETT_TEST_YN", 0) == 0);

  status = run_child(child_bad_env_int, out, sizeof(out));
  CHECK(aborted(status) && strstr(out, "GASNETT_TEST_BAD") && strstr(out, "4Q"));
  status = run_child(child_suffix_not_allowed, out, sizeof(out));
  CHECK(aborted(status) && strstr(out, "4K"));
  status = run_child(child_bad_yesno, out, sizeof(out));
  CHECK(aborted(status) && strstr(out, "maybe"));
  status = run_child(child_verbose, out, sizeof(out));
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  s = strstr(out, "ENV parameter: GASNETT_TEST_SHOWN");
  CHECK(s && strstr(s, "65536") && !strstr(s + 1, "ENV parameter: GASNETT_TEST_SHOWN"));
}

/* ------------------------------------------------------------ system */
static volatile sig_atomic_t got_signal = 0;
static void on_usr1(int sig) { got_signal = sig; }

static int user_bt_calls = 0;
static int user_backtrace(int fd) {
  static const char msg[] = "USER-BACKTRACE-HOOK\n";
  user_bt_calls++;
  return write(fd, msg, sizeof(msg) - 1) == (ssize_t)(sizeof(msg) - 1) ? 0 : 1;
}

static void test_system(const char *argv0) {
  char host[256], out[8192];
  int status, fds[2];
  ssize_t n;
  gasnett_sighandlerfn_t old;

  CHECK(gasnett_cpu_count() > 0);
  CHECK(gasnett_gethostname() != NULL && gasnett_gethostname()[0] != '\0');
  CHECK(gethostname(host, sizeof(host)) == 0 && !strcmp(host, gasnett_gethostname()));
  CHECK(gasnett_sched_yield() == 0);
  CHECK(gasnett_performance_warning_str() != NULL);
  gasnett_flush_streams();

  old = gasnett_reghandler(SIGUSR1, on_usr1);
  CHECK(old == SIG_DFL);
  raise(SIGUSR1);
  CHECK(got_signal == SIGUSR1);
  CHECK(gasnett_reghandler(SIGUSR1, old) == on_usr1);

  status = run_child(child_fatal, out, sizeof(out));
  CHECK(aborted(status) && strstr(out, "*** FATAL ERROR: boom 42"));
  status = run_child(child_kill, out, sizeof(out));
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);

  CHECK(gasnett_backtrace_init(argv0) == 1);
  CHECK(pipe(fds) == 0);
  CHECK(gasnett_print_backtrace(fds[1]) == 0);
  close(fds[1]);
  n = read(fds[0], out, sizeof(out) - 1);
  close(fds[0]);
  CHECK(n > 0);

  gasnett_backtrace_user.name = "TEST";
  gasnett_backtrace_user.fnp = user_backtrace;
  gasnett_backtrace_user.threadsupport = 1;
  CHECK(pipe(fds) == 0);
  CHECK(gasnett_print_backtrace(fds[1]) == 0);
  close(fds[1]);
  n = read(fds[0], out, sizeof(out) - 1);
  close(fds[0]);
  out[n > 0 ? n : 0] = '\0';
  CHECK(user_bt_calls == 1 && strstr(out, "USER-BACKTRACE-HOOK"));
  gasnett_backtrace_user.fnp = NULL;
}

/* ------------------------------------------------------------ memory */
static void test_memory(void) {
  unsigned char buf[301], copy[301];
  size_t i, zeros = 0;

  CHECK(gasnett_checksum("abc", 3) == UINT64_C(0x616263));
  CHECK(gasnett_checksum("abc", 0) == 0);
  CHECK(gasnett_checksum("abcdefghij", 10) == gasnett_checksum("abcdefghij", 10));
  CHECK(gasnett_checksum("abcdefghij", 10) != gasnett_checksum("abcdefghji", 10));

  CHECK(gasnett_count0s_uint32_t(0) == 4);
  CHECK(gasnett_count0s_uint32_t(0xFFFFFFFFu) == 0);
  CHECK(gasnett_count0s_uint32_t(0x01000000u) == 3);
  CHECK(gasnett_count0s_uint32_t(0x00FF00FFu) == 2);
  CHECK(gasnett_count0s_uint32_t(0x80000001u) == 2);
  CHECK(gasnett_count0s_uint64_t(0) == 8);
  CHECK(gasnett_count0s_uint64_t(UINT64_C(1) << 63) == 7);
  CHECK(gasnett_count0s_uint64_t(UINT64_MAX) == 0);
  CHECK(gasnett_count0s_uint64_t(UINT64_C(0x0100000000001000)) == 6);

  for (i = 0; i < sizeof(buf); i++) {
    buf[i] = (unsigned char)((i % 7 == 0 || i % 11 == 3) ? 0 : (i | 1));
    zeros += (buf[i] == 0);
  }
  CHECK(gasnett_count0s(buf, sizeof(buf)) == zeros);
  CHECK(gasnett_count0s(buf + 1, sizeof(buf) - 1) == zeros - 1); /* buf[0] is zero */
  CHECK(gasnett_count0s(buf, 0) == 0);
  memset(copy, 0xAA, sizeof(copy));
  CHECK(gasnett_count0s_copy(copy, buf, sizeof(buf)) == zeros);
  CHECK(memcmp(copy, buf, sizeof(buf)) == 0);
}

/* ------------------------------------------------------------ macros */
GASNETT_INLINE(inline_twice) int inline_twice(int x) { return 2 * x; }

GASNETT_FORMAT_PRINTF(format_into, 2, 3,
static int format_into(char *buf, const char *fmt, ...));
static int format_into(char *buf, const char *fmt, ...) {
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsprintf(buf, fmt, ap);
  va_end(ap);
  return n;
}

static void never_returns(void) GASNETT_NORETURN;
GASNETT_NORETURNP(never_returns)
static void never_returns(void) { abort(); }

GASNETT_EXTERNC int test_externc_fn(void);
GASNETT_BEGIN_EXTERNC
int test_externc_fn(void) { return 3; }
GASNETT_END_EXTERNC

GASNETT_IDENT(test_tools_ident, "$GASNetTestIdent: test_tools $");

static void test_macros(void) {
  char buf[64];
  const char *file = "unset";
  unsigned int line = 99;
  int traced = 5;

  CHECK(inline_twice(21) == 42);
  CHECK(format_into(buf, "%d-%s", 7, "x") == 3 && !strcmp(buf, "7-x"));
  CHECK(!strcmp(GASNETT_CURRENT_FUNCTION, "test_macros"));
  CHECK(test_externc_fn() == 3);
  CHECK(strstr((const char *)test_tools_ident, "test_tools") != NULL);
  if (gasnett_atomic_read(&static_atomic, 0) == 12345) never_returns();

  CHECK(GASNETT_CACHE_LINE_BYTES == 64);
  CHECK(GASNETT_PAGESIZE == 4096);
  CHECK(GASNETT_MAX_THREADS > 0);
#ifdef GASNETT_CONFIGURE_MISMATCH
  CHECK(!"GASNETT_CONFIGURE_MISMATCH must be left undefined");
#endif
  CHECK(strlen(GASNETT_SYSTEM_TUPLE) > 0);
  CHECK(strstr(GASNETT_CONFIG_STRING, "RELEASE=") != NULL);
#if defined(GASNETT_THREAD_SAFE)
  CHECK(strstr(GASNETT_CONFIG_STRING, ",PAR,") != NULL);
#endif

  /* Every trace/stats macro in statement position, in both shapes. */
  GASNETT_TRACE_PRINTF("traced %d", traced);
  GASNETT_TRACE_PRINTF(("traced %d", traced));
  GASNETT_TRACE_PRINTF_FORCE("forced %d", traced);
  GASNETT_TRACE_PRINTF_FORCE(("forced %d", traced));
  GASNETT_TRACE_SETMASK("ABC");
  GASNETT_STATS_SETMASK("ABC");
  GASNETT_TRACE_SET_TRACELOCAL(1);
  GASNETT_TRACE_SETSOURCELINE(__FILE__, __LINE__);
  GASNETT_TRACE_FREEZESOURCELINE();
  GASNETT_TRACE_UNFREEZESOURCELINE();
  GASNETT_TRACE_GETSOURCELINE(&file, &line);
  CHECK(file == NULL && line == 0);
  CHECK(!strcmp(GASNETT_TRACE_GETMASK(), "") && !strcmp(GASNETT_STATS_GETMASK(), ""));
  CHECK(GASNETT_TRACE_GET_TRACELOCAL() == 0);
  if (GASNETT_TRACE_ENABLED) GASNETT_TRACE_PRINTF("never");
  else GASNETT_TRACE_PRINTF_FORCE("in an else branch");
#if GASNETT_TRACE_ENABLED
  CHECK(!"GASNETT_TRACE_ENABLED should be 0");
#endif
}

int main(int argc, char **argv) {
  self_path = argv[0];
  if (argc > 1 && !strcmp(argv[1], VERBOSE_CHILD_ARG)) return verbose_child_main();
  test_atomics_values();
  test_atomics_threads();
  test_timers();
  test_locks();
  test_threadkeys();
  test_env();
  test_system(argv[0]);
  test_memory();
  test_macros();
  printf("test_tools: %d passed, %d failed\n", checks_passed, checks_failed);
  return checks_failed == 0 ? 0 : 1;
}

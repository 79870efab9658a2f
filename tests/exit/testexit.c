/* testexit: one GASNet job per exit or fault scenario.
 *
 * Usage: testexit [-q CODE] MODE [ARGS]   (WHO is a node number taken modulo
 * the node count, or "last" for node N-1, so one command works at every
 * count)
 *
 *   -q CODE               every node installs a SIGQUIT handler (after
 *                         gasnet_init) that prints "QUIT node=I" and calls
 *                         gasnet_exit(CODE)
 *
 *   normal [NODES]        every node pings every node, meets in a barrier and
 *                         calls gasnet_exit(0); NODES: expected gasnet_nodes()
 *   exit CODE WHO block   WHO calls gasnet_exit(CODE) while the others sit in
 *                         a GASNET_BLOCKUNTIL whose condition never comes true
 *   exit CODE WHO compute the same, the others in a loop that never polls
 *   exit CODE WHO barrier the same, the others in a gasnet_barrier that WHO
 *                         never joins
 *   libcexit CODE WHO     WHO calls exit(CODE) (no gasnet_exit), others block
 *   return CODE [WHO]     WHO returns CODE from main, others block; without
 *                         WHO every node returns CODE after a barrier
 *   segv WHO | abort WHO  WHO dies of SIGSEGV / abort() while others block
 *   hang                  every node blocks until the job is killed
 *   preattach CODE WHO    WHO calls gasnet_exit(CODE) before gasnet_attach,
 *                         while the others are inside gasnet_attach (READY
 *                         lines are printed before attach in this mode)
 *   flush return|exit     (PAR build) a second thread of every node calls
 *                         gasnet_AMPoll in a loop; every node registers an
 *                         atexit handler printing "ATEXIT node=I", meets the
 *                         others in a barrier, prints "LINE node=I" (odd
 *                         nodes a few ms later) and returns 0 from main or
 *                         calls gasnet_exit(0): a collective exit in which
 *                         no line may be lost
 *
 * Every node prints "READY node=I nodes=N pid=P ppid=Q" once attached, and a
 * node about to cause the scenario's event prints "EVENT node=I ms=T" (T in
 * CLOCK_REALTIME milliseconds) so a driving script can time how long the job
 * takes to end after the event. A node that is still waiting after
 * DEADLINE_S seconds gives up with exit code 97: a broken library then fails
 * the test with a clear code instead of leaving processes behind. */
#define _POSIX_C_SOURCE 200809L
#include <gasnet.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { DEADLINE_S = 30, EXIT_GAVE_UP = 97, EXIT_USAGE = 96, EXIT_FAILED = 95 };

static int quit_code = -1; /* -q CODE */

enum {
  H_NOTIFY = 128, /* a node tells WHO it is about to wait */
  H_ARRIVE,       /* barrier arrival at node 0 */
  H_RELEASE,      /* barrier release from node 0 */
  H_PING,         /* connectivity check request */
  H_PONG          /* ... and its reply */
};

static volatile int notified, arrived, released, pongs;
static volatile int never_set; /* the flag blocked nodes wait on */
static double deadline;

#define CHECK(call)                                                              \
  do {                                                                           \
    int check_rc_ = (call);                                                      \
    if (check_rc_ != GASNET_OK) fail_call(__LINE__, #call, check_rc_);           \
  } while (0)

static void fail_call(int line, const char *what, int rc) {
  fprintf(stderr, "testexit: line %d: %s failed: %s (%s)\n", line, what,
          gasnet_ErrorName(rc), gasnet_ErrorDesc(rc));
  gasnet_exit(EXIT_FAILED);
}

static double mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long long realtime_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Part of every wait condition, so no wait outlives a broken library. */
static int gave_up(void) {
  if (mono_s() < deadline) return 0;
  fprintf(stderr, "testexit: node %u still waiting after %d s: the job should have ended\n",
          (unsigned)gasnet_mynode(), DEADLINE_S);
  _exit(EXIT_GAVE_UP);
}

/* ------------------------------------------------------------ handlers */
static void notify_handler(gasnet_token_t token) {
  (void)token;
  notified++;
}
static void arrive_handler(gasnet_token_t token) {
  (void)token;
  arrived++;
}
static void release_handler(gasnet_token_t token) {
  (void)token;
  released++;
}
static void ping_handler(gasnet_token_t token, gasnet_handlerarg_t src) {
  gasnet_node_t really;
  CHECK(gasnet_AMGetMsgSource(token, &really));
  if ((gasnet_node_t)src != really) {
    fprintf(stderr, "testexit: ping claims source %d, AMGetMsgSource says %u\n", (int)src,
            (unsigned)really);
    gasnet_exit(EXIT_FAILED);
  }
  CHECK(gasnet_AMReplyShort0(token, H_PONG));
}
static void pong_handler(gasnet_token_t token) {
  (void)token;
  pongs++;
}

static gasnet_handlerentry_t handlers[] = {
    {H_NOTIFY, (void (*)())notify_handler}, {H_ARRIVE, (void (*)())arrive_handler},
    {H_RELEASE, (void (*)())release_handler}, {H_PING, (void (*)())ping_handler},
    {H_PONG, (void (*)())pong_handler},
};

/* ------------------------------------------------------------ building blocks */
/* Central AM barrier: everyone tells node 0, node 0 releases everyone. */
static void barrier(void) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  int target = released + 1;
  CHECK(gasnet_AMRequestShort0(0, H_ARRIVE));
  if (me == 0) {
    GASNET_BLOCKUNTIL(arrived == (int)n || gave_up());
    arrived = 0;
    for (gasnet_node_t i = 0; i < n; i++) CHECK(gasnet_AMRequestShort0(i, H_RELEASE));
  }
  GASNET_BLOCKUNTIL(released == target || gave_up());
}

/* Every node pings every node (itself included) and checks each reply came. */
static void ping_all(void) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  for (gasnet_node_t i = 0; i < n; i++)
    CHECK(gasnet_AMRequestShort1(i, H_PING, (gasnet_handlerarg_t)me));
  GASNET_BLOCKUNTIL(pongs == (int)n || gave_up());
}

static void block_forever(void) { GASNET_BLOCKUNTIL(never_set || gave_up()); }

/* Pure computation: never enters the library, so only a signal can end it. */
static void compute_forever(void) {
  volatile unsigned long x = 1;
  for (unsigned long i = 1;; i++) {
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    if ((i & 0xfffff) == 0) gave_up();
  }
}

static void print_event(void) {
  printf("EVENT node=%u ms=%lld\n", (unsigned)gasnet_mynode(), realtime_ms());
  fflush(stdout);
}

/* The non-WHO nodes announce they are about to wait; WHO collects those
 * announcements and lets them settle into the wait before acting, so the
 * scenario really hits nodes that are blocked (or computing). */
static void wait_for_others(void) {
  gasnet_node_t n = gasnet_nodes();
  GASNET_BLOCKUNTIL(notified == (int)n - 1 || gave_up());
  struct timespec settle = {0, 200 * 1000 * 1000};
  nanosleep(&settle, NULL);
}

/* How the other nodes wait for WHO's event. */
enum { WAIT_BLOCK, WAIT_COMPUTE, WAIT_BARRIER };

static void others_wait(gasnet_node_t who, int how) {
  CHECK(gasnet_AMRequestShort0(who, H_NOTIFY));
  if (how == WAIT_COMPUTE) compute_forever();
  if (how == WAIT_BARRIER) {
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    int rc;
    GASNET_BLOCKUNTIL((rc = gasnet_barrier_try(0, GASNET_BARRIERFLAG_ANONYMOUS)) !=
                          GASNET_ERR_NOT_READY || gave_up());
    fprintf(stderr, "testexit: node %u finished a barrier without node %u (%s)\n",
            (unsigned)gasnet_mynode(), (unsigned)who, gasnet_ErrorName(rc));
    gasnet_exit(EXIT_FAILED);
  }
  block_forever();
}

/* A crash must not leave a core file in the test directory. */
static void no_core_files(void) {
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

/* ------------------------------------------------------------ argument parsing */
static void usage(const char *why) {
  fprintf(stderr,
          "testexit: %s\nusage: testexit [-q CODE] normal [NODES] | exit CODE WHO block|compute|barrier |\n"
          "  libcexit CODE WHO | return CODE [WHO] | segv WHO | abort WHO | hang |\n"
          "  preattach CODE WHO | flush return|exit\n",
          why);
  exit(EXIT_USAGE);
}

static int parse_int(const char *s, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 0 || v > 255) {
    fprintf(stderr, "testexit: bad %s '%s' (want 0..255)\n", what, s);
    exit(EXIT_USAGE);
  }
  return (int)v;
}

static gasnet_node_t parse_who(const char *s) {
  gasnet_node_t n = gasnet_nodes();
  if (strcmp(s, "last") == 0) return n - 1;
  return (gasnet_node_t)parse_int(s, "node") % n;
}

static const char *arg(int argc, char **argv, int i, const char *what) {
  if (i >= argc) usage(what);
  return argv[i];
}

/* ------------------------------------------------------------ the scenarios */
static int mode_normal(int argc, char **argv) {
  if (argc > 2) {
    int want = parse_int(argv[2], "node count");
    if ((int)gasnet_nodes() != want) {
      fprintf(stderr, "testexit: gasnet_nodes() is %u, expected %d\n",
              (unsigned)gasnet_nodes(), want);
      gasnet_exit(EXIT_FAILED);
    }
  }
  ping_all();
  barrier();
  gasnet_exit(0);
}

/* exit / libcexit / segv / abort: WHO does `act`, everyone else waits. */
typedef void (*act_fn)(int code);

static void act_gasnet_exit(int code) { gasnet_exit(code); }
static void act_libc_exit(int code) { exit(code); }
static void act_segv(int code) {
  (void)code;
  no_core_files();
  raise(SIGSEGV);
}
static void act_abort(int code) {
  (void)code;
  no_core_files();
  abort();
}

static int run_fault(gasnet_node_t who, int how, act_fn act, int code) {
  if (gasnet_mynode() != who) {
    others_wait(who, how);
    return EXIT_GAVE_UP; /* not reached: the wait ends only by the deadline */
  }
  wait_for_others();
  print_event();
  act(code);
  fprintf(stderr, "testexit: node %u survived its own fault\n", (unsigned)who);
  return EXIT_FAILED;
}

static int mode_return(int argc, char **argv) {
  int code = parse_int(arg(argc, argv, 2, "return needs CODE"), "exit code");
  if (argc <= 3) { /* every node returns */
    barrier();
    print_event();
    return code;
  }
  gasnet_node_t who = parse_who(argv[3]);
  if (gasnet_mynode() != who) {
    others_wait(who, WAIT_BLOCK);
    return EXIT_GAVE_UP;
  }
  wait_for_others();
  print_event();
  return code;
}

static int run_mode(int argc, char **argv) {
  const char *mode = argv[1];
  if (strcmp(mode, "normal") == 0) return mode_normal(argc, argv);
  if (strcmp(mode, "return") == 0) return mode_return(argc, argv);
  if (strcmp(mode, "hang") == 0) {
    block_forever();
    return EXIT_GAVE_UP;
  }
  if (strcmp(mode, "exit") == 0 || strcmp(mode, "libcexit") == 0) {
    int code = parse_int(arg(argc, argv, 2, "missing CODE"), "exit code");
    gasnet_node_t who = parse_who(arg(argc, argv, 3, "missing WHO"));
    int how = WAIT_BLOCK;
    if (mode[0] == 'e') {
      const char *word = arg(argc, argv, 4, "missing block|compute|barrier");
      if (strcmp(word, "compute") == 0)
        how = WAIT_COMPUTE;
      else if (strcmp(word, "barrier") == 0)
        how = WAIT_BARRIER;
      else if (strcmp(word, "block") != 0)
        usage("the others must block, compute or wait in a barrier");
    }
    return run_fault(who, how, mode[0] == 'e' ? act_gasnet_exit : act_libc_exit, code);
  }
  if (strcmp(mode, "segv") == 0 || strcmp(mode, "abort") == 0) {
    gasnet_node_t who = parse_who(arg(argc, argv, 2, "missing WHO"));
    return run_fault(who, WAIT_BLOCK, mode[0] == 's' ? act_segv : act_abort, 0);
  }
  usage("unknown mode");
  return EXIT_USAGE;
}

/* ------------------------------------------------------------ SIGQUIT (-q CODE) */
static void quit_handler(int sig) {
  (void)sig;
  char line[64];
  int n = snprintf(line, sizeof line, "QUIT node=%u\n", (unsigned)gasnet_mynode());
  ssize_t rc = write(STDOUT_FILENO, line, (size_t)n);
  (void)rc;
  gasnet_exit(quit_code);
}

static void install_quit_handler(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = quit_handler;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGQUIT, &sa, NULL) != 0) {
    perror("testexit: sigaction(SIGQUIT)");
    gasnet_exit(EXIT_FAILED);
  }
}

static void print_ready(void) {
  printf("READY node=%u nodes=%u pid=%ld ppid=%ld\n", (unsigned)gasnet_mynode(),
         (unsigned)gasnet_nodes(), (long)getpid(), (long)getppid());
  fflush(stdout);
}

static void attach(void) {
  CHECK(gasnet_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]), 0, 0));
}

/* ------------------------------------------------------------ preattach */
static int mode_preattach(int argc, char **argv) {
  int code = parse_int(arg(argc, argv, 2, "preattach needs CODE"), "exit code");
  gasnet_node_t who = parse_who(arg(argc, argv, 3, "preattach needs WHO"));
  print_ready();
  if (gasnet_mynode() == who) {
    struct timespec settle = {0, 300 * 1000 * 1000}; /* the others reach attach */
    nanosleep(&settle, NULL);
    print_event();
    gasnet_exit(code);
  }
  attach();
  fprintf(stderr, "testexit: node %u finished gasnet_attach without node %u\n",
          (unsigned)gasnet_mynode(), (unsigned)who);
  return EXIT_FAILED;
}

/* ------------------------------------------------------------ flush */
#if defined(GASNET_PAR)
static void *poll_forever(void *arg) {
  (void)arg;
  for (;;) gasnet_AMPoll();
  return NULL;
}

static void print_atexit(void) {
  printf("ATEXIT node=%u\n", (unsigned)gasnet_mynode());
}

static int mode_flush(int argc, char **argv) {
  const char *how = arg(argc, argv, 2, "flush needs return|exit");
  int by_exit = strcmp(how, "exit") == 0;
  if (!by_exit && strcmp(how, "return") != 0) usage("flush needs return|exit");
  attach();
  print_ready();
  atexit(print_atexit);
  pthread_t poller;
  if (pthread_create(&poller, NULL, poll_forever, NULL) != 0) {
    fprintf(stderr, "testexit: pthread_create failed\n");
    gasnet_exit(EXIT_FAILED);
  }
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  CHECK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
  /* Odd nodes print late, so their pollers see an even node's exit first. */
  struct timespec late = {0, (long)(gasnet_mynode() % 2) * 3 * 1000 * 1000};
  nanosleep(&late, NULL);
  printf("LINE node=%u\n", (unsigned)gasnet_mynode());
  if (by_exit) gasnet_exit(0);
  return 0;
}
#else
static int mode_flush(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "testexit: flush needs the PAR build (testexit-par)\n");
  gasnet_exit(EXIT_USAGE);
  return EXIT_USAGE;
}
#endif

int main(int argc, char **argv) {
  CHECK(gasnet_init(&argc, &argv));
  if (argc > 2 && strcmp(argv[1], "-q") == 0) {
    quit_code = parse_int(argv[2], "SIGQUIT exit code");
    install_quit_handler();
    argv[2] = argv[0];
    argc -= 2;
    argv += 2;
  }
  if (argc < 2) usage("missing MODE");
  if (strcmp(argv[1], "preattach") == 0) return mode_preattach(argc, argv);
  if (strcmp(argv[1], "flush") == 0) return mode_flush(argc, argv);
  attach();
  deadline = mono_s() + DEADLINE_S;
  print_ready();
  return run_mode(argc, argv);
}

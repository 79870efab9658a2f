/* hello_am: a small GASNet client written against the core API only.
 *
 * Every node sends a greeting (an AM Medium) to the next node in a ring; the
 * receiver keeps the text and replies with an AM Short carrying its node
 * number. Each node prints what it received, all nodes meet in a barrier
 * built from AMs, and the job ends with gasnet_exit(0).
 *
 * Build it with the makefile fragment of an installed GASNet (see Makefile)
 * and run it with the conduit's launcher, e.g. `gasnetrun_smp -n 3 ./hello_am`. */
#include <gasnet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failed GASNet call is fatal: print what failed and why, end the job. */
#define GASNET_SAFE(call)                                                        \
  do {                                                                           \
    int safe_rc_ = (call);                                                       \
    if (safe_rc_ != GASNET_OK) {                                                 \
      fprintf(stderr, "hello_am: %s failed: %s (%s)\n", #call,                   \
              gasnet_ErrorName(safe_rc_), gasnet_ErrorDesc(safe_rc_));           \
      gasnet_exit(1);                                                            \
    }                                                                            \
  } while (0)

#define GREETING_MAX 128

/* Written by handlers, read by the main code once GASNET_BLOCKUNTIL sees the
 * flag: handlers run inside GASNet calls on this same thread, so a flag set
 * after the data is enough. */
static char greeting[GREETING_MAX];
static volatile int greeted;      /* a greeting arrived */
static volatile int acknowledged; /* our greeting's reply arrived */
static volatile int ack_from;     /* who replied */
static volatile int arrived;      /* node 0: barrier arrivals */
static volatile int released;     /* barrier releases seen */

/* Index 0: gasnet_attach picks each handler's index and writes it back, so
 * the code reads the indices from this table. */
enum { GREET, GREET_REPLY, ARRIVE, RELEASE };
static void greet_handler(gasnet_token_t token, void *buf, size_t nbytes);
static void greet_reply_handler(gasnet_token_t token, gasnet_handlerarg_t from);
static void arrive_handler(gasnet_token_t token);
static void release_handler(gasnet_token_t token);
static gasnet_handlerentry_t handlers[] = {
    [GREET] = {0, (void (*)())greet_handler},
    [GREET_REPLY] = {0, (void (*)())greet_reply_handler},
    [ARRIVE] = {0, (void (*)())arrive_handler},
    [RELEASE] = {0, (void (*)())release_handler},
};

/* Handlers stay short and never block: copy the text, answer, return. */
static void greet_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  size_t n = nbytes < GREETING_MAX - 1 ? nbytes : GREETING_MAX - 1;
  memcpy(greeting, buf, n);
  greeting[n] = '\0';
  greeted = 1;
  GASNET_SAFE(gasnet_AMReplyShort1(token, handlers[GREET_REPLY].index,
                                   (gasnet_handlerarg_t)gasnet_mynode()));
}

static void greet_reply_handler(gasnet_token_t token, gasnet_handlerarg_t from) {
  (void)token;
  ack_from = from;
  acknowledged = 1;
}

static void arrive_handler(gasnet_token_t token) {
  (void)token;
  arrived++;
}

static void release_handler(gasnet_token_t token) {
  (void)token;
  released++;
}

/* Everyone tells node 0 it arrived; node 0 waits for all, then releases all.
 * Only one barrier runs at a time, so counting releases is enough. */
static void am_barrier(void) {
  int target = released + 1;
  GASNET_SAFE(gasnet_AMRequestShort0(0, handlers[ARRIVE].index));
  if (gasnet_mynode() == 0) {
    GASNET_BLOCKUNTIL(arrived == (int)gasnet_nodes());
    arrived = 0;
    for (gasnet_node_t i = 0; i < gasnet_nodes(); i++)
      GASNET_SAFE(gasnet_AMRequestShort0(i, handlers[RELEASE].index));
  }
  GASNET_BLOCKUNTIL(released == target);
}

int main(int argc, char **argv) {
  GASNET_SAFE(gasnet_init(&argc, &argv));
  GASNET_SAFE(gasnet_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]), 0, 0));

  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  gasnet_node_t next = (me + 1) % n, prev = (me + n - 1) % n;
  char text[GREETING_MAX];
  snprintf(text, sizeof text, "hello from node %u of %u", (unsigned)me, (unsigned)n);

  /* The Medium copies text before returning, so it could be reused at once. */
  GASNET_SAFE(gasnet_AMRequestMedium0(next, handlers[GREET].index, text, strlen(text) + 1));
  GASNET_BLOCKUNTIL(greeted && acknowledged);

  char expected[GREETING_MAX];
  snprintf(expected, sizeof expected, "hello from node %u of %u", (unsigned)prev, (unsigned)n);
  if (strcmp(greeting, expected) != 0 || ack_from != (int)next) {
    fprintf(stderr, "node %u: got \"%s\" (expected \"%s\"), reply from node %d (expected %u)\n",
            (unsigned)me, greeting, expected, (int)ack_from, (unsigned)next);
    gasnet_exit(1);
  }
  printf("node %u: received \"%s\"; node %u acknowledged my greeting\n", (unsigned)me, greeting,
         (unsigned)next);
  fflush(stdout);

  am_barrier();
  if (me == 0) {
    printf("all %u nodes passed the barrier\n", (unsigned)n);
    fflush(stdout);
  }
  am_barrier(); /* nobody exits before node 0 has printed */
  gasnet_exit(0);
  return 0;
}

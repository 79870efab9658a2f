/* testexterr.c: misuse of the extended API must end the job with a clear
 * fatal error. Each case is one misuse, made by node 0 (the others poll
 * until the job ends); errors.sh runs every case and
 * checks the exit code and the message. Out-of-segment ranges are misuse
 * only on another node (node 0's own memory is not remote): those cases
 * exit 77 on one node.
 *
 * Usage: testexterr [-am] CASE     (testexterr -list prints the cases) */
#include "ext_test.h"

#include <sys/types.h>

typedef struct {
  const char *name;
  void (*run)(void);
  int remote; /* needs a peer other than node 0 itself: skipped (exit 77) on one node */
} errcase_t;

static gasnet_node_t peer;
static uint8_t *peer_seg;
static size_t peer_size;
static uint8_t local[64];

static void put_outside(void) { gasnet_put(peer, peer_seg + peer_size - 4, local, 8); }
static void put_nbi_before(void) { gasnet_put_nbi(peer, peer_seg - 1, local, 2); }
static void get_outside(void) { gasnet_get(local, peer, peer_seg + peer_size, 1); }
static void get_nb_outside(void) { (void)gasnet_get_nb(local, peer, peer_seg + peer_size - 1, 2); }
static void memset_outside(void) { gasnet_memset(peer, peer_seg + peer_size - 1, 0, 2); }
static void put_bad_node(void) { gasnet_put(gasnet_nodes(), peer_seg, local, 8); }
static void get_bad_node(void) { gasnet_get(local, gasnet_nodes() + 3, peer_seg, 8); }
static void put_null_src(void) { gasnet_put(peer, peer_seg, NULL, 8); }
static void get_null_dest(void) { (void)gasnet_get_nb(NULL, peer, peer_seg, 8); }
static void put_negative(void) { gasnet_put(peer, peer_seg, local, (size_t)-8); }
static void get_val_size(void) { (void)gasnet_get_val(peer, peer_seg, sizeof(gasnet_register_value_t) + 1); }
static void put_val_zero(void) { gasnet_put_val(peer, peer_seg, 1, 0); }
/* a node's own memory may lie anywhere, only not at NULL */
static void put_self_null(void) { gasnet_put(gasnet_mynode(), NULL, local, 8); }
static void get_self_null(void) { gasnet_get(local, gasnet_mynode(), NULL, 4); }
static void memset_self_null(void) { (void)gasnet_memset_nb(gasnet_mynode(), NULL, 0, 2); }

static void sync_dead(void) {
  gasnet_begin_nbi_accessregion();
  gasnet_handle_t h = gasnet_end_nbi_accessregion();
  gasnet_wait_syncnb(h);
  gasnet_wait_syncnb(h);
}
static void try_dead(void) {
  gasnet_begin_nbi_accessregion();
  gasnet_handle_t h = gasnet_end_nbi_accessregion();
  gasnet_wait_syncnb(h);
  (void)gasnet_try_syncnb(h);
}
static void valget_dead(void) {
  gasnet_valget_handle_t v = gasnet_get_nb_val(peer, peer_seg, 4);
  (void)gasnet_wait_syncnb_valget(v);
  (void)gasnet_wait_syncnb_valget(v);
}
static void region_nested(void) {
  gasnet_begin_nbi_accessregion();
  gasnet_begin_nbi_accessregion();
}
static void region_end_unopened(void) { (void)gasnet_end_nbi_accessregion(); }
static void syncnbi_in_region(void) {
  gasnet_begin_nbi_accessregion();
  gasnet_wait_syncnbi_all();
}
static void notify_twice(void) {
  gasnet_barrier_notify(1, 0);
  gasnet_barrier_notify(2, 0);
}
static void wait_unnotified(void) { (void)gasnet_barrier_wait(3, 0); }
static void try_unnotified(void) { (void)gasnet_barrier_try(3, GASNET_BARRIERFLAG_ANONYMOUS); }
/* (A wait or try whose id differs from the barrier's name is a mismatch,
 * not an error: testbarrier checks it.) */
static void wait_bad_flags(void) {
  gasnet_barrier_notify(4, 0);
  (void)gasnet_barrier_wait(4, 0x40);
}
static void notify_bad_flags(void) { gasnet_barrier_notify(0, 0x40); }
static void result_null(void) { (void)gasnet_barrier_result(NULL); }

static const errcase_t cases[] = {
    {"put_outside", put_outside, 1},
    {"put_nbi_before", put_nbi_before, 1},
    {"get_outside", get_outside, 1},
    {"get_nb_outside", get_nb_outside, 1},
    {"memset_outside", memset_outside, 1},
    {"put_bad_node", put_bad_node},
    {"get_bad_node", get_bad_node},
    {"put_null_src", put_null_src},
    {"get_null_dest", get_null_dest},
    {"put_negative", put_negative},
    {"get_val_size", get_val_size},
    {"put_val_zero", put_val_zero},
    {"put_self_null", put_self_null},
    {"get_self_null", get_self_null},
    {"memset_self_null", memset_self_null},
    {"sync_dead", sync_dead},
    {"try_dead", try_dead},
    {"valget_dead", valget_dead},
    {"region_nested", region_nested},
    {"region_end_unopened", region_end_unopened},
    {"syncnbi_in_region", syncnbi_in_region},
    {"notify_twice", notify_twice},
    {"wait_unnotified", wait_unnotified},
    {"try_unnotified", try_unnotified},
    {"wait_bad_flags", wait_bad_flags},
    {"notify_bad_flags", notify_bad_flags},
    {"result_null", result_null},
    {"attach_only", NULL}, /* no misuse: for a bad GASNET_BARRIER in the environment */
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

int main(int argc, char **argv) {
  ext_parse_common(&argc, &argv);
  if (argc == 2 && !strcmp(argv[1], "-list")) {
    for (size_t i = 0; i < NCASES; i++) printf("%s\n", cases[i].name);
    return 0;
  }
  const errcase_t *c = NULL;
  for (size_t i = 0; argc == 2 && i < NCASES; i++)
    if (!strcmp(argv[1], cases[i].name)) c = &cases[i];
  if (!c) {
    fprintf(stderr, "usage: %s [-am] CASE (%s -list prints the cases)\n", ext_progname,
            ext_progname);
    return 2;
  }
  ext_init(&argc, &argv, NULL, 0, 64 * 1024);
  peer = gasnet_nodes() > 1 ? 1 : 0;
  peer_seg = ext_seg(peer);
  peer_size = ext_segs()[peer].size;
  if (!c->run) {
    ext_barrier();
    gasnet_exit(0);
  }
  if (c->remote && gasnet_nodes() == 1) {
    /* node 0's own memory is no remote range: no misuse to make */
    printf("%s: case %s needs two nodes: skipped\n", ext_progname, c->name);
    fflush(stdout);
    gasnet_exit(77);
  }
  if (gasnet_mynode() == 0) {
    c->run();
    fprintf(stderr, "%s: case %s was not caught\n", ext_progname, c->name);
    gasnet_exit(0); /* not caught: errors.sh sees exit 0 and fails */
  }
  /* The others only poll until node 0's error ends the job: were they to
   * exit normally, their exit code could win the race with node 0's. */
  for (;;) {
    gasnet_AMPoll();
    gasnett_sched_yield();
  }
  return 0;
}

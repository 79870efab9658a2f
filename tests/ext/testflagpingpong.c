/* testflagpingpong.c: one-word flag puts, consumed and reset by their
 * target, the OpenSHMEM put-flag / wait-until / reset pattern.
 *
 * Usage: testflagpingpong [-am] [-n ITERS] [-form NAME]
 *   -n ITERS    round trips per flag width (default 100000 on smp, whose
 *               direct copies this is about; 10000 elsewhere, where every
 *               put is an AM round trip and costs 10 to 100 times more)
 *   -form NAME  only this put form (gasnet_put, gasnet_put_val, ...)
 *
 * Nodes pair up (0-1, 2-3, ...; at an odd count the last node pairs with
 * node 0 as well, alone it plays both sides). Each node's segment holds one
 * flag word per partner. The lower node of a pair puts sequence number s
 * into its partner's flag; the partner waits with GASNET_BLOCKUNTIL until
 * the flag is non-zero, reads it, resets it to 0 locally and puts s back;
 * then s + 1. Every value read must be exactly the one expected: a put
 * written as two stores (memcpy's way with 8 bytes) lets a consumed value
 * come back after the reset, which this sees as a stale value (or a hang).
 * 8-byte flags carry s in both halves, so a torn value shows too. Runs
 * ITERS round trips with 8-byte flags, then ITERS with 4-byte ones; the
 * put form changes with every message (gasnet_put, gasnet_put_val,
 * gasnet_put_nbi, gasnet_put_nb, gasnet_put_bulk, in turn: s mod 5), for
 * pings and echoes alike. The AM path (-am, GASNET_SMP_PUTGET=am) is a
 * setting of conduits whose processes share memory (GASNET_PSHM: smp, mpi):
 * elsewhere every put is an AM already, and -am skips (exit 77). */
#include "ext_test.h"

enum { F_PUT, F_PUT_VAL, F_PUT_NBI, F_PUT_NB, F_PUT_BULK, F_COUNT };
static const char *const form_names[F_COUNT] = {"gasnet_put", "gasnet_put_val", "gasnet_put_nbi",
                                                "gasnet_put_nb", "gasnet_put_bulk"};

#define MAX_LINKS 2

typedef struct {
  gasnet_node_t partner;
  int initiator;     /* sends first (the lower node, or a node alone) */
  uint32_t seq;      /* next sequence number to send (initiator) or expect */
  int waiting;       /* initiator: a ping is out, waiting for its echo */
  uint8_t *my_flag;  /* where the partner puts to me */
  uint8_t *its_flag; /* where I put to the partner */
} link_t;

static gasnet_node_t me, nodes;
static link_t links[MAX_LINKS];
static int nlinks;

/* Flag slot of writer `from` in node `on`'s segment: 64 bytes apart. */
static uint8_t *flag_slot(gasnet_node_t on, gasnet_node_t from) {
  return ext_seg(on) + 64 * (size_t)from;
}

static void add_link(gasnet_node_t partner) {
  link_t *l = &links[nlinks++];
  l->partner = partner;
  l->initiator = me <= partner;
  l->my_flag = flag_slot(me, partner);
  l->its_flag = flag_slot(partner, me);
}

static uint64_t flag_value(uint32_t seq, size_t width) {
  return width == 8 ? ((uint64_t)seq << 32) | seq : seq;
}

/* One load of the flag (it lives in this node's segment). */
static uint64_t read_flag(const uint8_t *p, size_t width) {
  if (width == 8) return __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_ACQUIRE);
  return __atomic_load_n((const uint32_t *)(const void *)p, __ATOMIC_ACQUIRE);
}

static void reset_flag(uint8_t *p, size_t width) {
  if (width == 8)
    __atomic_store_n((uint64_t *)(void *)p, 0, __ATOMIC_RELAXED);
  else
    __atomic_store_n((uint32_t *)(void *)p, 0, __ATOMIC_RELAXED);
}

static void put_flag(int form, const link_t *l, uint64_t value, size_t width) {
  /* the source: an aligned local word, as a client's would be */
  uint64_t src64 = value;
  uint32_t src32 = (uint32_t)value;
  void *src = width == 8 ? (void *)&src64 : (void *)&src32;
  switch (form) {
    case F_PUT: gasnet_put(l->partner, l->its_flag, src, width); break;
    case F_PUT_VAL:
      gasnet_put_val(l->partner, l->its_flag, (gasnet_register_value_t)value, width);
      break;
    case F_PUT_NBI:
      gasnet_put_nbi(l->partner, l->its_flag, src, width);
      gasnet_wait_syncnbi_puts();
      break;
    case F_PUT_NB: gasnet_wait_syncnb(gasnet_put_nb(l->partner, l->its_flag, src, width)); break;
    default: gasnet_put_bulk(l->partner, l->its_flag, src, width); break;
  }
}

/* Is a flag this node waits on set? */
static int any_flag_set(size_t width) {
  for (int i = 0; i < nlinks; i++)
    if (read_flag(links[i].my_flag, width)) return 1;
  return 0;
}

static int only_form = -1; /* -form */

/* The form of the message carrying sequence number seq. */
static int form_of(uint32_t seq) { return only_form >= 0 ? only_form : (int)(seq % F_COUNT); }

static void run(size_t width, uint32_t iters) {
  for (int i = 0; i < nlinks; i++) {
    links[i].seq = 1;
    links[i].waiting = 0;
    reset_flag(links[i].my_flag, width);
  }
  ext_barrier();
  int live = nlinks;
  while (live) {
    /* initiators whose last echo came back send the next ping */
    for (int i = 0; i < nlinks; i++) {
      link_t *l = &links[i];
      if (l->initiator && !l->waiting && l->seq <= iters) {
        put_flag(form_of(l->seq), l, flag_value(l->seq, width), width);
        l->waiting = 1;
      }
    }
    GASNET_BLOCKUNTIL(any_flag_set(width));
    for (int i = 0; i < nlinks; i++) {
      link_t *l = &links[i];
      uint64_t got = read_flag(l->my_flag, width);
      if (!got) continue;
      uint64_t want = flag_value(l->seq, width);
      EXT_CHECK(got == want,
                "%s, %zu-byte flag, node %u with node %u: read 0x%llx, expected 0x%llx "
                "(a stale or torn value)",
                form_names[form_of(l->seq)], width, (unsigned)me, (unsigned)l->partner,
                (unsigned long long)got, (unsigned long long)want);
      EXT_CHECK(l->initiator ? l->waiting : 1, "node %u got 0x%llx from node %u unasked",
                (unsigned)me, (unsigned long long)got, (unsigned)l->partner);
      reset_flag(l->my_flag, width);
      if (l->initiator) {
        l->waiting = 0;
      } else {
        put_flag(form_of(l->seq), l, got, width); /* the echo */
      }
      if (++l->seq > iters) live--;
    }
  }
  /* nothing may arrive after the last exchange: a late second store would */
  ext_barrier();
  for (int i = 0; i < nlinks; i++)
    EXT_CHECK(read_flag(links[i].my_flag, width) == 0,
              "%zu-byte flag: node %u's flag from node %u is 0x%llx after the last exchange",
              width, (unsigned)me, (unsigned)links[i].partner,
              (unsigned long long)read_flag(links[i].my_flag, width));
  ext_barrier();
}

int main(int argc, char **argv) {
  ext_init(&argc, &argv, NULL, 0, 64 * 1024);
  uint32_t iters = strcmp(GASNET_CONDUIT_NAME_STR, "smp") ? 10000 : 100000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      iters = (uint32_t)strtoul(argv[++i], NULL, 0);
    } else if (!strcmp(argv[i], "-form") && i + 1 < argc) {
      i++;
      for (int f = 0; f < F_COUNT; f++)
        if (!strcmp(argv[i], form_names[f])) only_form = f;
      if (only_form < 0) {
        if (gasnet_mynode() == 0) fprintf(stderr, "%s: unknown form %s\n", ext_progname, argv[i]);
        gasnet_exit(2);
      }
    } else {
      if (gasnet_mynode() == 0)
        fprintf(stderr, "usage: %s [-am] [-n ITERS] [-form NAME]\n", ext_progname);
      gasnet_exit(2);
    }
  }
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  if (ext_am_path && !GASNET_PSHM) {
    if (me == 0)
      printf("%s: -am is the only path on the %s conduit: skipped\n", ext_progname,
             GASNET_CONDUIT_NAME_STR);
    fflush(stdout);
    ext_barrier();
    gasnet_exit(77);
  }
  EXT_CHECK(64 * (size_t)nodes <= ext_segs()[me].size, "segment too small for %u flags",
            (unsigned)nodes);
  if (nodes == 1) {
    add_link(me); /* puts to itself, and reads them back */
  } else {
    gasnet_node_t mate = me ^ 1;
    if (mate < nodes) add_link(mate);
    if (nodes % 2 == 1) {
      if (me == nodes - 1) add_link(0);
      if (me == 0) add_link(nodes - 1);
    }
  }
  static const size_t widths[] = {8, 4};
  for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
    double t0 = (double)gasnett_ticks_to_ns(gasnett_ticks_now());
    run(widths[w], iters);
    double us = ((double)gasnett_ticks_to_ns(gasnett_ticks_now()) - t0) / 1000.0;
    if (me == 0)
      printf("%s: %u nodes, %s path, %zu-byte flags: %u round trips ok, every value as sent "
             "(%.2f us each)\n",
             ext_progname, (unsigned)nodes, ext_path_name(), widths[w], (unsigned)iters,
             iters ? us / iters : 0.0);
    fflush(stdout);
  }
  ext_finish();
  return 0;
}

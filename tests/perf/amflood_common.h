/* amflood_common.h: what amflood (active messages) and mpiamflood (its
 * twin through MPI point-to-point) share, so that both run exactly the same
 * workload and print rows the comparison script can pair: the options, the
 * payload pattern, the tests' list, and the frontier's stream of updates
 * with the table it must leave behind. Header-only, no GASNet or MPI.
 *
 * The tests (docs/performance.md, "Active-message throughput"):
 *   flood      nodes i < N/2 send to i + N/2, all pairs at once: `window`
 *              messages, then wait until the receiver, having seen them
 *              all, acknowledges; Short (0 bytes), Medium and Long sizes
 *   flood_bi   the same in both directions at once
 *   frontier_a each node sends `updates` table updates of 16 bytes per
 *              round, one message each to the update's owner, polling
 *              before every send; a barrier ends the round
 *   frontier_b the same updates packed per owner into messages of up to
 *              BYTES (1, 4 and 16 KiB by default), sent as they fill
 * An update adds a value to one word of its owner's table; every node
 * checks its whole table against a replay of every node's stream at the
 * end, and every message's payload (every byte with -v). */
#ifndef AMFLOOD_COMMON_H
#define AMFLOOD_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The exit code of a run whose checks found a lost or damaged message or
 * update: distinct from 1, a failed call or a job that never started. */
#define AMF_EXIT_BAD 3

typedef struct {
  int iters;       /* flood: messages per sender per repetition */
  int reps;        /* repetitions; the median is reported */
  int window;      /* flood: messages per window */
  size_t maxsize;  /* largest message */
  int rounds;      /* frontier: rounds per repetition */
  int updates;     /* frontier: updates per node per round */
  size_t words;    /* frontier: table words per node */
  int verify;      /* check every byte of every payload */
  int csv;         /* CSV rows instead of a table */
  int damage;      /* self-test: damage one byte per flood size and one
                      update per frontier, which the checks must catch */
  char tests[128]; /* comma list of the tests to run */
} amf_opts_t;

/* One frontier update: 16 bytes on the wire in both programs. */
typedef struct {
  uint64_t word;  /* index into the owner's table */
  uint64_t value; /* added to it */
} amf_update_t;

static inline void amf_defaults(amf_opts_t *o) {
  o->iters = 20000;
  o->reps = 5;
  o->window = 64;
  o->maxsize = (size_t)4 << 20;
  o->rounds = 20;
  o->updates = 20000;
  o->words = (size_t)1 << 16;
  o->verify = 0;
  o->csv = 0;
  o->damage = 0;
  strcpy(o->tests, "flood,flood_bi,frontier_a,frontier_b");
}

static inline size_t amf_parse_size(const char *s, int *bad) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'k' || *end == 'K') {
    v <<= 10;
    end++;
  } else if (*end == 'm' || *end == 'M') {
    v <<= 20;
    end++;
  }
  if (*s == '\0' || *end != '\0' || v == 0) *bad = 1;
  return (size_t)v;
}

static inline int amf_parse_count(const char *s, int *bad) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > 100000000) *bad = 1;
  return (int)v;
}

#define AMF_USAGE                                                                      \
  "usage: %s [-i iters] [-r reps] [-w window] [-m maxsize] [-R rounds] [-u updates]" \
  " [-t words] [-T tests] [-v] [-c] [-X]\n"

/* Parses argv into o; returns 0, or 2 after printing why (on `loud`). */
static inline int amf_parse(int argc, char **argv, amf_opts_t *o, int loud) {
  int c, bad = 0;
  amf_defaults(o);
  opterr = loud;
  while ((c = getopt(argc, argv, "i:r:w:m:R:u:t:T:vcXh")) != -1) {
    switch (c) {
      case 'i': o->iters = amf_parse_count(optarg, &bad); break;
      case 'r': o->reps = amf_parse_count(optarg, &bad); break;
      case 'w': o->window = amf_parse_count(optarg, &bad); break;
      case 'm': o->maxsize = amf_parse_size(optarg, &bad); break;
      case 'R': o->rounds = amf_parse_count(optarg, &bad); break;
      case 'u': o->updates = amf_parse_count(optarg, &bad); break;
      case 't': o->words = (size_t)amf_parse_count(optarg, &bad); break;
      case 'T':
        if (strlen(optarg) >= sizeof o->tests) bad = 1;
        else strcpy(o->tests, optarg);
        break;
      case 'v': o->verify = 1; break;
      case 'c': o->csv = 1; break;
      case 'X': o->damage = 1; break;
      default: bad = 1;
    }
  }
  if (o->reps > 64) o->reps = 64;
  if (bad && loud) fprintf(stderr, AMF_USAGE, argv[0]);
  return bad ? 2 : 0;
}

static inline int amf_wants(const amf_opts_t *o, const char *test) {
  size_t n = strlen(test);
  for (const char *p = o->tests; (p = strstr(p, test)) != NULL; p += n)
    if ((p == o->tests || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

/* Messages in flight per window: the window, or fewer for large messages,
 * so that a window holds at most 32 MiB (the Long slots of the segment). */
static inline int amf_window(const amf_opts_t *o, size_t bytes) {
  const size_t cap = (size_t)32 << 20;
  int w = o->window;
  if (bytes > 0 && (size_t)w * bytes > cap) w = (int)(cap / bytes);
  return w < 2 ? 2 : w;
}

/* Messages per sender per repetition at a size: at most 256 MiB moved. */
static inline int amf_iters(const amf_opts_t *o, size_t bytes, int window) {
  const size_t cap = (size_t)256 << 20;
  int n = o->iters;
  if (bytes > 0 && (size_t)n * bytes > cap) n = (int)(cap / bytes);
  if (n < window) n = window;
  return n / window * window; /* whole windows */
}

/* The flood's sizes: powers of 4 from 64 bytes to the limit (the Medium
 * or the Long one), then the limit itself, each capped by maxsize; also
 * `extra` when it is below both (mpiamflood lists the mpi conduit's Medium
 * limit, 65280, beside 64 KiB, so that both conduits' rows have a twin). */
static inline int amf_sizes(size_t limit, size_t maxsize, size_t extra, size_t *out, int max) {
  int n = 0;
  if (maxsize < limit) limit = maxsize;
  for (size_t s = 64; s <= limit && n < max - 2; s *= 4) {
    if (extra && extra < s && (n == 0 || out[n - 1] < extra)) out[n++] = extra;
    out[n++] = s;
  }
  if (n > 0 && out[n - 1] < limit) out[n++] = limit;
  return n;
}

/* Byte k of the payloads node `from` sends at a size. */
static inline unsigned char amf_byte(unsigned from, size_t bytes, size_t k) {
  return (unsigned char)(k * 131u + bytes * 7u + from * 29u + 1u);
}
static inline void amf_fill(unsigned char *p, unsigned from, size_t bytes) {
  for (size_t k = 0; k < bytes; k++) p[k] = amf_byte(from, bytes, k);
}
/* Every byte with verify, else the first and the last. */
static inline int amf_payload_ok(const unsigned char *p, unsigned from, size_t bytes, int verify) {
  if (bytes == 0) return 1;
  if (!verify) return p[0] == amf_byte(from, bytes, 0) && p[bytes - 1] == amf_byte(from, bytes, bytes - 1);
  for (size_t k = 0; k < bytes; k++)
    if (p[k] != amf_byte(from, bytes, k)) return 0;
  return 1;
}

/* The frontier's updates: node `node`'s k-th update of round `round`
 * (over every repetition: rounds are numbered across them). */
static inline uint64_t amf_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
static inline void amf_update(unsigned node, unsigned nodes, size_t words, uint64_t round,
                              uint64_t k, unsigned *owner, amf_update_t *u) {
  uint64_t x = amf_mix(((uint64_t)node << 48) ^ (round << 24) ^ k);
  uint64_t global = x % ((uint64_t)nodes * words);
  *owner = (unsigned)(global % nodes);
  u->word = global / nodes;
  u->value = (x >> 17) | 1;
}

/* -X: each node's first update to another node in a frontier's first
 * round goes out damaged (*done remembers it did). */
static inline void amf_damage_update(const amf_opts_t *o, uint64_t round, int *done,
                                     amf_update_t *u) {
  if (!o->damage || round != 0 || *done) return;
  u->value ^= 1;
  *done = 1;
}

/* The table node `me` must hold after `total_rounds` rounds; 0 if it does. */
static inline size_t amf_table_errors(const uint64_t *table, unsigned me, unsigned nodes,
                                      size_t words, uint64_t total_rounds, int updates) {
  uint64_t *want = calloc(words, sizeof *want);
  if (!want) return words;
  for (unsigned from = 0; from < nodes; from++)
    for (uint64_t r = 0; r < total_rounds; r++)
      for (int k = 0; k < updates; k++) {
        unsigned owner;
        amf_update_t u;
        amf_update(from, nodes, words, r, (uint64_t)k, &owner, &u);
        if (owner == me) want[u.word] += u.value;
      }
  size_t bad = 0;
  for (size_t i = 0; i < words; i++) bad += table[i] != want[i];
  free(want);
  return bad;
}

/* The frontier_b sizes: 1, 4 and 16 KiB, capped by the limit. */
static inline int amf_agg_sizes(size_t limit, size_t *out) {
  static const size_t want[] = {1024, 4096, 16384};
  int n = 0;
  for (int i = 0; i < 3; i++)
    if (want[i] <= limit) out[n++] = want[i];
  return n;
}

static int amf_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static inline double amf_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, amf_cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static inline void amf_header(const amf_opts_t *o) {
  if (o->csv)
    printf("test,kind,bytes,nodes,window,count,usec,rate_per_s,mb_per_s\n");
  else
    printf("%-10s %-6s %8s %5s %6s %9s %11s %13s %10s\n", "test", "kind", "bytes", "nodes",
           "window", "count", "usec", "rate/s", "MB/s");
}

/* One row: `count` messages (or updates) of `unit` bytes each in `usec`
 * over the whole job; `bytes` is the message size (frontier_b: the packed
 * message's, of 16-byte updates). MB is 10^6 bytes. */
static inline void amf_row(const amf_opts_t *o, const char *test, const char *kind, size_t bytes,
                           size_t unit, unsigned nodes, int window, long count, double usec) {
  double rate = usec > 0 ? count / (usec * 1e-6) : 0;
  double mbs = usec > 0 ? (double)count * (double)unit / usec : 0;
  if (o->csv)
    printf("%s,%s,%zu,%u,%d,%ld,%.1f,%.0f,%.2f\n", test, kind, bytes, nodes, window, count, usec,
           rate, mbs);
  else
    printf("%-10s %-6s %8zu %5u %6d %9ld %11.1f %13.0f %10.2f\n", test, kind, bytes, nodes, window,
           count, usec, rate, mbs);
  fflush(stdout);
}

#endif

/* gasnet_stats.c: statistics (configure --enable-stats).
 *
 * Each event kind has a slot, found by the address of its name (and of an
 * optional qualifier, such as a collective's algorithm) and its unit in
 * an open-address table: a slot is claimed once under a lock and read
 * without one after.
 * A slot counts its events and sums their values (bytes, or nanoseconds),
 * keeps the least and greatest and a histogram by powers of two. At exit,
 * GASNET_STATSFILE gets one line per event kind:
 *   CAT NAME [qual=Q] count=N unit=B|ns|- total=T min=A max=Z hist=LO:N,...
 * where hist lists, for each power of two LO with events, how many had a
 * value in [LO, 2 LO) (LO 0: the value 0). Slots whose names are equal
 * strings at different addresses are merged when written. */
#include "gasnet_events.h"

#include <stdlib.h>
#include <string.h>

#define GASNETI_STATS_SLOTS 512 /* a power of two, far above the kinds there are */
#define GASNETI_STATS_BUCKETS 65

typedef struct {
  const char *name; /* NULL: free; set last, with release */
  const char *qual;
  char cat;
  uint8_t unit;
  uint64_t count, total, min, max;
  uint64_t hist[GASNETI_STATS_BUCKETS];
} gasneti_stats_slot_t;

static gasneti_stats_slot_t gasneti_stats_slots[GASNETI_STATS_SLOTS];
static FILE *gasneti_stats_file;
static int gasneti_stats_written;
static int gasneti_stats_full_warned;
#if defined(GASNETI_THREADS)
static pthread_mutex_t gasneti_stats_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

int gasneti_stats_active(void) { return gasneti_stats_file != NULL && !gasneti_stats_written; }

static unsigned gasneti_stats_hash(char cat, const char *name, const char *qual,
                                   gasneti_stats_unit_t unit) {
  uint64_t h = (uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15);
  h ^= (uint64_t)(uintptr_t)qual * UINT64_C(0xC2B2AE3D27D4EB4F) + (unsigned char)cat * 4u + unit;
  return (unsigned)(h >> 40) & (GASNETI_STATS_SLOTS - 1);
}

/* A kind is its category, name, qualifier and unit (a collective is
 * counted in bytes at its start and in time at its end). */
static int gasneti_stats_is(const gasneti_stats_slot_t *s, char cat, const char *name,
                            const char *qual, gasneti_stats_unit_t unit) {
  return __atomic_load_n(&s->name, __ATOMIC_ACQUIRE) == name && s->qual == qual &&
         s->cat == cat && s->unit == (uint8_t)unit;
}

/* Claim a free slot at or after i for the kind (under the lock, checking
 * again: another thread may have claimed it meanwhile). */
static gasneti_stats_slot_t *gasneti_stats_claim(unsigned i, char cat, const char *name,
                                                 const char *qual, gasneti_stats_unit_t unit) {
  gasneti_stats_slot_t *found = NULL;
#if defined(GASNETI_THREADS)
  pthread_mutex_lock(&gasneti_stats_lock);
#endif
  for (unsigned probe = 0; probe < GASNETI_STATS_SLOTS && !found; probe++) {
    gasneti_stats_slot_t *s = &gasneti_stats_slots[(i + probe) & (GASNETI_STATS_SLOTS - 1)];
    if (gasneti_stats_is(s, cat, name, qual, unit)) {
      found = s;
    } else if (!s->name) {
      s->cat = cat;
      s->qual = qual;
      s->unit = (uint8_t)unit;
      s->min = UINT64_MAX;
      __atomic_store_n(&s->name, name, __ATOMIC_RELEASE);
      found = s;
    }
  }
#if defined(GASNETI_THREADS)
  pthread_mutex_unlock(&gasneti_stats_lock);
#endif
  return found;
}

static gasneti_stats_slot_t *gasneti_stats_find(char cat, const char *name, const char *qual,
                                                gasneti_stats_unit_t unit) {
  unsigned i = gasneti_stats_hash(cat, name, qual, unit);
  for (unsigned probe = 0; probe < GASNETI_STATS_SLOTS; probe++) {
    gasneti_stats_slot_t *s = &gasneti_stats_slots[(i + probe) & (GASNETI_STATS_SLOTS - 1)];
    if (gasneti_stats_is(s, cat, name, qual, unit)) return s;
    if (!__atomic_load_n(&s->name, __ATOMIC_ACQUIRE)) return gasneti_stats_claim(i, cat, name, qual, unit);
  }
  return NULL;
}

static unsigned gasneti_stats_bucket(uint64_t v) {
  return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

static void gasneti_stats_min(uint64_t *slot, uint64_t v) {
  uint64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(slot, &cur, v, 1, __ATOMIC_RELAXED,
                                                 __ATOMIC_RELAXED)) {
  }
}

static void gasneti_stats_max(uint64_t *slot, uint64_t v) {
  uint64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
  while (v > cur && !__atomic_compare_exchange_n(slot, &cur, v, 1, __ATOMIC_RELAXED,
                                                 __ATOMIC_RELAXED)) {
  }
}

void gasneti_stats_add(char cat, const char *name, const char *qual, gasneti_stats_unit_t unit,
                       uint64_t value) {
  gasneti_stats_slot_t *s = gasneti_stats_find(cat, name, qual, unit);
  if (!s) {
    if (!__atomic_exchange_n(&gasneti_stats_full_warned, 1, __ATOMIC_RELAXED))
      fprintf(stderr, "gasnet: node %u: statistics table full; further kinds are not counted\n",
              (unsigned)gasneti_mynode);
    return;
  }
  if (unit == GASNETI_STATS_COUNT) value = 0;
  __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->total, value, __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->hist[gasneti_stats_bucket(value)], 1, __ATOMIC_RELAXED);
  gasneti_stats_min(&s->min, value);
  gasneti_stats_max(&s->max, value);
}

void gasneti_stats_init(void) {
  gasneti_stats_file = gasneti_events_start("GASNET_STATSFILE", "(none: no statistics)",
                                            "GASNET_STATSMASK", GASNETI_EVENT_COUNTED);
}

/* ------------------------------------------------------------ writing */
static const char *const gasneti_stats_unit_names[] = {"B", "ns", "-"};

/* Sorted by category, name, qualifier and unit, so equal kinds are
 * neighbours. */
static int gasneti_stats_order(const void *a, const void *b) {
  const gasneti_stats_slot_t *x = *(const gasneti_stats_slot_t *const *)a;
  const gasneti_stats_slot_t *y = *(const gasneti_stats_slot_t *const *)b;
  if (x->cat != y->cat) return x->cat < y->cat ? -1 : 1;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  c = strcmp(x->qual ? x->qual : "", y->qual ? y->qual : "");
  if (c) return c;
  return (int)x->unit - (int)y->unit;
}

static int gasneti_stats_same_kind(const gasneti_stats_slot_t *x, const gasneti_stats_slot_t *y) {
  return y && gasneti_stats_order(&x, &y) == 0;
}

static void gasneti_stats_merge(gasneti_stats_slot_t *into, const gasneti_stats_slot_t *s) {
  into->count += s->count;
  into->total += s->total;
  if (s->min < into->min) into->min = s->min;
  if (s->max > into->max) into->max = s->max;
  for (unsigned b = 0; b < GASNETI_STATS_BUCKETS; b++) into->hist[b] += s->hist[b];
}

static void gasneti_stats_line(FILE *f, const gasneti_stats_slot_t *s) {
  fprintf(f, "%c %s", s->cat, s->name);
  if (s->qual) fprintf(f, " qual=%s", s->qual);
  fprintf(f, " count=%llu unit=%s", (unsigned long long)s->count, gasneti_stats_unit_names[s->unit]);
  if (s->unit != GASNETI_STATS_COUNT) {
    fprintf(f, " total=%llu min=%llu max=%llu hist=", (unsigned long long)s->total,
            (unsigned long long)s->min, (unsigned long long)s->max);
    const char *sep = "";
    for (unsigned b = 0; b < GASNETI_STATS_BUCKETS; b++) {
      if (!s->hist[b]) continue;
      unsigned long long lo = b ? 1ull << (b - 1) : 0ull;
      fprintf(f, "%s%llu:%llu", sep, lo, (unsigned long long)s->hist[b]);
      sep = ",";
    }
  }
  fputc('\n', f);
}

static void gasneti_stats_write(FILE *f) {
  const gasneti_stats_slot_t *used[GASNETI_STATS_SLOTS];
  size_t n = 0;
  for (unsigned i = 0; i < GASNETI_STATS_SLOTS; i++)
    if (__atomic_load_n(&gasneti_stats_slots[i].name, __ATOMIC_ACQUIRE) &&
        gasneti_stats_slots[i].count)
      used[n++] = &gasneti_stats_slots[i];
  qsort(used, n, sizeof(used[0]), gasneti_stats_order);
  for (size_t i = 0; i < n;) {
    gasneti_stats_slot_t sum = *used[i];
    size_t j = i + 1;
    for (; j < n && gasneti_stats_same_kind(&sum, used[j]); j++) gasneti_stats_merge(&sum, used[j]);
    gasneti_stats_line(f, &sum);
    i = j;
  }
}

/* Once, from the node's exit path. */
void gasneti_stats_finish(void) {
  if (!gasneti_stats_file || __atomic_exchange_n(&gasneti_stats_written, 1, __ATOMIC_ACQ_REL))
    return;
  char mask[32];
  gasneti_events_mask_get(GASNETI_EVENT_COUNTED, mask, sizeof(mask));
  gasneti_events_mask_set("GASNET_STATSMASK", "", GASNETI_EVENT_COUNTED, 0);
  gasneti_events_header(gasneti_stats_file, "statistics", mask);
  gasneti_stats_write(gasneti_stats_file);
  gasneti_events_close(gasneti_stats_file);
  gasneti_stats_file = NULL;
}

/* ------------------------------------------------------------ the client's macros */
const char *gasnetti_stats_getmask(void) {
  static char mask[32];
  gasneti_events_mask_get(GASNETI_EVENT_COUNTED, mask, sizeof(mask));
  return mask;
}

void gasnetti_stats_setmask(const char *mask) {
  gasneti_events_mask_set("GASNETT_STATS_SETMASK", mask ? mask : "", GASNETI_EVENT_COUNTED,
                          gasneti_stats_active());
}

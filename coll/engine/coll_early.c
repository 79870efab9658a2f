/* coll_early.c: see coll_early.h. */
#include "engine/coll_early.h"

#include <stdlib.h>

#define GASNETE_COLL_EARLY_BUCKETS 1024u /* the first table; power of two */

/* Free lists by payload size: signals, then up to 64 B, 512 B, 4 KiB,
 * 16 KiB and 64 KiB (an smp Medium); larger payloads are malloc'd. Each
 * list keeps at most GASNETE_COLL_EARLY_KEEP bytes of entries, so the
 * store gives memory back once a burst is over. */
#define GASNETE_COLL_EARLY_CLASSES 6u
#define GASNETE_COLL_EARLY_KEEP ((size_t)2 << 20)
static const size_t gasnete_coll_early_class_bytes[GASNETE_COLL_EARLY_CLASSES] = {
    0, 64, 512, 4096, 16384, 65536};

typedef struct {
  gasnete_coll_early_t *free;
  size_t kept;  /* entries on the list */
  size_t limit; /* most entries kept */
} gasnete_coll_early_list_t;

static gasnete_coll_early_list_t gasnete_coll_early_lists[GASNETE_COLL_EARLY_CLASSES];

/* The entries, hashed by (team, sequence) into chains kept in arrival
 * order. The table doubles whenever it holds twice as many entries as it
 * has chains: a root that falls thousands of collectives behind its
 * leaves (they run ahead under IN_MYSYNC and IN_NOSYNC) would otherwise
 * walk ever longer chains for every message stored and every op started,
 * a cost that grows with the backlog (docs/performance.md, "A root far
 * behind"). It never shrinks: at most one pointer for every two entries
 * the largest backlog held. */
static gasnete_coll_early_t **gasnete_coll_early_buckets;
static uint32_t gasnete_coll_early_mask;
static size_t gasnete_coll_early_count;

static gasnete_coll_early_t **gasnete_coll_early_chain(uint32_t team_id, uint32_t seq) {
  return &gasnete_coll_early_buckets[(seq ^ (team_id * 0x9e3779b9u)) & gasnete_coll_early_mask];
}

static void gasnete_coll_early_append(gasnete_coll_early_t *e) {
  gasnete_coll_early_t **p = gasnete_coll_early_chain(e->team_id, e->seq);
  while (*p) p = &(*p)->next;
  e->next = NULL;
  *p = e;
}

/* Move every entry to a table twice the size. Each old chain is walked
 * front to back and appended, so the entries of one (team, sequence),
 * which share a chain, keep their arrival order. */
static void gasnete_coll_early_grow(void) {
  uint32_t old_n = gasnete_coll_early_buckets ? gasnete_coll_early_mask + 1 : 0;
  uint32_t new_n = old_n ? old_n * 2 : GASNETE_COLL_EARLY_BUCKETS;
  gasnete_coll_early_t **old = gasnete_coll_early_buckets;
  gasnete_coll_early_buckets = gasnete_coll_calloc(new_n, sizeof(*gasnete_coll_early_buckets));
  gasnete_coll_early_mask = new_n - 1;
  for (uint32_t i = 0; i < old_n; i++)
    while (old[i]) {
      gasnete_coll_early_t *e = old[i];
      old[i] = e->next;
      gasnete_coll_early_append(e);
    }
  free(old);
}

static uint32_t gasnete_coll_early_class_of(size_t nbytes) {
  uint32_t c = 0;
  while (c < GASNETE_COLL_EARLY_CLASSES && nbytes > gasnete_coll_early_class_bytes[c]) c++;
  return c;
}

static gasnete_coll_early_t *gasnete_coll_early_alloc(size_t nbytes) {
  uint32_t c = gasnete_coll_early_class_of(nbytes);
  if (c < GASNETE_COLL_EARLY_CLASSES) {
    gasnete_coll_early_list_t *l = &gasnete_coll_early_lists[c];
    gasnete_coll_early_t *e = l->free;
    if (e) {
      l->free = e->next;
      l->kept--;
      return e;
    }
    nbytes = gasnete_coll_early_class_bytes[c];
  }
  gasnete_coll_early_t *e = gasnete_coll_malloc(sizeof(*e) + nbytes);
  e->size_class = c;
  return e;
}

static void gasnete_coll_early_release(gasnete_coll_early_t *e) {
  uint32_t c = e->size_class;
  if (c < GASNETE_COLL_EARLY_CLASSES) {
    gasnete_coll_early_list_t *l = &gasnete_coll_early_lists[c];
    if (!l->limit) {
      size_t each = sizeof(*e) + gasnete_coll_early_class_bytes[c];
      l->limit = GASNETE_COLL_EARLY_KEEP / each;
    }
    if (l->kept < l->limit) {
      e->next = l->free;
      l->free = e;
      l->kept++;
      return;
    }
  }
  free(e);
}

void gasnete_coll_early_store(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg) {
  gasnete_coll_early_t *e = gasnete_coll_early_alloc(gasnete_coll_early_payload(msg));
  gasnete_coll_early_fill(e, team_id, seq, msg);
  if (!gasnete_coll_early_buckets ||
      gasnete_coll_early_count >= 2 * (size_t)(gasnete_coll_early_mask + 1))
    gasnete_coll_early_grow();
  gasnete_coll_early_append(e); /* replayed in arrival order */
  gasnete_coll_early_count++;
}

/* Take *p (an entry of a chain) out of the store, before its message is
 * handed on: what the message's receiver does may store others. */
static gasnete_coll_early_t *gasnete_coll_early_unlink(gasnete_coll_early_t **p) {
  gasnete_coll_early_t *e = *p;
  *p = e->next;
  gasnete_coll_early_count--;
  return e;
}

void gasnete_coll_early_replay(uint32_t team_id, uint32_t seq, gasnete_coll_op_t *op,
                               void (*deliver)(gasnete_coll_op_t *, const gasnete_coll_msg_t *)) {
  if (!gasnete_coll_early_count) return;
  gasnete_coll_early_t **p = gasnete_coll_early_chain(team_id, seq);
  while (*p) {
    gasnete_coll_early_t *e = *p;
    if (e->seq == seq && e->team_id == team_id) {
      gasnete_coll_early_unlink(p);
      deliver(op, &e->msg);
      gasnete_coll_early_release(e);
      p = gasnete_coll_early_chain(team_id, seq); /* the table may have grown */
    } else {
      p = &e->next;
    }
  }
}

int gasnete_coll_early_take(uint32_t team_id, uint32_t seq, size_t bytes,
                            void (*take)(void *ctx, const gasnete_coll_msg_t *msg), void *ctx) {
  if (!gasnete_coll_early_count) return bytes == 0;
  gasnete_coll_early_t **head = gasnete_coll_early_chain(team_id, seq);
  size_t have = 0;
  for (gasnete_coll_early_t *e = *head; e; e = e->next)
    if (e->seq == seq && e->team_id == team_id) {
      /* a signal, or a chunk already placed: not for a quick path */
      if (!e->msg.nbytes || !e->msg.data) return 0;
      have += e->msg.nbytes;
    }
  if (have != bytes) return 0;
  gasnete_coll_early_t **p = head;
  while (*p) {
    gasnete_coll_early_t *e = *p;
    if (e->seq == seq && e->team_id == team_id) {
      gasnete_coll_early_unlink(p);
      take(ctx, &e->msg);
      gasnete_coll_early_release(e);
    } else {
      p = &e->next;
    }
  }
  return 1;
}

void gasnete_coll_early_drop_team(uint32_t team_id) {
  for (uint32_t b = 0; gasnete_coll_early_count && b <= gasnete_coll_early_mask; b++) {
    gasnete_coll_early_t **p = &gasnete_coll_early_buckets[b];
    while (*p) {
      if ((*p)->team_id == team_id)
        gasnete_coll_early_release(gasnete_coll_early_unlink(p));
      else
        p = &(*p)->next;
    }
  }
}

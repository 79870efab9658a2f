/* coll_early.c: see coll_early.h. */
#include "engine/coll_early.h"

#include <stdlib.h>

#define GASNETE_COLL_EARLY_BUCKETS 1024u /* power of two */

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
static gasnete_coll_early_t *gasnete_coll_early_buckets[GASNETE_COLL_EARLY_BUCKETS];

static unsigned gasnete_coll_early_bucket(uint32_t team_id, uint32_t seq) {
  return (seq ^ (team_id * 0x9e3779b9u)) & (GASNETE_COLL_EARLY_BUCKETS - 1);
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
  /* Append, so messages are replayed in arrival order. */
  gasnete_coll_early_t **p = &gasnete_coll_early_buckets[gasnete_coll_early_bucket(team_id, seq)];
  while (*p) p = &(*p)->next;
  *p = e;
}

void gasnete_coll_early_replay(uint32_t team_id, uint32_t seq, gasnete_coll_op_t *op,
                               void (*deliver)(gasnete_coll_op_t *, const gasnete_coll_msg_t *)) {
  gasnete_coll_early_t **p = &gasnete_coll_early_buckets[gasnete_coll_early_bucket(team_id, seq)];
  while (*p) {
    gasnete_coll_early_t *e = *p;
    if (e->seq == seq && e->team_id == team_id) {
      *p = e->next;
      deliver(op, &e->msg);
      gasnete_coll_early_release(e);
    } else {
      p = &e->next;
    }
  }
}

int gasnete_coll_early_take(uint32_t team_id, uint32_t seq, size_t bytes,
                            void (*take)(void *ctx, const gasnete_coll_msg_t *msg), void *ctx) {
  gasnete_coll_early_t **head = &gasnete_coll_early_buckets[gasnete_coll_early_bucket(team_id, seq)];
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
      *p = e->next;
      take(ctx, &e->msg);
      gasnete_coll_early_release(e);
    } else {
      p = &e->next;
    }
  }
  return 1;
}

void gasnete_coll_early_drop_team(uint32_t team_id) {
  for (unsigned b = 0; b < GASNETE_COLL_EARLY_BUCKETS; b++) {
    gasnete_coll_early_t **p = &gasnete_coll_early_buckets[b];
    while (*p) {
      gasnete_coll_early_t *e = *p;
      if (e->team_id == team_id) {
        *p = e->next;
        gasnete_coll_early_release(e);
      } else {
        p = &e->next;
      }
    }
  }
}

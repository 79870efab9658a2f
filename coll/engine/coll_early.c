/* coll_early.c: see coll_early.h. */
#include "engine/coll_early.h"

#include <stdlib.h>

/* Free lists by payload size: signals, then up to 64 B, 512 B, 4 KiB,
 * 16 KiB and 64 KiB (an smp Medium); larger payloads are malloc'd. Each
 * list keeps at most GASNETE_COLL_EARLY_KEEP bytes of entries, so the
 * store gives memory back once a burst is over. */
#define GASNETE_COLL_EARLY_CLASSES 6u
#define GASNETE_COLL_EARLY_KEEP ((size_t)2 << 20)
static const size_t gasnete_coll_early_class_bytes[GASNETE_COLL_EARLY_CLASSES] = {
    0, 64, 512, 4096, 16384, 65536};

typedef struct {
  gasnete_coll_keyed_t *free; /* entries, linked by their keys */
  size_t kept;  /* entries on the list */
  size_t limit; /* most entries kept */
} gasnete_coll_early_list_t;

static gasnete_coll_early_list_t gasnete_coll_early_lists[GASNETE_COLL_EARLY_CLASSES];

/* The entries by (team, sequence), each key's in arrival order. The table
 * grows with the backlog: a root far behind its leaves (they run ahead
 * under IN_MYSYNC and IN_NOSYNC) may hold tens of thousands. */
static gasnete_coll_seq_table_t gasnete_coll_early_table = GASNETE_COLL_SEQ_TABLE_INIT(1024);

static uint32_t gasnete_coll_early_class_of(size_t nbytes) {
  uint32_t c = 0;
  while (c < GASNETE_COLL_EARLY_CLASSES && nbytes > gasnete_coll_early_class_bytes[c]) c++;
  return c;
}

static gasnete_coll_early_t *gasnete_coll_early_alloc(size_t nbytes) {
  uint32_t c = gasnete_coll_early_class_of(nbytes);
  if (c < GASNETE_COLL_EARLY_CLASSES) {
    gasnete_coll_early_list_t *l = &gasnete_coll_early_lists[c];
    gasnete_coll_keyed_t *k = l->free;
    if (k) {
      l->free = k->next;
      l->kept--;
      return gasnete_coll_early_of(k);
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
      e->key.next = l->free;
      l->free = &e->key;
      l->kept++;
      return;
    }
  }
  free(e);
}

void gasnete_coll_early_store(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg) {
  gasnete_coll_early_t *e = gasnete_coll_early_alloc(gasnete_coll_early_payload(msg));
  gasnete_coll_early_fill(e, team_id, seq, msg);
  gasnete_coll_seq_add(&gasnete_coll_early_table, &e->key); /* replayed in arrival order */
}

/* Take the entry at *link out of the store, before its message is handed
 * on: what the message's receiver does may store others. */
static gasnete_coll_early_t *gasnete_coll_early_unlink(gasnete_coll_keyed_t **link) {
  return gasnete_coll_early_of(gasnete_coll_seq_unlink(&gasnete_coll_early_table, link));
}

static gasnete_coll_keyed_t **gasnete_coll_early_chain(uint32_t team_id, uint32_t seq) {
  return gasnete_coll_seq_chain(&gasnete_coll_early_table, team_id, seq);
}

void gasnete_coll_early_replay(uint32_t team_id, uint32_t seq, gasnete_coll_op_t *op,
                               void (*deliver)(gasnete_coll_op_t *, const gasnete_coll_msg_t *)) {
  if (!gasnete_coll_early_table.count) return;
  gasnete_coll_keyed_t **p = gasnete_coll_early_chain(team_id, seq);
  while (*p) {
    if (gasnete_coll_keyed_is(*p, team_id, seq)) {
      gasnete_coll_early_t *e = gasnete_coll_early_unlink(p);
      deliver(op, &e->msg);
      gasnete_coll_early_release(e);
      p = gasnete_coll_early_chain(team_id, seq); /* the table may have grown */
    } else {
      p = &(*p)->next;
    }
  }
}

int gasnete_coll_early_take(uint32_t team_id, uint32_t seq, size_t bytes,
                            void (*take)(void *ctx, const gasnete_coll_msg_t *msg), void *ctx) {
  if (!gasnete_coll_early_table.count) return bytes == 0;
  gasnete_coll_keyed_t **head = gasnete_coll_early_chain(team_id, seq);
  size_t have = 0;
  for (gasnete_coll_keyed_t *k = *head; k; k = k->next)
    if (gasnete_coll_keyed_is(k, team_id, seq)) {
      const gasnete_coll_msg_t *msg = &gasnete_coll_early_of(k)->msg;
      /* a signal, or a chunk already placed: not for a quick path */
      if (!msg->nbytes || !msg->data) return 0;
      have += msg->nbytes;
    }
  if (have != bytes) return 0;
  gasnete_coll_keyed_t **p = head;
  while (*p) {
    if (gasnete_coll_keyed_is(*p, team_id, seq)) {
      gasnete_coll_early_t *e = gasnete_coll_early_unlink(p);
      take(ctx, &e->msg);
      gasnete_coll_early_release(e);
    } else {
      p = &(*p)->next;
    }
  }
  return 1;
}

void gasnete_coll_early_drop_team(uint32_t team_id) {
  gasnete_coll_seq_table_t *t = &gasnete_coll_early_table;
  for (uint32_t b = 0; t->count && b <= t->mask; b++) {
    gasnete_coll_keyed_t **p = &t->chains[b];
    while (*p) {
      if ((*p)->team_id == team_id)
        gasnete_coll_early_release(gasnete_coll_early_unlink(p));
      else
        p = &(*p)->next;
    }
  }
}

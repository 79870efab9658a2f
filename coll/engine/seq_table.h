/* seq_table.h: a chained hash table of records named by (team id,
 * sequence number), the key of everything the engine files per
 * collective: live ops (coll_engine.c), messages that came early
 * (coll_early.c) and the images' gangs (coll/images/coll_images.c).
 *
 * A record embeds a gasnete_coll_keyed_t, and the table links those.
 * Several records may share a key (the early messages of one op); a chain
 * keeps its records in the order they were added, so the first record of a
 * key is its oldest. The table doubles whenever it holds twice as many
 * records as chains: an engine that falls thousands of collectives behind
 * (a root under IN_MYSYNC, an image far behind its siblings) would
 * otherwise walk ever longer chains for every record added and found, a
 * cost that grows with the backlog (docs/performance.md, "A root far
 * behind"). It never shrinks: at most one pointer for every two records
 * the largest backlog held. Callers hold the engine lock. */
#ifndef COLL_SEQ_TABLE_H
#define COLL_SEQ_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gasnete_coll_keyed_s {
  struct gasnete_coll_keyed_s *next; /* the chain; free for other lists when out of it */
  uint32_t team_id;
  uint32_t seq;
} gasnete_coll_keyed_t;

typedef struct {
  gasnete_coll_keyed_t **chains; /* NULL until the first record */
  uint32_t mask;                 /* chains - 1 */
  uint32_t first;                /* chains of the first table: a power of two */
  size_t count;                  /* records filed */
} gasnete_coll_seq_table_t;

/* An empty table whose first allocation has `chains` chains. */
#define GASNETE_COLL_SEQ_TABLE_INIT(chains) {NULL, 0, (chains), 0}

static inline int gasnete_coll_keyed_is(const gasnete_coll_keyed_t *k, uint32_t team_id,
                                        uint32_t seq) {
  return k->seq == seq && k->team_id == team_id;
}

/* The chain that holds (team_id, seq): sequence numbers are consecutive,
 * so they index the chains directly; the team id is spread by a
 * multiplicative hash so that teams at the same point do not collide.
 * Only for a table that holds records (t->chains set). */
static inline gasnete_coll_keyed_t **gasnete_coll_seq_chain(const gasnete_coll_seq_table_t *t,
                                                          uint32_t team_id, uint32_t seq) {
  return &t->chains[(seq ^ (team_id * 0x9e3779b9u)) & t->mask];
}

/* The oldest record of (team_id, seq), or NULL. */
static inline gasnete_coll_keyed_t *gasnete_coll_seq_find(const gasnete_coll_seq_table_t *t,
                                                         uint32_t team_id, uint32_t seq) {
  if (!t->count) return NULL;
  gasnete_coll_keyed_t *k = *gasnete_coll_seq_chain(t, team_id, seq);
  while (k && !gasnete_coll_keyed_is(k, team_id, seq)) k = k->next;
  return k;
}

/* Take the record *link (a link of one of t's chains) out of the table and
 * return it. */
static inline gasnete_coll_keyed_t *gasnete_coll_seq_unlink(gasnete_coll_seq_table_t *t,
                                                           gasnete_coll_keyed_t **link) {
  gasnete_coll_keyed_t *k = *link;
  *link = k->next;
  t->count--;
  return k;
}

/* File k (its key set) after the records already in its chain. */
extern void gasnete_coll_seq_add(gasnete_coll_seq_table_t *t, gasnete_coll_keyed_t *k);
/* Take k, a record of t, out of it. */
extern void gasnete_coll_seq_remove(gasnete_coll_seq_table_t *t, gasnete_coll_keyed_t *k);

#endif

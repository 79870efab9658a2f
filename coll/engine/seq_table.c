/* seq_table.c: see seq_table.h. */
#include "engine/engine.h"

#include <stdlib.h>

static void gasnete_coll_seq_append(gasnete_coll_seq_table_t *t, gasnete_coll_keyed_t *k) {
  gasnete_coll_keyed_t **p = gasnete_coll_seq_chain(t, k->team_id, k->seq);
  while (*p) p = &(*p)->next;
  k->next = NULL;
  *p = k;
}

/* Move every record to a table twice the size (or allocate the first).
 * Each old chain is walked front to back and appended, so the records of
 * one key, which share a chain, keep their order. */
static void gasnete_coll_seq_grow(gasnete_coll_seq_table_t *t) {
  uint32_t old_n = t->chains ? t->mask + 1 : 0;
  uint32_t new_n = old_n ? old_n * 2 : t->first;
  gasnete_coll_keyed_t **old = t->chains;
  t->chains = gasnete_coll_calloc(new_n, sizeof(*t->chains));
  t->mask = new_n - 1;
  for (uint32_t i = 0; i < old_n; i++)
    while (old[i]) {
      gasnete_coll_keyed_t *k = old[i];
      old[i] = k->next;
      gasnete_coll_seq_append(t, k);
    }
  free(old);
}

void gasnete_coll_seq_add(gasnete_coll_seq_table_t *t, gasnete_coll_keyed_t *k) {
  if (!t->chains || t->count >= 2 * (size_t)(t->mask + 1)) gasnete_coll_seq_grow(t);
  gasnete_coll_seq_append(t, k);
  t->count++;
}

void gasnete_coll_seq_remove(gasnete_coll_seq_table_t *t, gasnete_coll_keyed_t *k) {
  gasnete_coll_keyed_t **p = gasnete_coll_seq_chain(t, k->team_id, k->seq);
  while (*p != k) p = &(*p)->next;
  gasnete_coll_seq_unlink(t, p);
}

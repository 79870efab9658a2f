/* gasnet_handler.c: the AM handler table and GASNet's rules for it.
 * Indices are owned by range (see gasnet_hooks.h); clients use 128-255 and
 * may ask for "any free index" with index 0, which attach writes back. */
#include "gasnet_internal.h"

gasneti_handler_fn_t gasneti_handler_table[256];

/* Who registered each index, for messages about clashes. */
static const char *gasneti_handler_owner[256];

static int gasneti_handler_set(int index, gasneti_handler_fn_t fn, const char *owner) {
  if (gasneti_handler_table[index] && gasneti_handler_table[index] != fn) return -1;
  gasneti_handler_table[index] = fn;
  gasneti_handler_owner[index] = owner;
  return 0;
}

void gasneti_handler_register_range(const gasnet_handlerentry_t *table, int numentries,
                                    int min_index, int max_index, const char *owner) {
  for (int i = 0; i < numentries; i++) {
    int index = table[i].index;
    if (index < min_index || index > max_index)
      gasneti_fatalerror("%s: handler index %d outside its range %d..%d", owner, index,
                         min_index, max_index);
    if (!table[i].fnptr) gasneti_fatalerror("%s: handler index %d has a NULL function", owner, index);
    if (gasneti_handler_set(index, table[i].fnptr, owner))
      gasneti_fatalerror("%s: handler index %d is already registered by %s", owner, index,
                         gasneti_handler_owner[index]);
  }
}

static int gasneti_handler_check_client_table(const gasnet_handlerentry_t *table, int numentries) {
  static const char call[] = "gasnet_attach";
  if (numentries < 0)
    return gasneti_error(GASNET_ERR_BAD_ARG, call, "numentries %d is negative", numentries);
  if (numentries > 0 && !table)
    return gasneti_error(GASNET_ERR_BAD_ARG, call, "table is NULL but numentries is %d",
                         numentries);
  for (int i = 0; i < numentries; i++) {
    int index = table[i].index;
    if (!table[i].fnptr)
      return gasneti_error(GASNET_ERR_BAD_ARG, call, "table[%d].fnptr is NULL (index %d)", i,
                           index);
    if (index != 0 && index < GASNETI_HANDLER_CLIENT_MIN)
      return gasneti_error(GASNET_ERR_BAD_ARG, call,
                           "table[%d].index %d is outside the client range %d..%d", i, index,
                           GASNETI_HANDLER_CLIENT_MIN, GASNETI_HANDLER_CLIENT_MAX);
    for (int j = 0; j < i; j++)
      if (index != 0 && table[j].index == index)
        return gasneti_error(GASNET_ERR_BAD_ARG, call,
                             "table[%d].index %d duplicates table[%d].index", i, index, j);
  }
  return GASNET_OK;
}

/* Index 0 entries get the highest free client index not named elsewhere in
 * the table, so explicit indices always win. */
static int gasneti_handler_pick_free(const gasnet_handlerentry_t *table, int numentries) {
  for (int index = GASNETI_HANDLER_CLIENT_MAX; index >= GASNETI_HANDLER_CLIENT_MIN; index--) {
    int taken = gasneti_handler_table[index] != NULL;
    for (int j = 0; j < numentries && !taken; j++) taken = table[j].index == index;
    if (!taken) return index;
  }
  return -1;
}

int gasneti_handler_register_client(gasnet_handlerentry_t *table, int numentries) {
  int rc = gasneti_handler_check_client_table(table, numentries);
  if (rc != GASNET_OK) return rc;
  for (int i = 0; i < numentries; i++) {
    if (table[i].index != 0) continue;
    int index = gasneti_handler_pick_free(table, numentries);
    if (index < 0)
      return gasneti_error(GASNET_ERR_RESOURCE, "gasnet_attach",
                           "no free client handler index left for table[%d]", i);
    table[i].index = (gasnet_handler_t)index;
  }
  for (int i = 0; i < numentries; i++)
    if (gasneti_handler_set(table[i].index, table[i].fnptr, "the client"))
      return gasneti_error(GASNET_ERR_BAD_ARG, "gasnet_attach",
                           "table[%d].index %d is already registered by %s", i, table[i].index,
                           gasneti_handler_owner[table[i].index]);
  return GASNET_OK;
}

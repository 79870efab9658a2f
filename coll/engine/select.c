/* select.c: the selector's machinery: one table of algorithms per
 * operation, registered by the floor that implements the operation
 * (ops/), with the rule that picks its default by (bytes, team size and
 * supernodes, flags). GASNET_COLL_<OP>_ALG forces one by name for every
 * call of that operation (unknown names are fatal and list the valid
 * ones); a forced algorithm that cannot serve a call (a put-based one
 * without DST_IN_SEGMENT) gives way to the default rule. */
#include "engine/engine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

typedef struct {
  const char *op_name;
  const char *env_name;
  const gasnete_coll_alg_t *algs;
  unsigned nalgs;
  gasnete_coll_default_rule_t rule;
  const gasnete_coll_alg_t *forced;
} gasnete_coll_alg_table_t;

static gasnete_coll_alg_table_t gasnete_coll_tables[GASNETE_COLL_KIND_COUNT];

void gasnete_coll_select_register(gasnete_coll_kind_t kind, const char *op_name,
                                  const char *env_name, const gasnete_coll_alg_t *algs,
                                  unsigned nalgs, gasnete_coll_default_rule_t rule) {
  gasnete_coll_alg_table_t t = {op_name, env_name, algs, nalgs, rule, NULL};
  gasnete_coll_tables[kind] = t;
}

const char *gasnete_coll_kind_name(gasnete_coll_kind_t kind) {
  if (kind == GASNETE_COLL_TEAM_BARRIER) return "team_barrier";
  return kind < GASNETE_COLL_KIND_COUNT && gasnete_coll_tables[kind].op_name
             ? gasnete_coll_tables[kind].op_name
             : "unknown";
}

static const gasnete_coll_alg_t *gasnete_coll_find_alg(const gasnete_coll_alg_table_t *t,
                                                       const char *name) {
  for (unsigned i = 0; i < t->nalgs; i++)
    if (!strcasecmp(t->algs[i].name, name)) return &t->algs[i];
  return NULL;
}

static void gasnete_coll_unknown_alg(const gasnete_coll_alg_table_t *t, const char *name) {
  char valid[256] = "";
  for (unsigned i = 0; i < t->nalgs; i++) {
    strncat(valid, i ? ", " : "", sizeof(valid) - strlen(valid) - 1);
    strncat(valid, t->algs[i].name, sizeof(valid) - strlen(valid) - 1);
  }
  gasneti_fatalerror("gasnet_coll_init: %s=\"%s\" is not the name of any %s algorithm; valid names: %s",
                     t->env_name, name, t->op_name, valid);
}

void gasnete_coll_select_init(void) {
  for (int k = 0; k < GASNETE_COLL_KIND_COUNT; k++) {
    gasnete_coll_alg_table_t *t = &gasnete_coll_tables[k];
    const char *name = gasneti_getenv_verbose(t->env_name, "the selector's choice");
    t->forced = NULL;
    if (name && *name) {
      t->forced = gasnete_coll_find_alg(t, name);
      if (!t->forced) gasnete_coll_unknown_alg(t, name);
    }
  }
}

/* The default rules name their choices with string constants: remember
 * what each (kind, name) found, so a call costs no string compares. A
 * slot is claimed once (its name set last, with a compare-and-swap) and
 * never changes, so threads may read it without a lock; a name whose slot
 * is taken is looked up each time. */
#define GASNETE_COLL_NAME_CACHE 64u
typedef struct {
  const char *name; /* atomic: set once, after kind and alg */
  gasnete_coll_kind_t kind;
  const gasnete_coll_alg_t *alg;
  int claimed; /* atomic */
} gasnete_coll_name_slot_t;
static gasnete_coll_name_slot_t gasnete_coll_name_cache[GASNETE_COLL_NAME_CACHE];

static const gasnete_coll_alg_t *gasnete_coll_by_name(gasnete_coll_kind_t kind, const char *name) {
  unsigned h = (unsigned)(((uintptr_t)name >> 3) * 31u + (unsigned)kind);
  gasnete_coll_name_slot_t *slot = &gasnete_coll_name_cache[h % GASNETE_COLL_NAME_CACHE];
  if (__atomic_load_n(&slot->name, __ATOMIC_ACQUIRE) == name && slot->kind == kind) return slot->alg;
  const gasnete_coll_alg_t *alg = gasnete_coll_find_alg(&gasnete_coll_tables[kind], name);
  if (!alg) gasneti_fatalerror("gasnet_coll: internal: no %s algorithm \"%s\"",
                               gasnete_coll_tables[kind].op_name, name);
  int unclaimed = 0;
  if (__atomic_compare_exchange_n(&slot->claimed, &unclaimed, 1, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    slot->kind = kind;
    slot->alg = alg;
    __atomic_store_n(&slot->name, name, __ATOMIC_RELEASE);
  }
  return alg;
}

int gasnete_coll_any_eligible(const gasnete_coll_args_t *args, const gasnete_coll_team_t *team) {
  (void)args;
  (void)team;
  return 1;
}

const gasnete_coll_alg_t *gasnete_coll_select(const gasnete_coll_args_t *args,
                                              const gasnete_coll_team_t *team) {
  const gasnete_coll_alg_table_t *t = &gasnete_coll_tables[args->kind];
  if (t->forced && t->forced->eligible(args, team)) return t->forced;
  return gasnete_coll_by_name(args->kind, t->rule(args, team));
}

const gasnete_coll_alg_t *gasnete_coll_select_named(gasnete_coll_kind_t kind, const char *name) {
  return gasnete_coll_by_name(kind, name);
}

gasnete_coll_alg_table_view_t gasnete_coll_select_table(gasnete_coll_kind_t kind) {
  const gasnete_coll_alg_table_t *t = &gasnete_coll_tables[kind];
  gasnete_coll_alg_table_view_t v = {t->op_name, t->env_name, t->algs, t->nalgs, t->forced};
  return v;
}

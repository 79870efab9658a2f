/* gasnet_bootstrap_pmix.c: the bootstrap exchange under a PMIx launcher
 * (see gasnet_bootstrap_pmix.h). An allgather is one key per round: every
 * node puts its block under "gasnet.boot.<round>", commits it, and a fence
 * that collects the data makes every node's block readable everywhere;
 * each block starts with its length, so a node that gave another size is
 * named. The fences carry GASNETI_BOOTSTRAP_TIMEOUT_S as their timeout, so
 * a node that never arrives makes the others fail instead of hang (a node
 * that ends early usually makes the launcher end the job first). */
#include "gasnet_bootstrap_pmix.h"

#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  pmix_proc_t me;  /* this node: the job's namespace and its rank */
  pmix_proc_t job; /* every node of the job (the wildcard rank) */
  unsigned round;  /* allgathers so far: names the next key */
} gasneti_boot_pmix_t;

static int gasneti_boot_pmix_fail(gasneti_bootstrap_t *b, const char *call, pmix_status_t rc) {
  return gasneti_boot_fail(b, "bootstrap exchange: node %u: %s failed: %s", b->node, call,
                           PMIx_Error_string(rc));
}

/* PMIx_Fence over the whole job, collecting the committed data or not. */
static int gasneti_boot_pmix_fence(gasneti_bootstrap_t *b, int collect) {
  gasneti_boot_pmix_t *st = b->pmix;
  pmix_info_t info[2];
  bool want = collect != 0;
  int timeout = GASNETI_BOOTSTRAP_TIMEOUT_S;
  PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &want, PMIX_BOOL);
  PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
  pmix_status_t rc = PMIx_Fence(&st->job, 1, info, 2);
  PMIX_INFO_DESTRUCT(&info[0]);
  PMIX_INFO_DESTRUCT(&info[1]);
  if (rc == PMIX_ERR_TIMEOUT)
    return gasneti_boot_fail(b, "bootstrap exchange: node %u: not every node reached the "
                             "exchange in %d s (PMIx_Fence timed out)", b->node, timeout);
  /* Open MPI's server answers PARTIAL_SUCCESS when a node of the fence has
   * ended without joining it. */
  if (rc == PMIX_ERR_PARTIAL_SUCCESS)
    return gasneti_boot_fail(b, "bootstrap exchange: node %u: a node of the job ended "
                             "before it reached the exchange (PMIx_Fence: %s)", b->node,
                             PMIx_Error_string(rc));
  return rc == PMIX_SUCCESS ? 0 : gasneti_boot_pmix_fail(b, "PMIx_Fence", rc);
}

int gasneti_bootstrap_pmix_open(gasneti_bootstrap_t *b) {
  gasneti_boot_pmix_t *st = calloc(1, sizeof(*st));
  if (!st) return gasneti_boot_fail(b, "bootstrap exchange: out of memory");
  pmix_status_t rc = PMIx_Init(&st->me, NULL, 0);
  if (rc != PMIX_SUCCESS) {
    free(st);
    return gasneti_boot_pmix_fail(b, "PMIx_Init", rc);
  }
  b->pmix = st;
  b->node = st->me.rank;
  PMIX_LOAD_PROCID(&st->job, st->me.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t *size = NULL;
  rc = PMIx_Get(&st->job, PMIX_JOB_SIZE, NULL, 0, &size);
  if (rc != PMIX_SUCCESS) return gasneti_boot_pmix_fail(b, "PMIx_Get(PMIX_JOB_SIZE)", rc);
  uint32_t nodes = size->type == PMIX_UINT32 ? size->data.uint32 : 0;
  PMIX_VALUE_RELEASE(size);
  if (nodes == 0 || nodes > 65536 || b->node >= nodes)
    return gasneti_boot_fail(b, "bootstrap exchange: PMIx gives rank %u of %u processes: "
                             "not a job of 1 to 65536 nodes", b->node, (unsigned)nodes);
  b->nodes = nodes;
  return 0;
}

/* Put this node's block, with its length in front, under the round's key. */
static int gasneti_boot_pmix_put(gasneti_bootstrap_t *b, const char *key, size_t len,
                                 const void *mine) {
  char *block = malloc(sizeof(uint64_t) + len);
  if (!block) return gasneti_boot_fail(b, "bootstrap exchange: out of memory");
  uint64_t n = len;
  memcpy(block, &n, sizeof(n));
  memcpy(block + sizeof(n), mine, len);
  pmix_value_t value;
  PMIX_VALUE_CONSTRUCT(&value);
  value.type = PMIX_BYTE_OBJECT;
  value.data.bo.bytes = block;
  value.data.bo.size = sizeof(n) + len;
  pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &value);
  free(block); /* PMIx_Put copies the value */
  if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
  return rc == PMIX_SUCCESS ? 0 : gasneti_boot_pmix_fail(b, "PMIx_Put/PMIx_Commit", rc);
}

/* Node i's block of the round, into its place in all. */
static int gasneti_boot_pmix_fetch(gasneti_bootstrap_t *b, const char *key, unsigned i,
                                   size_t len, char *all) {
  gasneti_boot_pmix_t *st = b->pmix;
  pmix_proc_t peer;
  PMIX_LOAD_PROCID(&peer, st->me.nspace, i);
  pmix_value_t *value = NULL;
  pmix_status_t rc = PMIx_Get(&peer, key, NULL, 0, &value);
  if (rc != PMIX_SUCCESS) return gasneti_boot_pmix_fail(b, "PMIx_Get of a node's block", rc);
  uint64_t theirs = UINT64_MAX;
  int ok = value->type == PMIX_BYTE_OBJECT && value->data.bo.size >= sizeof(theirs);
  if (ok) memcpy(&theirs, value->data.bo.bytes, sizeof(theirs));
  ok = ok && theirs == len && value->data.bo.size == sizeof(theirs) + len;
  if (ok) memcpy(all + (size_t)i * len, value->data.bo.bytes + sizeof(theirs), len);
  PMIX_VALUE_RELEASE(value);
  if (!ok)
    return gasneti_boot_fail(b, "bootstrap exchange: node %u gave %llu bytes to an allgather "
                             "where node %u gave %zu (every node must give the same)", i,
                             (unsigned long long)theirs, b->node, len);
  return 0;
}

int gasneti_bootstrap_pmix_allgather(gasneti_bootstrap_t *b, size_t len, void *all) {
  gasneti_boot_pmix_t *st = b->pmix;
  if (len == 0) return gasneti_boot_pmix_fence(b, 0); /* the barrier */
  char key[PMIX_MAX_KEYLEN + 1];
  snprintf(key, sizeof(key), "gasnet.boot.%u", st->round++);
  char *blocks = all;
  if (gasneti_boot_pmix_put(b, key, len, blocks + (size_t)b->node * len) ||
      gasneti_boot_pmix_fence(b, 1))
    return -1;
  for (unsigned i = 0; i < b->nodes; i++)
    if (i != b->node && gasneti_boot_pmix_fetch(b, key, i, len, blocks)) return -1;
  return 0;
}

void gasneti_bootstrap_pmix_close(gasneti_bootstrap_t *b) {
  PMIx_Finalize(NULL, 0);
  free(b->pmix);
  b->pmix = NULL;
}

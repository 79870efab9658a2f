/* gasnete_putget.c: the public put/get/memset entry points.
 *
 * Every call is checked first (always: it is a few compares): attach done,
 * node in range, nbytes not negative, the local buffer not NULL, the remote
 * range inside the peer's segment when the peer is another node (a node's
 * own memory is not remote: any address of this process will do, as in
 * GASNet-1, only not NULL). Then, in this order:
 *   - nothing to move, or the node is this one: done here (a copy between
 *     the two local addresses, in or out of the segment);
 *   - the conduit's overrides (gasnet_extended_conduit.h): a synchronous
 *     transfer (smp: a copy between cross-mapped segments; mpi: RMA and a
 *     flush), or one it starts now and completes later (put_nb / get_nb:
 *     mpi's RMA). The blocking forms try the synchronous one first, the
 *     _nb and _nbi forms the deferred one, since only it lets the client
 *     overlap;
 *   - else the AM protocols of gasnete_amputget.c.
 * Deferred and AM transfers count completions on an explicit op (_nb), the
 * thread's implicit op or open access region (_nbi), or a counter on the
 * stack (blocking forms, which wait for it). Operations complete at return
 * give GASNET_INVALID_HANDLE. Every copy made
 * here is gasnet_copy.h's: an aligned 1, 2, 4 or 8 bytes is one store of
 * that width, never memcpy's two. */
#include "gasnete_internal.h"

#include "gasnet_copy.h"

#include <stdlib.h>
#include <sys/types.h>

gasnet_node_t gasnete_mynode;
gasnet_node_t gasnete_nodes;
gasnet_seginfo_t *gasnete_seginfo;

static const gasnete_conduit_ops_t *gasnete_registered_ops;
/* The override in force, fixed at attach. */
static gasnete_conduit_ops_t gasnete_ops;

void gasnete_register_conduit_ops(const gasnete_conduit_ops_t *ops) { gasnete_registered_ops = ops; }
const gasnete_conduit_ops_t *gasnete_conduit_ops(void) { return gasnete_registered_ops; }

static void gasnete_putget_attach(void) {
  gasnete_mynode = gasnet_mynode();
  gasnete_nodes = gasnet_nodes();
  gasnet_seginfo_t *table = calloc(gasnete_nodes, sizeof(*table));
  if (!table) gasneti_fatalerror("extended-ref: failed to allocate the segment table");
  if (gasnet_getSegmentInfo(table, (int)gasnete_nodes) != GASNET_OK)
    gasneti_fatalerror("extended-ref: failed to read the segment table");
  if (gasnete_registered_ops) gasnete_ops = *gasnete_registered_ops;
  __atomic_store_n(&gasnete_seginfo, table, __ATOMIC_RELEASE);
}

GASNETE_CONSTRUCTOR static void gasnete_putget_register(void) {
  gasneti_attach_hook_register(gasnete_putget_attach);
}

/* ------------------------------------------------------------ checks */
static void gasnete_check_node(const char *call, gasnet_node_t node) {
  if (__builtin_expect(!gasnete_seginfo, 0))
    gasneti_fatalerror("%s: called before gasnet_attach", call);
  if (__builtin_expect(node >= gasnete_nodes, 0))
    gasneti_fatalerror("%s: node %u is out of range (gasnet_nodes() is %u)", call,
                       (unsigned)node, (unsigned)gasnete_nodes);
}

/* ------------------------------------------------------------ events
 * Category P (puts, memsets) or G (gets): one event per call, named after
 * the call ("gasnet_put_nb_bulk"). A transfer to this node itself is
 * counted, and traced only with GASNET_TRACELOCAL; D adds a put's first
 * bytes. */
static void gasnete_xfer_event(const char *call, gasnet_node_t node, const void *remote,
                               const void *local, size_t nbytes) {
  const char cat = call[7] == 'g' ? 'G' : 'P';
  if (gasneti_stats_on(cat)) gasneti_stats_add(cat, call, NULL, GASNETI_STATS_BYTES, nbytes);
  if (!gasneti_trace_on(cat) || (node == gasnete_mynode && !gasneti_trace_local())) return;
  char data[48] = "";
  if (call[7] == 'p' && local && nbytes && gasneti_trace_on('D')) {
    size_t n = (size_t)snprintf(data, sizeof(data), " data=");
    for (size_t i = 0; i < nbytes && i < 16; i++)
      n += (size_t)snprintf(data + n, sizeof(data) - n, "%02x", ((const unsigned char *)local)[i]);
  }
  gasneti_trace_printf(cat, "%s node=%u bytes=%zu remote=%p%s", call, (unsigned)node, nbytes,
                       remote, data);
}

/* remote is the address on `node` (put/memset: dest; get: src), local the
 * one in this process; the names are the call's parameter names. */
static void gasnete_check_xfer(const char *call, gasnet_node_t node, const void *remote,
                               const char *remote_name, const void *local,
                               const char *local_name, size_t nbytes) {
  gasnete_check_node(call, node);
  if (gasneti_event_on('P') || gasneti_event_on('G'))
    gasnete_xfer_event(call, node, remote, local, nbytes);
  if (__builtin_expect((ssize_t)nbytes < 0, 0))
    gasneti_fatalerror("%s: nbytes %zu is negative (%zd) as a signed size", call, nbytes,
                       (ssize_t)nbytes);
  if (!nbytes) return;
  if (__builtin_expect(!local, 0))
    gasneti_fatalerror("%s: %s is NULL with nbytes %zu", call, local_name, nbytes);
  if (node == gasnete_mynode) {
    /* this node's own memory: anywhere in the process */
    if (__builtin_expect(!remote, 0))
      gasneti_fatalerror("%s: %s is NULL with nbytes %zu", call, remote_name, nbytes);
    return;
  }
  const gasnet_seginfo_t *seg = &gasnete_seginfo[node];
  uintptr_t lo = (uintptr_t)seg->addr, hi = lo + seg->size, a = (uintptr_t)remote;
  if (__builtin_expect(a < lo || a > hi || nbytes > hi - a, 0))
    gasneti_fatalerror("%s: remote range %p + %zu bytes lies outside node %u's segment [%p, %p)",
                       call, remote, nbytes, (unsigned)node, (void *)lo, (void *)hi);
}

static void gasnete_check_valsize(const char *call, size_t nbytes) {
  if (nbytes < 1 || nbytes > sizeof(gasnet_register_value_t))
    gasneti_fatalerror("%s: nbytes %zu is not in 1..%zu", call, nbytes,
                       sizeof(gasnet_register_value_t));
}

static void gasnete_counter_wait(gasnete_counter_t *c) {
  unsigned spins = 0;
  while (!gasnete_counter_done(c)) gasneti_wait_step(&spins);
}

/* ------------------------------------------------------------ transfers done at once */
/* Nothing to move, or this node's own memory: a copy, done here. */
static int gasnete_put_local(gasnet_node_t node, void *dest, void *src, size_t nbytes) {
  if (!nbytes) return 1;
  if (node != gasnete_mynode) return 0;
  gasneti_copy(dest, src, nbytes);
  return 1;
}

static int gasnete_get_local(void *dest, gasnet_node_t node, void *src, size_t nbytes) {
  if (!nbytes) return 1;
  if (node != gasnete_mynode) return 0;
  gasneti_copy(dest, src, nbytes);
  return 1;
}

static int gasnete_memset_now(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  if (!nbytes) return 1;
  if (node == gasnete_mynode) {
    gasneti_set(dest, val, nbytes);
    return 1;
  }
  return gasnete_ops.memset && gasnete_ops.memset(node, dest, val, nbytes);
}

static int gasnete_put_sync(gasnet_node_t node, void *dest, void *src, size_t nbytes) {
  return gasnete_ops.put && gasnete_ops.put(node, dest, src, nbytes);
}

static int gasnete_get_sync(void *dest, gasnet_node_t node, void *src, size_t nbytes) {
  return gasnete_ops.get && gasnete_ops.get(dest, node, src, nbytes);
}

/* ------------------------------------------------------------ deferred transfers
 * The conduit's put_nb / get_nb, counted on ctr: 1 when it took the
 * transfer (it signals ctr->completed when done), 0 when it declined. The
 * count is raised first, so a completion signalled at once, or by another
 * thread's poll, never runs ahead of it for long: only this thread looks
 * at the pair, and only after the call returns. */
static int gasnete_put_deferred(gasnet_node_t node, void *dest, void *src, size_t nbytes,
                                int bulk, gasnete_counter_t *ctr) {
  if (!gasnete_ops.put_nb) return 0;
  ctr->initiated++;
  if (gasnete_ops.put_nb(node, dest, src, nbytes, bulk, &ctr->completed)) return 1;
  ctr->initiated--;
  return 0;
}

static int gasnete_get_deferred(void *dest, gasnet_node_t node, void *src, size_t nbytes,
                                gasnete_counter_t *ctr) {
  if (!gasnete_ops.get_nb) return 0;
  ctr->initiated++;
  if (gasnete_ops.get_nb(dest, node, src, nbytes, &ctr->completed)) return 1;
  ctr->initiated--;
  return 0;
}

/* _nbi forms: deferred, else synchronous, else AM, counted on ctr. */
static void gasnete_put_counted(gasnet_node_t node, void *dest, void *src, size_t nbytes,
                                int bulk, gasnete_counter_t *ctr) {
  if (gasnete_put_deferred(node, dest, src, nbytes, bulk, ctr)) return;
  if (gasnete_put_sync(node, dest, src, nbytes)) return;
  gasnete_am_put(node, dest, src, nbytes, ctr, bulk);
}

static void gasnete_get_counted(void *dest, gasnet_node_t node, void *src, size_t nbytes,
                                gasnete_counter_t *ctr) {
  if (gasnete_get_deferred(dest, node, src, nbytes, ctr)) return;
  if (gasnete_get_sync(dest, node, src, nbytes)) return;
  gasnete_am_get(dest, node, src, nbytes, ctr);
}

/* ------------------------------------------------------------ put */
static gasnet_handle_t gasnete_put_nb_call(const char *call, gasnet_node_t node, void *dest,
                                           void *src, size_t nbytes, int bulk) {
  gasnete_check_xfer(call, node, dest, "dest", src, "src", nbytes);
  if (gasnete_put_local(node, dest, src, nbytes)) return GASNET_INVALID_HANDLE;
  gasnete_threaddata_t *td = gasnete_mythread();
  gasnete_op_t *op = NULL;
  if (gasnete_ops.put_nb) {
    op = gasnete_op_new(td, GASNETE_OP_EXPLICIT);
    if (gasnete_put_deferred(node, dest, src, nbytes, bulk, &op->ctr[GASNETE_CTR_PUTS])) return op;
  }
  if (gasnete_put_sync(node, dest, src, nbytes)) {
    if (op) gasnete_op_free(op);
    return GASNET_INVALID_HANDLE;
  }
  if (!op) op = gasnete_op_new(td, GASNETE_OP_EXPLICIT);
  gasnete_am_put(node, dest, src, nbytes, &op->ctr[GASNETE_CTR_PUTS], bulk);
  return op;
}

static void gasnete_put_nbi_call(const char *call, gasnet_node_t node, void *dest, void *src,
                                 size_t nbytes, int bulk) {
  gasnete_check_xfer(call, node, dest, "dest", src, "src", nbytes);
  if (gasnete_put_local(node, dest, src, nbytes)) return;
  gasnete_put_counted(node, dest, src, nbytes, bulk,
                      &gasnete_mythread()->current->ctr[GASNETE_CTR_PUTS]);
}

static void gasnete_put_call(const char *call, gasnet_node_t node, void *dest, void *src,
                             size_t nbytes, int bulk) {
  gasnete_check_xfer(call, node, dest, "dest", src, "src", nbytes);
  if (gasnete_put_local(node, dest, src, nbytes) || gasnete_put_sync(node, dest, src, nbytes))
    return;
  gasnete_counter_t ctr;
  gasnete_counter_init(&ctr);
  if (!gasnete_put_deferred(node, dest, src, nbytes, bulk, &ctr))
    gasnete_am_put(node, dest, src, nbytes, &ctr, bulk);
  gasnete_counter_wait(&ctr);
}

gasnet_handle_t gasnete_put_nb(gasnet_node_t node, void *dest, void *src, size_t nbytes,
                               int bulk) {
  return gasnete_put_nb_call(bulk ? "gasnet_put_nb_bulk" : "gasnet_put_nb", node, dest, src,
                             nbytes, bulk);
}

void gasnete_put_nbi(gasnet_node_t node, void *dest, void *src, size_t nbytes, int bulk) {
  gasnete_put_nbi_call(bulk ? "gasnet_put_nbi_bulk" : "gasnet_put_nbi", node, dest, src, nbytes,
                       bulk);
}

void gasnete_put(gasnet_node_t node, void *dest, void *src, size_t nbytes, int bulk) {
  gasnete_put_call(bulk ? "gasnet_put_bulk" : "gasnet_put", node, dest, src, nbytes, bulk);
}

/* ------------------------------------------------------------ get */
static gasnet_handle_t gasnete_get_nb_call(const char *call, void *dest, gasnet_node_t node,
                                           void *src, size_t nbytes) {
  gasnete_check_xfer(call, node, src, "src", dest, "dest", nbytes);
  if (gasnete_get_local(dest, node, src, nbytes)) return GASNET_INVALID_HANDLE;
  gasnete_threaddata_t *td = gasnete_mythread();
  gasnete_op_t *op = NULL;
  if (gasnete_ops.get_nb) {
    op = gasnete_op_new(td, GASNETE_OP_EXPLICIT);
    if (gasnete_get_deferred(dest, node, src, nbytes, &op->ctr[GASNETE_CTR_PUTS])) return op;
  }
  if (gasnete_get_sync(dest, node, src, nbytes)) {
    if (op) gasnete_op_free(op);
    return GASNET_INVALID_HANDLE;
  }
  if (!op) op = gasnete_op_new(td, GASNETE_OP_EXPLICIT);
  gasnete_am_get(dest, node, src, nbytes, &op->ctr[GASNETE_CTR_PUTS]);
  return op;
}

gasnet_handle_t gasnete_get_nb(void *dest, gasnet_node_t node, void *src, size_t nbytes,
                               int bulk) {
  return gasnete_get_nb_call(bulk ? "gasnet_get_nb_bulk" : "gasnet_get_nb", dest, node, src,
                             nbytes);
}

void gasnete_get_nbi(void *dest, gasnet_node_t node, void *src, size_t nbytes, int bulk) {
  gasnete_check_xfer(bulk ? "gasnet_get_nbi_bulk" : "gasnet_get_nbi", node, src, "src", dest,
                     "dest", nbytes);
  if (gasnete_get_local(dest, node, src, nbytes)) return;
  gasnete_get_counted(dest, node, src, nbytes,
                      &gasnete_mythread()->current->ctr[GASNETE_CTR_GETS]);
}

static void gasnete_get_call(const char *call, void *dest, gasnet_node_t node, void *src,
                             size_t nbytes) {
  gasnete_check_xfer(call, node, src, "src", dest, "dest", nbytes);
  if (gasnete_get_local(dest, node, src, nbytes) || gasnete_get_sync(dest, node, src, nbytes))
    return;
  gasnete_counter_t ctr;
  gasnete_counter_init(&ctr);
  if (!gasnete_get_deferred(dest, node, src, nbytes, &ctr))
    gasnete_am_get(dest, node, src, nbytes, &ctr);
  gasnete_counter_wait(&ctr);
}

void gasnete_get(void *dest, gasnet_node_t node, void *src, size_t nbytes, int bulk) {
  gasnete_get_call(bulk ? "gasnet_get_bulk" : "gasnet_get", dest, node, src, nbytes);
}

/* ------------------------------------------------------------ memset */
static void gasnete_check_memset(const char *call, gasnet_node_t node, void *dest,
                                 size_t nbytes) {
  /* no local buffer: pass one that passes, so only the remote range is judged */
  gasnete_check_xfer(call, node, dest, "dest", (void *)1, "dest", nbytes);
}

gasnet_handle_t gasnete_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  gasnete_check_memset("gasnet_memset_nb", node, dest, nbytes);
  if (gasnete_memset_now(node, dest, val, nbytes)) return GASNET_INVALID_HANDLE;
  gasnete_op_t *op = gasnete_op_new(gasnete_mythread(), GASNETE_OP_EXPLICIT);
  gasnete_am_memset(node, dest, val, nbytes, &op->ctr[GASNETE_CTR_PUTS]);
  return op;
}

void gasnete_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  gasnete_check_memset("gasnet_memset_nbi", node, dest, nbytes);
  if (gasnete_memset_now(node, dest, val, nbytes)) return;
  gasnete_am_memset(node, dest, val, nbytes,
                    &gasnete_mythread()->current->ctr[GASNETE_CTR_PUTS]);
}

void gasnete_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  gasnete_check_memset("gasnet_memset", node, dest, nbytes);
  if (gasnete_memset_now(node, dest, val, nbytes)) return;
  gasnete_counter_t ctr;
  gasnete_counter_init(&ctr);
  gasnete_am_memset(node, dest, val, nbytes, &ctr);
  gasnete_counter_wait(&ctr);
}

/* ------------------------------------------------------------ values
 * A value of nbytes is the low-order nbytes of the register value, laid
 * out as an integer of that size would be (GASNet-1's rule). */
static size_t gasnete_val_offset(size_t nbytes) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return sizeof(gasnet_register_value_t) - nbytes;
#else
  (void)nbytes;
  return 0;
#endif
}

void gasnete_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                     size_t nbytes) {
  gasnete_check_valsize("gasnet_put_val", nbytes);
  gasnete_put_call("gasnet_put_val", node, dest, (uint8_t *)&value + gasnete_val_offset(nbytes),
                   nbytes, 0);
}

/* The AM path copies the payload before the request call returns, the
 * synchronous overrides copy at once, and a deferred put that is not bulk
 * leaves its source reusable at return: the value may live on the stack. */
gasnet_handle_t gasnete_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                   size_t nbytes) {
  gasnete_check_valsize("gasnet_put_nb_val", nbytes);
  return gasnete_put_nb_call("gasnet_put_nb_val", node, dest,
                             (uint8_t *)&value + gasnete_val_offset(nbytes), nbytes, 0);
}

void gasnete_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                         size_t nbytes) {
  gasnete_check_valsize("gasnet_put_nbi_val", nbytes);
  gasnete_put_nbi_call("gasnet_put_nbi_val", node, dest,
                       (uint8_t *)&value + gasnete_val_offset(nbytes), nbytes, 0);
}

gasnet_register_value_t gasnete_get_val(gasnet_node_t node, void *src, size_t nbytes) {
  gasnete_check_valsize("gasnet_get_val", nbytes);
  gasnet_register_value_t value = 0;
  gasnete_get_call("gasnet_get_val", (uint8_t *)&value + gasnete_val_offset(nbytes), node, src,
                   nbytes);
  return value;
}

gasnet_valget_handle_t gasnete_get_nb_val(gasnet_node_t node, void *src, size_t nbytes) {
  gasnete_check_valsize("gasnet_get_nb_val", nbytes);
  gasnete_valget_t *v = gasnete_valget_new(gasnete_mythread());
  v->nbytes = nbytes;
  v->handle = gasnete_get_nb_call("gasnet_get_nb_val", v->buf.bytes + gasnete_val_offset(nbytes),
                                  node, src, nbytes);
  return v;
}

gasnet_register_value_t gasnete_wait_syncnb_valget(gasnet_valget_handle_t handle) {
  if (!handle || !handle->live)
    gasneti_fatalerror("gasnet_wait_syncnb_valget: handle %p is not a live value-get handle "
                       "(already synced?)",
                       (void *)handle);
  gasnete_wait_syncnb(handle->handle);
  gasnet_register_value_t value = handle->buf.reg;
  gasnete_valget_free(handle);
  return value;
}

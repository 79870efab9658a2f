/* mpi_rma.c: one-sided put and get over MPI-3 RMA.
 *
 * gasnet_attach creates one window over every node's segment
 * (MPI_Win_create, displacement unit 1, so a remote address is its offset
 * from the peer's segment base) and opens one passive-target epoch for the
 * whole job (MPI_Win_lock_all with MPI_MODE_NOCHECK). Transfers of at
 * least GASNET_MPI_RMA_THRESHOLD bytes then go to MPI without the target's
 * help:
 *   - blocking put: MPI_Put, then MPI_Win_flush to that node (the data is
 *     in its memory: GASNet's completion of a put);
 *   - blocking get: MPI_Get, then MPI_Win_flush_local (the data is here);
 *   - put_nb / put_nbi: MPI_Put (and MPI_Win_flush_local unless bulk, so
 *     the source is reusable at return); the transfer is remembered and
 *     completed by the progress hook, which flushes each node with puts
 *     outstanding once and signals them all;
 *   - get_nb / get_nbi: MPI_Rget; the progress hook tests the requests;
 *   - an AM Long payload (mpi_send.c): MPI_Put and MPI_Win_flush, then the
 *     header alone with GASNETC_F_IN_PLACE.
 * Smaller transfers, words (1, 2, 4 or 8 bytes, at any threshold),
 * memsets and everything when the window is not used stay with
 * extended-ref's AM protocols.
 *
 * GASNET_MPI_RMA picks whether the window is used: off (never created), on
 * (always; the job ends if MPI cannot create it), auto (the default: used
 * when this MPI is known to complete passive-target RMA without the target
 * calling MPI; see gasnetc_rma_progresses_alone, and docs/performance.md
 * ("Which MPI progresses RMA by itself") for the measurements behind it).
 * Every node takes the same decision.
 *
 * Every MPI call here is under the conduit lock, as everywhere in the
 * conduit. The window is released at MPI_Finalize, whoever calls it, by an
 * attribute on MPI_COMM_SELF: MPI deletes those first, while every node is
 * still inside MPI_Finalize's collective part. */
#include "mpi_rma.h"

#include "gasnet_copy.h"
#include "gasnet_extended_conduit.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* MPI counts are ints: larger transfers are split. */
#define GASNETC_RMA_CHUNK ((size_t)1 << 30)

/* Default threshold: see docs/performance.md ("One-sided transfers
 * against AM") for the measurements behind it. */
#define GASNETC_RMA_DEFAULT_THRESHOLD 4096

typedef enum { GASNETC_RMA_OFF, GASNETC_RMA_AUTO, GASNETC_RMA_ON } gasnetc_rma_mode_t;

/* A deferred transfer: who to flush (puts) or which request to test
 * (gets, in reqs[] at the same index), and what to signal. */
typedef struct {
  gasnet_node_t node;
  int is_get;
  gasnete_done_t *done;
} gasnetc_rma_pending_t;

static struct {
  gasnetc_rma_mode_t mode;
  size_t threshold;
  int enabled; /* the window is open for transfers */
  MPI_Win win;
  gasneti_progress_hook_t *hook;
  /* Deferred transfers (lock held). */
  gasnetc_rma_pending_t *pending;
  MPI_Request *reqs;
  int *idx; /* MPI_Testsome's output */
  unsigned npending, cap;
  unsigned *flushed; /* per node: the pass that last flushed it */
  unsigned pass;
} gasnetc_rma;

/* ------------------------------------------------------------ settings */
void gasnetc_rma_init(void) {
  const char *text = gasneti_getenv_verbose("GASNET_MPI_RMA", "auto");
  if (!text || !strcasecmp(text, "auto"))
    gasnetc_rma.mode = GASNETC_RMA_AUTO;
  else if (!strcasecmp(text, "on"))
    gasnetc_rma.mode = GASNETC_RMA_ON;
  else if (!strcasecmp(text, "off"))
    gasnetc_rma.mode = GASNETC_RMA_OFF;
  else
    gasneti_fatalerror("gasnet_init: GASNET_MPI_RMA=\"%s\" is not one of auto, on, off", text);
  gasnetc_rma.threshold =
      (size_t)gasneti_getenv_size("GASNET_MPI_RMA_THRESHOLD", GASNETC_RMA_DEFAULT_THRESHOLD);
}

/* ------------------------------------------------------------ transfers (lock held) */
static MPI_Aint gasnetc_rma_disp(gasnet_node_t node, const void *remote) {
  return (MPI_Aint)((uintptr_t)remote - (uintptr_t)gasneti_seginfo[node].addr);
}

static size_t gasnetc_rma_chunk(size_t nbytes, size_t off) {
  return nbytes - off < GASNETC_RMA_CHUNK ? nbytes - off : GASNETC_RMA_CHUNK;
}

static void gasnetc_rma_put_start(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  MPI_Aint disp = gasnetc_rma_disp(node, dest);
  for (size_t off = 0; off < nbytes; off += GASNETC_RMA_CHUNK) {
    int len = (int)gasnetc_rma_chunk(nbytes, off);
    gasnetc_mpi_check(MPI_Put((const uint8_t *)src + off, len, MPI_BYTE, (int)node,
                              disp + (MPI_Aint)off, len, MPI_BYTE, gasnetc_rma.win),
                      "put by RMA (MPI_Put)");
  }
}

static void gasnetc_rma_get_start(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  MPI_Aint disp = gasnetc_rma_disp(node, src);
  for (size_t off = 0; off < nbytes; off += GASNETC_RMA_CHUNK) {
    int len = (int)gasnetc_rma_chunk(nbytes, off);
    gasnetc_mpi_check(MPI_Get((uint8_t *)dest + off, len, MPI_BYTE, (int)node,
                              disp + (MPI_Aint)off, len, MPI_BYTE, gasnetc_rma.win),
                      "get by RMA (MPI_Get)");
  }
}

static void gasnetc_rma_flush(gasnet_node_t node) {
  gasnetc_mpi_check(MPI_Win_flush((int)node, gasnetc_rma.win), "complete RMA (MPI_Win_flush)");
}

static void gasnetc_rma_flush_local(gasnet_node_t node) {
  gasnetc_mpi_check(MPI_Win_flush_local((int)node, gasnetc_rma.win),
                    "complete RMA locally (MPI_Win_flush_local)");
}

/* Whether a transfer of nbytes goes by RMA: the window is in use, the
 * size reaches the threshold and is not a word (extended-ref has checked
 * the range and that the node is another one). Words of 1, 2, 4 or 8 bytes
 * stay on AM whatever the threshold: the handler lands them in one store,
 * while MPI_Put promises nothing about how it writes them (Open MPI's
 * osc/rdma over shared memory let testflagpingpong read a 4-byte flag
 * with its low byte alone written, 0x9f for 0x249f). */
static int gasnetc_rma_takes(size_t nbytes) {
  return gasnetc_rma.enabled && nbytes >= gasnetc_rma.threshold && !gasneti_copy_is_word(nbytes);
}

/* ------------------------------------------------------------ synchronous overrides */
int gasnetc_rma_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  if (!gasnetc_rma_takes(nbytes)) return 0;
  gasnetc_lock();
  gasnetc_rma_put_start(node, dest, src, nbytes);
  gasnetc_rma_flush(node);
  gasnetc_unlock();
  return 1;
}

int gasnetc_rma_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  if (!gasnetc_rma_takes(nbytes)) return 0;
  gasnetc_lock();
  gasnetc_rma_get_start(dest, node, src, nbytes);
  gasnetc_rma_flush_local(node);
  gasnetc_unlock();
  return 1;
}

/* ------------------------------------------------------------ deferred transfers */
static void gasnetc_rma_pending_add(gasnet_node_t node, int is_get, MPI_Request req,
                                    gasnete_done_t *done) {
  if (gasnetc_rma.npending == gasnetc_rma.cap) {
    unsigned cap = gasnetc_rma.cap ? 2 * gasnetc_rma.cap : 64;
    gasnetc_rma_pending_t *p = realloc(gasnetc_rma.pending, cap * sizeof(*p));
    MPI_Request *r = realloc(gasnetc_rma.reqs, cap * sizeof(*r));
    int *idx = realloc(gasnetc_rma.idx, cap * sizeof(*idx));
    if (p) gasnetc_rma.pending = p;
    if (r) gasnetc_rma.reqs = r;
    if (idx) gasnetc_rma.idx = idx;
    if (!p || !r || !idx)
      gasneti_fatalerror("mpi conduit: out of memory for %u outstanding RMA transfers", cap);
    gasnetc_rma.cap = cap;
  }
  unsigned i = gasnetc_rma.npending++;
  gasnetc_rma.pending[i] = (gasnetc_rma_pending_t){node, is_get, done};
  gasnetc_rma.reqs[i] = req;
  if (i == 0) gasneti_progress_enable(gasnetc_rma.hook);
}

/* Completes what can be completed now (lock held): every get whose
 * request is done, and every put after one flush of its node. */
static int gasnetc_rma_complete(void) {
  unsigned n = gasnetc_rma.npending;
  if (!n) return 0;
  int outcount = 0;
  gasnetc_mpi_check(MPI_Testsome((int)n, gasnetc_rma.reqs, &outcount, gasnetc_rma.idx,
                                 MPI_STATUSES_IGNORE),
                    "complete RMA gets (MPI_Testsome)");
  unsigned pass = ++gasnetc_rma.pass, keep = 0;
  int work = 0;
  for (unsigned i = 0; i < n; i++) {
    gasnetc_rma_pending_t *p = &gasnetc_rma.pending[i];
    int ready = !p->is_get || gasnetc_rma.reqs[i] == MPI_REQUEST_NULL;
    if (ready) {
      if (!p->is_get && gasnetc_rma.flushed[p->node] != pass) {
        gasnetc_rma_flush(p->node);
        gasnetc_rma.flushed[p->node] = pass;
      }
      gasnete_done_signal(p->done);
      work++;
      continue;
    }
    gasnetc_rma.pending[keep] = *p;
    gasnetc_rma.reqs[keep] = gasnetc_rma.reqs[i];
    keep++;
  }
  gasnetc_rma.npending = keep;
  if (!keep) gasneti_progress_disable(gasnetc_rma.hook);
  return work;
}

/* The progress hook: never waits for the lock. */
static int gasnetc_rma_progress(void *arg) {
  (void)arg;
  if (!gasnetc_poll_trylock()) return 0;
  int work = gasnetc_rma_complete();
  gasnetc_unlock();
  return work;
}

int gasnetc_rma_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes,
                       int bulk, gasnete_done_t *done) {
  if (!gasnetc_rma_takes(nbytes)) return 0;
  gasnetc_lock();
  gasnetc_rma_put_start(node, dest, src, nbytes);
  if (!bulk) gasnetc_rma_flush_local(node); /* src reusable at return */
  gasnetc_rma_pending_add(node, 0, MPI_REQUEST_NULL, done);
  gasnetc_unlock();
  return 1;
}

int gasnetc_rma_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes,
                       gasnete_done_t *done) {
  if (!gasnetc_rma_takes(nbytes)) return 0;
  if (nbytes > GASNETC_RMA_CHUNK) { /* several requests: rare enough to wait for */
    gasnetc_rma_get(dest, node, src, nbytes);
    gasnete_done_signal(done);
    return 1;
  }
  MPI_Request req;
  gasnetc_lock();
  gasnetc_mpi_check(MPI_Rget(dest, (int)nbytes, MPI_BYTE, (int)node, gasnetc_rma_disp(node, src),
                             (int)nbytes, MPI_BYTE, gasnetc_rma.win, &req),
                    "get by RMA (MPI_Rget)");
  gasnetc_rma_pending_add(node, 1, req, done);
  gasnetc_unlock();
  return 1;
}

/* ------------------------------------------------------------ AM Long payloads */
int gasnetc_rma_long_payload(gasnet_node_t dest, const gasneti_am_t *msg) {
  if (dest == gasneti_mynode || !gasnetc_rma_takes(msg->nbytes)) return 0;
  /* Not a Long outside the segment (gasneti_long_anywhere): no window there. */
  if (!gasneti_in_segment(dest, msg->dest_addr, msg->nbytes)) return 0;
  gasnetc_lock();
  gasnetc_rma_put_start(dest, msg->dest_addr, msg->payload, msg->nbytes);
  gasnetc_rma_flush(dest);
  gasnetc_unlock();
  return 1;
}

/* ------------------------------------------------------------ the window */

/* Whether this MPI completes passive-target RMA on a window over ordinary
 * memory without the target calling MPI (measured: docs/performance.md).
 * Open MPI names each window after its one-sided component ("rdma window
 * 3"): osc/rdma and osc/sm move the data themselves, osc/pt2pt and osc/ucx
 * (on one host) wait for the target's progress. MPICH 4.0 (ch4) waits for
 * the target; other MPIs are not known. why_p says why, for the report. */
static int gasnetc_rma_progresses_alone(MPI_Win win, char *why, size_t whylen) {
#if defined(OMPI_MAJOR_VERSION)
  char name[MPI_MAX_OBJECT_NAME + 1] = "";
  int len = 0;
  if (MPI_Win_get_name(win, name, &len) != MPI_SUCCESS) len = 0;
  name[len] = '\0';
  char *space = strchr(name, ' ');
  if (space) *space = '\0';
  int alone = !strcmp(name, "rdma") || !strcmp(name, "sm");
  snprintf(why, whylen, "Open MPI's osc/%s %s", len ? name : "(unknown)",
           alone ? "progresses by itself" : "needs the target's progress");
  return alone;
#else
  (void)win;
  snprintf(why, whylen, "this MPI is not known to progress RMA without the target");
  return 0;
#endif
}

/* Releases the window at MPI_Finalize (a delete callback of an attribute
 * on MPI_COMM_SELF, which MPI runs first). Outstanding transfers complete
 * in MPI_Win_unlock_all; MPI_Win_free is collective, and every node is in
 * MPI_Finalize. */
static int gasnetc_rma_release(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  if (!gasnetc_rma.enabled) return MPI_SUCCESS;
  gasnetc_rma.enabled = 0;
  MPI_Win_unlock_all(gasnetc_rma.win);
  MPI_Win_free(&gasnetc_rma.win);
  return MPI_SUCCESS;
}

static void gasnetc_rma_release_at_finalize(void) {
  int keyval;
  gasnetc_mpi_check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, gasnetc_rma_release, &keyval,
                                           NULL),
                    "create a keyval (MPI_Comm_create_keyval)");
  gasnetc_mpi_check(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL),
                    "set an attribute on MPI_COMM_SELF (MPI_Comm_set_attr)");
}

/* GASNET_VERBOSEENV: node 0 says what was decided and why. */
static void gasnetc_rma_report(const char *state, const char *why) {
  if (gasneti_mynode != 0 || !gasneti_verboseenv_asked()) return;
  fprintf(stderr, "mpi conduit: one-sided RMA %s (GASNET_MPI_RMA_THRESHOLD %zu): %s\n", state,
          gasnetc_rma.threshold, why);
}

/* Creates the window (lock held). Returns 0 with reason on failure. */
static int gasnetc_rma_create(char *reason, size_t len) {
  const gasnet_seginfo_t *mine = &gasneti_seginfo[gasneti_mynode];
  MPI_Info info;
  gasnetc_mpi_check(MPI_Info_create(&info), "create an info object (MPI_Info_create)");
  /* No accumulates, and every node's unit is 1: hints that spare MPI work. */
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Info_set(info, "same_disp_unit", "true");
  int rc = MPI_Win_create(mine->addr, (MPI_Aint)mine->size, 1, info, gasnetc_mpi.comm,
                          &gasnetc_rma.win);
  MPI_Info_free(&info);
  if (rc == MPI_SUCCESS) return 1;
  int n = 0;
  char text[MPI_MAX_ERROR_STRING + 1];
  if (MPI_Error_string(rc, text, &n) != MPI_SUCCESS) n = 0;
  text[n] = '\0';
  snprintf(reason, len, "MPI_Win_create failed: %s", n ? text : "unknown error");
  return 0;
}

static void gasnetc_rma_open(void) {
  gasnetc_mpi_check(MPI_Win_set_errhandler(gasnetc_rma.win, MPI_ERRORS_RETURN),
                    "set the window's error handler (MPI_Win_set_errhandler)");
  gasnetc_mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, gasnetc_rma.win),
                    "open the RMA epoch (MPI_Win_lock_all)");
  gasnetc_rma_release_at_finalize();
  gasnetc_rma.flushed = calloc(gasneti_nodes, sizeof(unsigned));
  if (!gasnetc_rma.flushed) gasneti_fatalerror("gasnet_attach: out of memory");
  gasnetc_rma.hook = gasneti_progress_register("mpi RMA", gasnetc_rma_progress, NULL);
  gasnetc_rma.enabled = 1;
}

void gasnetc_rma_attach(void) {
#if defined(GASNET_SEGMENT_EVERYTHING)
  gasnetc_rma_report("off", "GASNET_SEGMENT_EVERYTHING: no segment to make a window of");
#else
  if (gasnetc_rma.mode == GASNETC_RMA_OFF) {
    gasnetc_rma_report("off", "GASNET_MPI_RMA=off");
    return;
  }
  if (gasneti_nodes == 1) { /* nothing is remote (and Open MPI makes no window of one process) */
    gasnetc_rma_report("off", "one node: every transfer is local");
    return;
  }
  char why[MPI_MAX_ERROR_STRING + 64] = "";
  gasnetc_lock();
  int agreed[2]; /* the window exists; MPI progresses it alone */
  agreed[0] = gasnetc_rma_create(why, sizeof(why));
  agreed[1] = agreed[0] && gasnetc_rma_progresses_alone(gasnetc_rma.win, why, sizeof(why));
  int created_here = agreed[0];
  gasnetc_mpi_check(MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_INT, MPI_MIN, gasnetc_mpi.comm),
                    "agree on RMA (MPI_Allreduce)");
  if (!agreed[0]) {
    /* A window that exists here but not everywhere cannot be freed (that
     * is collective): it stays unused. */
    gasnetc_unlock();
    if (gasnetc_rma.mode == GASNETC_RMA_ON)
      gasneti_fatalerror("gasnet_attach: GASNET_MPI_RMA=on, but %s",
                         created_here ? "MPI_Win_create failed on another node" : why);
    gasnetc_rma_report("off", created_here ? "MPI_Win_create failed on another node" : why);
    return;
  }
  if (!agreed[1] && gasnetc_rma.mode == GASNETC_RMA_AUTO) {
    gasnetc_mpi_check(MPI_Win_free(&gasnetc_rma.win), "free the RMA window (MPI_Win_free)");
    gasnetc_unlock();
    gasnetc_rma_report("off", why);
    return;
  }
  gasnetc_rma_open();
  gasnetc_unlock();
  gasnetc_rma_report("on", gasnetc_rma.mode == GASNETC_RMA_ON ? "GASNET_MPI_RMA=on" : why);
#endif
}

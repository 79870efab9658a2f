/* gasnet_extended.h: the GASNet-1 extended API (spec 1.8): put/get in every
 * form, memset, the sync calls, access regions and the split-phase barrier.
 * Included by gasnet.h after the core declarations; clients include gasnet.h.
 *
 * The public names are static inline wrappers around the gasnete_* entry
 * points of extended-ref (docs/extended.md describes the protocols). */
#ifndef GASNET_EXTENDED_H
#define GASNET_EXTENDED_H

GASNETI_BEGIN_EXTERNC

/* ------------------------------------------------------------ handles */
/* An explicit handle names one non-blocking operation (or one access
 * region). GASNET_INVALID_HANDLE means "already complete"; every sync call
 * accepts it. A handle must be synced by the thread that created it, and
 * exactly once. */
struct gasnete_op_s;
typedef struct gasnete_op_s *gasnet_handle_t;
#define GASNET_INVALID_HANDLE ((gasnet_handle_t)0)

struct gasnete_valget_s;
typedef struct gasnete_valget_s *gasnet_valget_handle_t;

/* ------------------------------------------------------------ barrier flags */
#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
#define GASNET_BARRIERFLAG_UNNAMED GASNET_BARRIERFLAG_ANONYMOUS
#define GASNET_BARRIERFLAG_IMAGES 4

/* ------------------------------------------------------------ entry points */
extern gasnet_handle_t gasnete_put_nb(gasnet_node_t node, void *dest, void *src, size_t nbytes,
                                      int bulk);
extern gasnet_handle_t gasnete_get_nb(void *dest, gasnet_node_t node, void *src, size_t nbytes,
                                      int bulk);
extern gasnet_handle_t gasnete_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes);
extern void gasnete_put_nbi(gasnet_node_t node, void *dest, void *src, size_t nbytes, int bulk);
extern void gasnete_get_nbi(void *dest, gasnet_node_t node, void *src, size_t nbytes, int bulk);
extern void gasnete_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes);
extern void gasnete_put(gasnet_node_t node, void *dest, void *src, size_t nbytes, int bulk);
extern void gasnete_get(void *dest, gasnet_node_t node, void *src, size_t nbytes, int bulk);
extern void gasnete_memset(gasnet_node_t node, void *dest, int val, size_t nbytes);

extern void gasnete_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                            size_t nbytes);
extern gasnet_handle_t gasnete_put_nb_val(gasnet_node_t node, void *dest,
                                          gasnet_register_value_t value, size_t nbytes);
extern void gasnete_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                size_t nbytes);
extern gasnet_register_value_t gasnete_get_val(gasnet_node_t node, void *src, size_t nbytes);
extern gasnet_valget_handle_t gasnete_get_nb_val(gasnet_node_t node, void *src, size_t nbytes);
extern gasnet_register_value_t gasnete_wait_syncnb_valget(gasnet_valget_handle_t handle);

extern int gasnete_try_syncnb(gasnet_handle_t handle);
extern void gasnete_wait_syncnb(gasnet_handle_t handle);
extern int gasnete_try_syncnb_some(gasnet_handle_t *phandle, size_t numhandles);
extern void gasnete_wait_syncnb_some(gasnet_handle_t *phandle, size_t numhandles);
extern int gasnete_try_syncnb_all(gasnet_handle_t *phandle, size_t numhandles);
extern int gasnete_try_syncnb_nopoll(gasnet_handle_t handle);
extern int gasnete_try_syncnb_some_nopoll(gasnet_handle_t *phandle, size_t numhandles);
extern int gasnete_try_syncnb_all_nopoll(gasnet_handle_t *phandle, size_t numhandles);
extern void gasnete_wait_syncnb_all(gasnet_handle_t *phandle, size_t numhandles);

/* which: bit 0 puts, bit 1 gets */
#define GASNETE_SYNC_PUTS 1
#define GASNETE_SYNC_GETS 2
extern int gasnete_try_syncnbi(int which, const char *call);
extern void gasnete_wait_syncnbi(int which, const char *call);

extern void gasnete_begin_nbi_accessregion(void);
extern gasnet_handle_t gasnete_end_nbi_accessregion(void);

extern void gasnete_barrier_notify(int id, int flags);
extern int gasnete_barrier_wait(int id, int flags);
extern int gasnete_barrier_try(int id, int flags);
extern int gasnete_barrier_result(int *id);

/* ------------------------------------------------------------ put / get (blocking) */
static inline void gasnet_put(gasnet_node_t node, void *dest, void *src, size_t nbytes) {
  gasnete_put(node, dest, src, nbytes, 0);
}
static inline void gasnet_put_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes) {
  gasnete_put(node, dest, src, nbytes, 1);
}
static inline void gasnet_get(void *dest, gasnet_node_t node, void *src, size_t nbytes) {
  gasnete_get(dest, node, src, nbytes, 0);
}
static inline void gasnet_get_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes) {
  gasnete_get(dest, node, src, nbytes, 1);
}
static inline void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  gasnete_memset(node, dest, val, nbytes);
}
static inline void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                  size_t nbytes) {
  gasnete_put_val(node, dest, value, nbytes);
}
static inline gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void *src,
                                                     size_t nbytes) {
  return gasnete_get_val(node, src, nbytes);
}

/* ------------------------------------------------------------ explicit handles */
static inline gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, void *src,
                                            size_t nbytes) {
  return gasnete_put_nb(node, dest, src, nbytes, 0);
}
static inline gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, void *src,
                                                 size_t nbytes) {
  return gasnete_put_nb(node, dest, src, nbytes, 1);
}
static inline gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, void *src,
                                            size_t nbytes) {
  return gasnete_get_nb(dest, node, src, nbytes, 0);
}
static inline gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, void *src,
                                                 size_t nbytes) {
  return gasnete_get_nb(dest, node, src, nbytes, 1);
}
static inline gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val,
                                               size_t nbytes) {
  return gasnete_memset_nb(node, dest, val, nbytes);
}
static inline gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest,
                                                gasnet_register_value_t value, size_t nbytes) {
  return gasnete_put_nb_val(node, dest, value, nbytes);
}
static inline gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void *src,
                                                       size_t nbytes) {
  return gasnete_get_nb_val(node, src, nbytes);
}
static inline gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) {
  return gasnete_wait_syncnb_valget(handle);
}

static inline int gasnet_try_syncnb(gasnet_handle_t handle) { return gasnete_try_syncnb(handle); }
static inline void gasnet_wait_syncnb(gasnet_handle_t handle) { gasnete_wait_syncnb(handle); }
static inline int gasnet_try_syncnb_some(gasnet_handle_t *phandle, size_t numhandles) {
  return gasnete_try_syncnb_some(phandle, numhandles);
}
static inline void gasnet_wait_syncnb_some(gasnet_handle_t *phandle, size_t numhandles) {
  gasnete_wait_syncnb_some(phandle, numhandles);
}
static inline int gasnet_try_syncnb_all(gasnet_handle_t *phandle, size_t numhandles) {
  return gasnete_try_syncnb_all(phandle, numhandles);
}
static inline void gasnet_wait_syncnb_all(gasnet_handle_t *phandle, size_t numhandles) {
  gasnete_wait_syncnb_all(phandle, numhandles);
}
/* The same tests without polling the network first: for clients that leave
 * polling to another thread or to their own loop. */
static inline int gasnet_try_syncnb_nopoll(gasnet_handle_t handle) {
  return gasnete_try_syncnb_nopoll(handle);
}
static inline int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *phandle, size_t numhandles) {
  return gasnete_try_syncnb_some_nopoll(phandle, numhandles);
}
static inline int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *phandle, size_t numhandles) {
  return gasnete_try_syncnb_all_nopoll(phandle, numhandles);
}

/* ------------------------------------------------------------ implicit handles */
static inline void gasnet_put_nbi(gasnet_node_t node, void *dest, void *src, size_t nbytes) {
  gasnete_put_nbi(node, dest, src, nbytes, 0);
}
static inline void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, void *src,
                                       size_t nbytes) {
  gasnete_put_nbi(node, dest, src, nbytes, 1);
}
static inline void gasnet_get_nbi(void *dest, gasnet_node_t node, void *src, size_t nbytes) {
  gasnete_get_nbi(dest, node, src, nbytes, 0);
}
static inline void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, void *src,
                                       size_t nbytes) {
  gasnete_get_nbi(dest, node, src, nbytes, 1);
}
static inline void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  gasnete_memset_nbi(node, dest, val, nbytes);
}
static inline void gasnet_put_nbi_val(gasnet_node_t node, void *dest,
                                      gasnet_register_value_t value, size_t nbytes) {
  gasnete_put_nbi_val(node, dest, value, nbytes);
}

static inline int gasnet_try_syncnbi_puts(void) {
  return gasnete_try_syncnbi(GASNETE_SYNC_PUTS, "gasnet_try_syncnbi_puts");
}
static inline int gasnet_try_syncnbi_gets(void) {
  return gasnete_try_syncnbi(GASNETE_SYNC_GETS, "gasnet_try_syncnbi_gets");
}
static inline int gasnet_try_syncnbi_all(void) {
  return gasnete_try_syncnbi(GASNETE_SYNC_PUTS | GASNETE_SYNC_GETS, "gasnet_try_syncnbi_all");
}
static inline void gasnet_wait_syncnbi_puts(void) {
  gasnete_wait_syncnbi(GASNETE_SYNC_PUTS, "gasnet_wait_syncnbi_puts");
}
static inline void gasnet_wait_syncnbi_gets(void) {
  gasnete_wait_syncnbi(GASNETE_SYNC_GETS, "gasnet_wait_syncnbi_gets");
}
static inline void gasnet_wait_syncnbi_all(void) {
  gasnete_wait_syncnbi(GASNETE_SYNC_PUTS | GASNETE_SYNC_GETS, "gasnet_wait_syncnbi_all");
}

static inline void gasnet_begin_nbi_accessregion(void) { gasnete_begin_nbi_accessregion(); }
static inline gasnet_handle_t gasnet_end_nbi_accessregion(void) {
  return gasnete_end_nbi_accessregion();
}

/* ------------------------------------------------------------ barriers */
static inline void gasnet_barrier_notify(int id, int flags) { gasnete_barrier_notify(id, flags); }
static inline int gasnet_barrier_wait(int id, int flags) { return gasnete_barrier_wait(id, flags); }
static inline int gasnet_barrier_try(int id, int flags) { return gasnete_barrier_try(id, flags); }
static inline int gasnet_barrier(int id, int flags) {
  gasnete_barrier_notify(id, flags);
  return gasnete_barrier_wait(id, flags);
}
/* After a barrier completed: *id is its name; the result is nonzero
 * (GASNET_BARRIERFLAG_ANONYMOUS) when every participant was anonymous. */
static inline int gasnet_barrier_result(int *id) { return gasnete_barrier_result(id); }

GASNETI_END_EXTERNC

#endif /* GASNET_EXTENDED_H */

/* mpi_rma.h: one-sided put and get over MPI-3 RMA (mpi_rma.c).
 *
 * A window over every node's segment, created collectively in
 * gasnet_attach, lets transfers of at least GASNET_MPI_RMA_THRESHOLD
 * bytes complete without the target's attention: extended-ref's put / get
 * (blocking and deferred, through gasnet_extended_conduit.h) and the
 * payloads of AM Longs. GASNET_MPI_RMA=auto|on|off chooses whether the
 * window is used (a job of one node makes none); see docs/mpi-conduit.md,
 * "One-sided transfers". */
#ifndef MPI_RMA_H
#define MPI_RMA_H

#include "mpi_internal.h"

#include "gasnet_extended_conduit.h"

/* gasnetc_init: read and check the settings (before any exchange, so a bad
 * value ends the job at once on every node). */
extern void gasnetc_rma_init(void);

/* gasnetc_attach_segment, on every node, once the segment table is
 * complete: create the window (collective) where it is to be used. */
extern void gasnetc_rma_attach(void);

/* extended-ref's put/get slots (gasnet_extended_conduit.h), through the
 * conduit's table (mpi_ops.c): each takes a transfer to another node's
 * segment when the window is in use and the size reaches the threshold,
 * else returns 0. */
extern int gasnetc_rma_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern int gasnetc_rma_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern int gasnetc_rma_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes,
                              int bulk, gasnete_done_t *done);
extern int gasnetc_rma_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes,
                              gasnete_done_t *done);

/* Lock not held. When msg (a Long to another node) is large enough and its
 * destination lies in dest's segment, writes the payload there by RMA and
 * waits until it is in place: returns 1 and the caller sends the header
 * with GASNETC_F_IN_PLACE. Else 0. */
extern int gasnetc_rma_long_payload(gasnet_node_t dest, const gasneti_am_t *msg);

#endif

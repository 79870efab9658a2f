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

/* gasnetc_init: read and check the settings (before any exchange, so a bad
 * value ends the job at once on every node). */
extern void gasnetc_rma_init(void);

/* gasnetc_attach_segment, on every node, once the segment table is
 * complete: create the window (collective) and register the overrides. */
extern void gasnetc_rma_attach(void);

/* Lock not held. When msg (a Long to another node) is large enough and its
 * destination lies in dest's segment, writes the payload there by RMA and
 * waits until it is in place: returns 1 and the caller sends the header
 * with GASNETC_F_IN_PLACE. Else 0. */
extern int gasnetc_rma_long_payload(gasnet_node_t dest, const gasneti_am_t *msg);

#endif

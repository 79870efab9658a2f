# conduits/shm: shared memory inside a host, a layer that conduits use
# (not a conduit: no gasnet_core.h, so Bootstrap writes no conduit.mk for
# it). A conduit that uses it adds these sources and flags to its own in
# its local.mk: they are compiled into its libraries with its
# gasnet_core.h (the ring slots hold its largest Medium).
SHM_LAYER_SOURCES = \
	conduits/shm/shm_am.c \
	conduits/shm/shm_barrier.c \
	conduits/shm/shm_putget.c \
	conduits/shm/shm_region.c \
	conduits/shm/shm_ring.c \
	conduits/shm/shm_share.c \
	conduits/shm/shm_xmem.c
SHM_LAYER_CPPFLAGS = -I$(top_srcdir)/conduits/shm
noinst_HEADERS += conduits/shm/shm_layer.h conduits/shm/shm_internal.h

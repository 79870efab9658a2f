# The smp conduit's overrides of extended-ref: direct put/get between the
# cross-mapped segments and the shared-memory counter barrier.
SMP_EXTENDED_SOURCES = \
	conduits/smp/smp_extended.c \
	conduits/smp/smp_barrier.c

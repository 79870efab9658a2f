# conduits/smp: the shared-memory conduit (its libraries, headers, launcher
# and client files are declared by the generated conduits/smp/conduit.mk).
smp_CONDUIT_SOURCES = \
	conduits/smp/smp_am.c \
	conduits/smp/smp_boot.c \
	conduits/smp/smp_exit.c \
	conduits/smp/smp_ring.c \
	conduits/smp/smp_supervisor.c \
	conduits/smp/smp_xmem.c \
	conduits/smp/smp_extended.c \
	conduits/smp/smp_barrier.c
smp_CONDUIT_CPPFLAGS =
smp_CONDUIT_LIBS =
smp_CONDUIT_CC = $(CC)
smp_CONDUIT_LAUNCHER_SED =
noinst_HEADERS += conduits/smp/smp_internal.h
include conduits/smp/conduit.mk

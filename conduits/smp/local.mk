# conduits/smp: the shared-memory conduit (its libraries, headers, launcher
# and client files are declared by the generated conduits/smp/conduit.mk).
# The job is one supernode of the shared-memory layer (conduits/shm).
smp_CONDUIT_SOURCES = \
	conduits/smp/smp_am.c \
	conduits/smp/smp_boot.c \
	conduits/smp/smp_exit.c \
	conduits/smp/smp_supervisor.c \
	conduits/smp/smp_extended.c \
	$(SHM_LAYER_SOURCES)
smp_CONDUIT_CPPFLAGS = $(SHM_LAYER_CPPFLAGS)
smp_CONDUIT_LIBS =
smp_CONDUIT_CC = $(CC)
smp_CONDUIT_LAUNCHER_SED =
noinst_HEADERS += conduits/smp/smp_internal.h
include conduits/smp/conduit.mk

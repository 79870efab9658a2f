# conduits/mpi: active messages over MPI point-to-point (docs/mpi-conduit.md);
# its libraries, headers, launcher and client files are declared by the
# generated conduits/mpi/conduit.mk. Clients compile with the MPI's wrapper
# and link its libraries; the launcher learns where mpirun is at build time.
mpi_CONDUIT_SOURCES = \
	conduits/mpi/mpi_boot.c \
	conduits/mpi/mpi_exit.c \
	conduits/mpi/mpi_fence.c \
	conduits/mpi/mpi_ops.c \
	conduits/mpi/mpi_poll.c \
	conduits/mpi/mpi_rma.c \
	conduits/mpi/mpi_segment.c \
	conduits/mpi/mpi_send.c \
	conduits/mpi/mpi_shm.c \
	$(SHM_LAYER_SOURCES)
mpi_CONDUIT_CPPFLAGS = $(MPI_CFLAGS) $(SHM_LAYER_CPPFLAGS)
mpi_CONDUIT_LIBS = $(MPI_LIBS)
mpi_CONDUIT_CC = $(MPICC)
mpi_CONDUIT_LAUNCHER_SED = -e 's|@MPIRUN[@]|$(MPIRUN)|g'
noinst_HEADERS += conduits/mpi/mpi_internal.h conduits/mpi/mpi_rma.h conduits/mpi/mpi_shm.h
include conduits/mpi/conduit.mk

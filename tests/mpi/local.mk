# tests/mpi: the mpi conduit's own test programs and scripts. Included by
# Makefile.am inside `if BUILD_MPI`. Cases: conduits/mpi/tests.cases (the
# scripts here run them under gasnetrun_mpi with Open MPI's shared-memory
# and TCP transports); the conduit-generic suites run through
# tests/mpi/conformance.sh, a wrapper of tests/conformance.sh.
MPI_TESTS_SEQ_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/mpi -I$(top_srcdir)/tests \
	-I$(top_srcdir)/tests/ext -DGASNET_SEQ
MPI_TESTS_PAR_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/mpi -I$(top_srcdir)/tests \
	-I$(top_srcdir)/tests/ext -DGASNET_PAR
MPI_TESTS_SEQ_LIBS = libgasnet-mpi-seq.la $(MPI_LIBS) $(PTHREAD_LIBS)
MPI_TESTS_PAR_LIBS = libgasnet-mpi-par.la $(MPI_LIBS) $(PTHREAD_LIBS)
# -no-install: real binaries, not libtool wrappers, so the processes of a
# job run the program itself (the leak checks look for its path).
MPI_TESTS_LINK_FLAGS = $(AM_LDFLAGS) -no-install
EXTRA_DIST += conduits/mpi/tests.cases tests/mpi/mpi_lib.sh tests/mpi/run_mpi.sh \
	tests/mpi/conformance.sh tests/mpi/run_rma_nopoll.sh

# ------------------------------------------------------------ mpi-only tests
check_PROGRAMS += tests/mpi/testmpi_flood tests/mpi/testmpi_flood-par \
	tests/mpi/testmpi_backlog tests/mpi/testmpi_interop tests/mpi/testmpi_interop-par

tests_mpi_testmpi_flood_SOURCES = tests/mpi/testmpi_flood.c
tests_mpi_testmpi_flood_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_testmpi_flood_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_testmpi_flood_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_flood_par_SOURCES = tests/mpi/testmpi_flood.c
tests_mpi_testmpi_flood_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS)
tests_mpi_testmpi_flood_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_testmpi_flood_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_backlog_SOURCES = tests/mpi/testmpi_backlog.c
tests_mpi_testmpi_backlog_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS)
tests_mpi_testmpi_backlog_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_testmpi_backlog_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_interop_SOURCES = tests/mpi/testmpi_interop.c
tests_mpi_testmpi_interop_CPPFLAGS = $(MPI_TESTS_SEQ_CPPFLAGS) $(MPI_CFLAGS)
tests_mpi_testmpi_interop_LDADD = $(MPI_TESTS_SEQ_LIBS)
tests_mpi_testmpi_interop_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)
tests_mpi_testmpi_interop_par_SOURCES = tests/mpi/testmpi_interop.c
tests_mpi_testmpi_interop_par_CPPFLAGS = $(MPI_TESTS_PAR_CPPFLAGS) $(MPI_CFLAGS)
tests_mpi_testmpi_interop_par_LDADD = $(MPI_TESTS_PAR_LIBS)
tests_mpi_testmpi_interop_par_LDFLAGS = $(MPI_TESTS_LINK_FLAGS)

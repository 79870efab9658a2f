# conduits/mpi: active messages over MPI point-to-point, one library per
# thread mode (see docs/mpi-conduit.md).
MPI_CONDUIT_SOURCES = \
	conduits/mpi/mpi_boot.c \
	conduits/mpi/mpi_exit.c \
	conduits/mpi/mpi_poll.c \
	conduits/mpi/mpi_send.c
MPI_CONDUIT_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/mpi -I$(top_srcdir)/src \
	-I$(top_srcdir)/extended-ref -I$(top_builddir)/src $(MPI_CFLAGS)

lib_LTLIBRARIES += libgasnet-mpi-seq.la libgasnet-mpi-par.la
libgasnet_mpi_seq_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) $(MPI_CONDUIT_SOURCES) $(TOOLS_SOURCES)
libgasnet_mpi_seq_la_CPPFLAGS = $(MPI_CONDUIT_CPPFLAGS) -DGASNET_SEQ -DGASNETT_THREAD_SINGLE
libgasnet_mpi_seq_la_LIBADD = $(MPI_LIBS) $(PTHREAD_LIBS)
libgasnet_mpi_par_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) $(MPI_CONDUIT_SOURCES) $(TOOLS_SOURCES)
libgasnet_mpi_par_la_CPPFLAGS = $(MPI_CONDUIT_CPPFLAGS) -DGASNET_PAR -DGASNETT_THREAD_SAFE
libgasnet_mpi_par_la_LIBADD = $(MPI_LIBS) $(PTHREAD_LIBS)
noinst_HEADERS += conduits/mpi/mpi_internal.h

mpiincludedir = $(includedir)/mpi-conduit
mpiinclude_HEADERS = conduits/mpi/gasnet_core.h
nodist_mpiinclude_DATA = conduits/mpi/mpi-seq.mak conduits/mpi/mpi-par.mak conduits/mpi/mpi-parsync.mak
pkgconfig_DATA += conduits/mpi/gasnet-mpi-seq.pc conduits/mpi/gasnet-mpi-par.pc conduits/mpi/gasnet-mpi-parsync.pc
bin_SCRIPTS += conduits/mpi/gasnetrun_mpi
EXTRA_DIST += conduits/mpi/gasnetrun_mpi.in
CLEANFILES += conduits/mpi/gasnetrun_mpi $(nodist_mpiinclude_DATA) \
	conduits/mpi/gasnet-mpi-seq.pc conduits/mpi/gasnet-mpi-par.pc conduits/mpi/gasnet-mpi-parsync.pc

# The launcher learns where mpirun is at build time.
conduits/mpi/gasnetrun_mpi: $(top_srcdir)/conduits/mpi/gasnetrun_mpi.in Makefile
	$(AM_V_GEN)$(MKDIR_P) conduits/mpi && \
	  sed -e 's|@MPIRUN[@]|$(MPIRUN)|g' $(top_srcdir)/conduits/mpi/gasnetrun_mpi.in > $@ && chmod +x $@

# Client build fragments and pkg-config files (scripts/gen_client_config.sh):
# clients compile with the same CC as the library and link MPI's libraries.
conduits/mpi/mpi-seq.mak conduits/mpi/mpi-par.mak conduits/mpi/mpi-parsync.mak \
conduits/mpi/gasnet-mpi-seq.pc conduits/mpi/gasnet-mpi-par.pc conduits/mpi/gasnet-mpi-parsync.pc: \
		$(top_srcdir)/scripts/gen_client_config.sh Makefile
	$(AM_V_GEN)$(MKDIR_P) conduits/mpi && CC='$(CC)' PTHREAD_LIBS='$(PTHREAD_LIBS)' \
	  EXTRA_LIBS='$(MPI_LIBS)' CONDUIT_CC='$(MPICC)' \
	  SANITIZE_FLAGS='$(SANITIZE_FLAGS)' prefix='$(prefix)' libdir='$(libdir)' includedir='$(includedir)' \
	  VERSION='$(VERSION)' $(SHELL) $(top_srcdir)/scripts/gen_client_config.sh $@

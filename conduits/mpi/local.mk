# conduits/mpi: active messages over MPI point-to-point, one library per
# thread mode (see docs/mpi-conduit.md).
MPI_CONDUIT_SOURCES = \
	conduits/mpi/mpi_boot.c \
	conduits/mpi/mpi_exit.c \
	conduits/mpi/mpi_poll.c \
	conduits/mpi/mpi_rma.c \
	conduits/mpi/mpi_send.c \
	src/gasnet_xmem_none.c
MPI_CONDUIT_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/mpi -I$(top_srcdir)/src \
	-I$(top_srcdir)/extended-ref -I$(top_builddir)/src $(MPI_CFLAGS)

lib_LTLIBRARIES += libgasnet-mpi-seq.la libgasnet-mpi-par.la
libgasnet_mpi_seq_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) $(MPI_CONDUIT_SOURCES) $(TOOLS_SOURCES)
libgasnet_mpi_seq_la_CPPFLAGS = $(MPI_CONDUIT_CPPFLAGS) -DGASNET_SEQ -DGASNETT_THREAD_SINGLE
libgasnet_mpi_seq_la_LIBADD = $(MPI_LIBS) $(PTHREAD_LIBS)
libgasnet_mpi_par_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) $(MPI_CONDUIT_SOURCES) $(TOOLS_SOURCES)
libgasnet_mpi_par_la_CPPFLAGS = $(MPI_CONDUIT_CPPFLAGS) -DGASNET_PAR -DGASNETT_THREAD_SAFE
libgasnet_mpi_par_la_LIBADD = $(MPI_LIBS) $(PTHREAD_LIBS)
noinst_HEADERS += conduits/mpi/mpi_internal.h conduits/mpi/mpi_rma.h

mpiincludedir = $(includedir)/mpi-conduit
mpiinclude_HEADERS = conduits/mpi/gasnet_core.h
bin_SCRIPTS += conduits/mpi/gasnetrun_mpi
EXTRA_DIST += conduits/mpi/gasnetrun_mpi.in
CLEANFILES += conduits/mpi/gasnetrun_mpi

# The launcher learns where mpirun is at build time.
conduits/mpi/gasnetrun_mpi: $(top_srcdir)/conduits/mpi/gasnetrun_mpi.in Makefile
	$(AM_V_GEN)$(MKDIR_P) conduits/mpi && \
	  sed -e 's|@MPIRUN[@]|$(MPIRUN)|g' $(top_srcdir)/conduits/mpi/gasnetrun_mpi.in > $@ && chmod +x $@

# Client build fragments and pkg-config files, written at install time
# (Makefile.am): clients compile with the MPI wrapper and link MPI's libraries.
CLIENT_CONFIG_INSTALL += install-client-config-mpi
CLIENT_CONFIG_UNINSTALL += uninstall-client-config-mpi
install-client-config-mpi:
	$(AM_V_GEN)EXTRA_LIBS='$(MPI_LIBS)' CONDUIT_CC='$(MPICC)' \
	  $(GEN_CLIENT_CONFIG) mpi '$(DESTDIR)$(mpiincludedir)' '$(DESTDIR)$(pkgconfigdir)'
uninstall-client-config-mpi:
	rm -f '$(DESTDIR)$(mpiincludedir)'/mpi-*.mak '$(DESTDIR)$(pkgconfigdir)'/gasnet-mpi-*.pc

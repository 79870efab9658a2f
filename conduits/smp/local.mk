# conduits/smp: the shared-memory conduit, one library per thread mode.
SMP_SOURCES = \
	conduits/smp/smp_am.c \
	conduits/smp/smp_boot.c \
	conduits/smp/smp_exit.c \
	conduits/smp/smp_ring.c \
	conduits/smp/smp_supervisor.c \
	conduits/smp/smp_xmem.c
SMP_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp -I$(top_srcdir)/src -I$(top_srcdir)/extended-ref -I$(top_builddir)/src

lib_LTLIBRARIES += libgasnet-smp-seq.la libgasnet-smp-par.la
libgasnet_smp_seq_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) $(SMP_SOURCES) $(SMP_EXTENDED_SOURCES) $(TOOLS_SOURCES)
libgasnet_smp_seq_la_CPPFLAGS = $(SMP_CPPFLAGS) -DGASNET_SEQ -DGASNETT_THREAD_SINGLE
libgasnet_smp_seq_la_LIBADD = $(PTHREAD_LIBS)
libgasnet_smp_par_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) $(SMP_SOURCES) $(SMP_EXTENDED_SOURCES) $(TOOLS_SOURCES)
libgasnet_smp_par_la_CPPFLAGS = $(SMP_CPPFLAGS) -DGASNET_PAR -DGASNETT_THREAD_SAFE
libgasnet_smp_par_la_LIBADD = $(PTHREAD_LIBS)
noinst_HEADERS += conduits/smp/smp_internal.h

smpincludedir = $(includedir)/smp-conduit
smpinclude_HEADERS = conduits/smp/gasnet_core.h
bin_SCRIPTS += conduits/smp/gasnetrun_smp
EXTRA_DIST += conduits/smp/gasnetrun_smp.in
CLEANFILES += conduits/smp/gasnetrun_smp

conduits/smp/gasnetrun_smp: $(top_srcdir)/conduits/smp/gasnetrun_smp.in
	$(AM_V_GEN)$(MKDIR_P) conduits/smp && cp $< $@ && chmod +x $@

# Client build fragments (smp-<mode>.mak) and pkg-config files, written at
# install time so that they name the prefix installed under (Makefile.am).
CLIENT_CONFIG_INSTALL += install-client-config-smp
CLIENT_CONFIG_UNINSTALL += uninstall-client-config-smp
install-client-config-smp:
	$(AM_V_GEN)$(GEN_CLIENT_CONFIG) smp '$(DESTDIR)$(smpincludedir)' '$(DESTDIR)$(pkgconfigdir)'
uninstall-client-config-smp:
	rm -f '$(DESTDIR)$(smpincludedir)'/smp-*.mak '$(DESTDIR)$(pkgconfigdir)'/gasnet-smp-*.pc

# conduits/template: compiled (never installed) so the skeleton keeps
# matching the contract; a port copies this directory.
noinst_LTLIBRARIES += libgasnet-template-seq.la
libgasnet_template_seq_la_SOURCES = $(CORE_SOURCES) $(EXTENDED_SOURCES) \
	conduits/template/template_conduit.c src/gasnet_xmem_none.c $(TOOLS_SOURCES)
libgasnet_template_seq_la_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/template \
	-I$(top_srcdir)/src -I$(top_srcdir)/extended-ref -I$(top_builddir)/src \
	-DGASNET_SEQ -DGASNETT_THREAD_SINGLE
libgasnet_template_seq_la_LIBADD = $(PTHREAD_LIBS)
noinst_HEADERS += conduits/template/gasnet_core.h
EXTRA_DIST += conduits/template/README.md

# src/tools/local.mk: the portable tools behind gasnet_tools.h, included by
# the top-level Makefile.am.

include_HEADERS += \
	include/gasnet_basic.h \
	include/gasnet_portable_platform.h \
	include/gasnet_tools.h \
	include/gasnet_tools_atomic.h \
	include/gasnet_tools_basic.h \
	include/gasnet_tools_thread.h \
	include/gasnet_tools_timer.h \
	include/gasnet_tools_trace.h
noinst_HEADERS += src/tools/gasnet_tools_internal.h

# The tools implementation. The conduit libraries compile these sources too,
# so a GASNet client gets the tools from its conduit library alone.
TOOLS_SOURCES = \
	src/tools/tools_backtrace.c \
	src/tools/tools_env.c \
	src/tools/tools_mem.c \
	src/tools/tools_rwlock.c \
	src/tools/tools_sys.c \
	src/tools/tools_timer.c

# Tools-only clients link -lgasnet_tools-par (threaded) or -lgasnet_tools-seq.
lib_LTLIBRARIES += libgasnet_tools-seq.la libgasnet_tools-par.la
libgasnet_tools_seq_la_SOURCES = $(TOOLS_SOURCES)
libgasnet_tools_seq_la_CPPFLAGS = $(PUBLIC_CPPFLAGS) -DGASNETT_THREAD_SINGLE
libgasnet_tools_seq_la_LIBADD = $(PTHREAD_LIBS)
libgasnet_tools_par_la_SOURCES = $(TOOLS_SOURCES)
libgasnet_tools_par_la_CPPFLAGS = $(PUBLIC_CPPFLAGS) -DGASNETT_THREAD_SAFE
libgasnet_tools_par_la_LIBADD = $(PTHREAD_LIBS)

# Single-process test: exit status 0 is a pass; failed checks are printed.
check_PROGRAMS += tests/test_tools
tests_test_tools_SOURCES = tests/test_tools.c
tests_test_tools_CPPFLAGS = $(PUBLIC_CPPFLAGS) -DGASNETT_THREAD_SAFE
tests_test_tools_LDADD = libgasnet_tools-par.la $(PTHREAD_LIBS)
TOOLS_TESTS = tests/test_tools

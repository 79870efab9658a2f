# tests/: the core tests and the test harness.
#
# `make check` builds every check program, then check-local runs
# tests/harness.sh, which runs each case of tests/*.cases and
# tests/*/*.cases (format and options: the top of tests/harness.sh).
# TESTS_FILTER=regex and GASNET_TEST_NODES=1,2 narrow a run, e.g.
#   make check TESTS_FILTER='^am' GASNET_TEST_NODES=2
EXTRA_DIST += tests/harness.sh tests/expect_fail.sh tests/core.cases tests/test.h
# The ThreadSanitizer run of the PAR cases (not part of check; README.md).
EXTRA_DIST += tests/tsan/run_tsan.sh

if BUILD_SMP
# Every core test is built against the SEQ and the PAR library
# (testthreads only PAR); tests include tests/test.h.
CORE_TESTS_SEQ_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp \
	-I$(top_srcdir)/tests -DGASNET_SEQ
CORE_TESTS_PAR_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/conduits/smp \
	-I$(top_srcdir)/tests -DGASNET_PAR
CORE_TESTS_SEQ_LIBS = libgasnet-smp-seq.la $(PTHREAD_LIBS)
CORE_TESTS_PAR_LIBS = libgasnet-smp-par.la $(PTHREAD_LIBS)
# -no-install: real binaries rather than libtool wrapper scripts, so that
# the processes of a job (and any left behind) run the program itself.
CORE_TESTS_LINK_FLAGS = $(AM_LDFLAGS) -no-install

check_PROGRAMS += \
	tests/testam tests/testam-par \
	tests/testamchain tests/testamchain-par \
	tests/testamorder tests/testamorder-par \
	tests/testhandlers tests/testhandlers-par \
	tests/testsegment tests/testsegment-par \
	tests/testmisc tests/testmisc-par \
	tests/testscale tests/testscale-par \
	tests/testthreads

tests_testam_SOURCES = tests/testam.c
tests_testam_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testam_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testam_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testam_par_SOURCES = tests/testam.c
tests_testam_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testam_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testam_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testamchain_SOURCES = tests/testamchain.c
tests_testamchain_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testamchain_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testamchain_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testamchain_par_SOURCES = tests/testamchain.c
tests_testamchain_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testamchain_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testamchain_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testamorder_SOURCES = tests/testamorder.c
tests_testamorder_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testamorder_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testamorder_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testamorder_par_SOURCES = tests/testamorder.c
tests_testamorder_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testamorder_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testamorder_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testhandlers_SOURCES = tests/testhandlers.c
tests_testhandlers_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testhandlers_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testhandlers_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testhandlers_par_SOURCES = tests/testhandlers.c
tests_testhandlers_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testhandlers_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testhandlers_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testsegment_SOURCES = tests/testsegment.c
tests_testsegment_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testsegment_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testsegment_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testsegment_par_SOURCES = tests/testsegment.c
tests_testsegment_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testsegment_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testsegment_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testmisc_SOURCES = tests/testmisc.c
tests_testmisc_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testmisc_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testmisc_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testmisc_par_SOURCES = tests/testmisc.c
tests_testmisc_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testmisc_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testmisc_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testscale_SOURCES = tests/testscale.c
tests_testscale_CPPFLAGS = $(CORE_TESTS_SEQ_CPPFLAGS)
tests_testscale_LDADD = $(CORE_TESTS_SEQ_LIBS)
tests_testscale_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)
tests_testscale_par_SOURCES = tests/testscale.c
tests_testscale_par_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testscale_par_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testscale_par_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

tests_testthreads_SOURCES = tests/testthreads.c
tests_testthreads_CPPFLAGS = $(CORE_TESTS_PAR_CPPFLAGS)
tests_testthreads_LDADD = $(CORE_TESTS_PAR_LIBS)
tests_testthreads_LDFLAGS = $(CORE_TESTS_LINK_FLAGS)

CORE_TESTS_LAUNCHER = conduits/smp/gasnetrun_smp
endif

# The harness gets both top dirs, so it works in out-of-tree builds.
check-local: $(check_PROGRAMS) $(CORE_TESTS_LAUNCHER)
	$(AM_V_at)top_builddir='$(top_builddir)' top_srcdir='$(top_srcdir)' \
	  $(SHELL) $(top_srcdir)/tests/harness.sh '$(top_builddir)' '$(top_srcdir)'

# src/: what every conduit shares. Conduit libraries compile these sources
# together with their own, once per thread mode.
CORE_SOURCES = \
	src/gasnet_am.c \
	src/gasnet_am_fence.c \
	src/gasnet_am_coalesce.c \
	src/gasnet_am_invoke.c \
	src/gasnet_debug.c \
	src/gasnet_env.c \
	src/gasnet_error.c \
	src/gasnet_handler.c \
	src/gasnet_hsl.c \
	src/gasnet_init.c \
	src/gasnet_progress.c \
	src/gasnet_segalign.c \
	src/gasnet_wait.c \
	src/gasnet_cpuset.c
# Tracing and statistics exist in the library only when configured
# (--enable-trace, --enable-stats, or --enable-debug).
if GASNET_TRACE_OR_STATS
CORE_SOURCES += src/gasnet_events.c
endif
if GASNET_TRACE_BUILD
CORE_SOURCES += src/gasnet_trace.c
endif
if GASNET_STATS_BUILD
CORE_SOURCES += src/gasnet_stats.c
endif
EXTRA_DIST += src/gasnet_events.c src/gasnet_trace.c src/gasnet_stats.c
noinst_HEADERS += src/gasnet_internal.h src/gasnet_am_fence.h src/gasnet_copy.h src/gasnet_events.h src/gasnet_pace.h
# The bootstrap exchange (an allgather over the launcher's GASNETRUN_*
# variables, or over PMIx under a PMIx launcher): not part of every
# conduit; one that needs it lists $(BOOTSTRAP_SOURCES) in its sources and
# adds $(BOOTSTRAP_CPPFLAGS) and $(BOOTSTRAP_LIBS) (docs/porting.md). The
# PMIx backend is in them when configure found libpmix.
noinst_HEADERS += src/gasnet_bootstrap.h src/gasnet_bootstrap_pmix.h
BOOTSTRAP_SOURCES = src/gasnet_bootstrap.c
BOOTSTRAP_CPPFLAGS =
BOOTSTRAP_LIBS =
if HAVE_PMIX
BOOTSTRAP_SOURCES += src/gasnet_bootstrap_pmix.c
BOOTSTRAP_CPPFLAGS += -DGASNETI_BOOTSTRAP_PMIX $(PMIX_CFLAGS)
BOOTSTRAP_LIBS += $(PMIX_LIBS)
endif
EXTRA_DIST += src/gasnet_bootstrap_pmix.c
check_PROGRAMS += tests/test_bootstrap
tests_test_bootstrap_SOURCES = tests/test_bootstrap.c $(BOOTSTRAP_SOURCES)
tests_test_bootstrap_CPPFLAGS = $(BOOTSTRAP_CPPFLAGS)
tests_test_bootstrap_LDADD = $(BOOTSTRAP_LIBS)
tests_test_bootstrap_LDFLAGS = $(AM_LDFLAGS) -no-install
include_HEADERS += include/gasnet_hooks.h
EXTRA_DIST += scripts/gen_client_config.sh
# The summary of a job's trace or statistics files (Python 3).
bin_SCRIPTS += scripts/gasnet_trace
EXTRA_DIST += scripts/gasnet_trace
# The poll pacer (src/gasnet_pace.h) on a clock of the test's own; it
# needs some conduit's gasnet_core.h for gasnet.h, and takes smp's.
if BUILD_SMP
check_PROGRAMS += tests/test_pace
tests_test_pace_SOURCES = tests/test_pace.c src/gasnet_progress.c
tests_test_pace_CPPFLAGS = $(smp_CONDUIT_ALL_CPPFLAGS) -DGASNET_SEQ -DGASNETT_THREAD_SINGLE
tests_test_pace_LDFLAGS = $(AM_LDFLAGS) -no-install
endif

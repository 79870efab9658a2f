# tests/: the test suite and its harness.
#
# `make check` builds the conduit-free test programs (tests/test_tools,
# tests/coll/test_trees, a conduit's own programs), then check-local runs
# tests/harness.sh over tests/standalone.cases, the install and client
# compatibility cases, and each built conduit's conduits/<name>/tests.cases,
# whose suites run tests/conformance.sh: it builds every conduit-generic
# program (tests/programs.list) against that conduit and runs the generic
# case files (tests/core.cases, tests/ext/ext.cases, tests/coll/coll.cases,
# tests/exit/exit.cases, tests/trace/trace.cases, tests/perf/perf.cases)
# with its launcher.
# TESTS_FILTER=regex selects cases and suites of the top run,
# GASNET_CONFORMANCE_FILTER=regex the cases inside the suites, and
# GASNET_TEST_NODES=1,2 the node counts of both, e.g.
#   make check TESTS_FILTER='^smp_' GASNET_CONFORMANCE_FILTER='^am' GASNET_TEST_NODES=2
EXTRA_DIST += tests/harness.sh tests/expect_fail.sh tests/core.cases tests/test.h \
	tests/standalone.cases tests/programs.list tests/conformance.sh tests/unwritten_check.sh \
	tests/layers_check.sh tests/wait_confined.sh \
	tests/job_lib.sh tests/conformance_deps.sh tests/run_pmix.sh tests/lsan_pmix.supp
# The ThreadSanitizer run of the PAR cases (not part of check; README.md).
EXTRA_DIST += tests/tsan/run_tsan.sh

# The top run's case files.
CHECK_CASEFILES = tests/standalone.cases tests/exit/install.cases tests/compat/compat.cases \
	$(foreach c,$(GASNET_CONDUITS_BUILT),conduits/$(c)/tests.cases)

# The harness gets both top dirs, so it works in out-of-tree builds.
check-local: $(check_PROGRAMS) $(noinst_DATA) $(bin_SCRIPTS)
	$(AM_V_at)top_builddir='$(top_builddir)' top_srcdir='$(top_srcdir)' \
	  GASNET_TEST_CASEFILES='$(CHECK_CASEFILES)' \
	  $(SHELL) $(top_srcdir)/tests/harness.sh '$(top_builddir)' '$(top_srcdir)'

# `make conformance CONDUIT=name [CONFORMANCE_ARGS='-n 1,2 -f regex']`: the
# conformance suite of one conduit, by itself.
conformance: all
	@test -n '$(CONDUIT)' || { echo "make conformance: give CONDUIT=name (built: $(GASNET_CONDUITS_BUILT))"; exit 2; }
	$(SHELL) $(top_srcdir)/tests/conformance.sh -b '$(top_builddir)' $(CONFORMANCE_ARGS) '$(CONDUIT)'
.PHONY: conformance

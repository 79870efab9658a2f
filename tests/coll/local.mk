# tests/coll: the collectives tests (cases: tests/coll/coll.cases) and the
# collectives benchmark tests/perf/collperf (and collperf-par). They are
# conduit-generic: tests/conformance.sh builds them for each conduit
# (tests/programs.list). Only the unit tests of pure math (trees, layouts)
# are built here.
EXTRA_DIST += tests/coll/coll.cases tests/coll/collperf_all.sh \
	tests/coll/expect_fail_or_skip.sh tests/coll/direct_rule_default.sh
noinst_HEADERS += tests/coll/coll_test.h

# The tree math is pure: coll/patterns/trees.c (and trees_hier.c) is compiled into
# the tests themselves (tests/standalone.cases).
check_PROGRAMS += tests/coll/test_trees
tests_coll_test_trees_SOURCES = tests/coll/test_trees.c coll/patterns/trees.c
tests_coll_test_trees_CPPFLAGS = -I$(top_srcdir)/coll
tests_coll_test_trees_LDFLAGS = $(AM_LDFLAGS) -no-install
check_PROGRAMS += tests/coll/test_trees_hier
tests_coll_test_trees_hier_SOURCES = tests/coll/test_trees_hier.c coll/patterns/trees_hier.c coll/patterns/trees.c
tests_coll_test_trees_hier_CPPFLAGS = -I$(top_srcdir)/coll
tests_coll_test_trees_hier_LDFLAGS = $(AM_LDFLAGS) -no-install

# So is the layout math of reduce and scan (coll/ops/reduce_layout.c).
check_PROGRAMS += tests/coll/test_layout
tests_coll_test_layout_SOURCES = tests/coll/test_layout.c coll/ops/reduce_layout.c
tests_coll_test_layout_CPPFLAGS = -I$(top_srcdir)/coll
tests_coll_test_layout_LDFLAGS = $(AM_LDFLAGS) -no-install

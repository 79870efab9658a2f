# examples: client programs built against an *installed* tree (see
# examples/Makefile); nothing here is built by the library's own build.
# tests/exit/install.cases runs examples/test_installed.sh.
EXTRA_DIST += examples/hello_am.c examples/Makefile examples/test_installed.sh

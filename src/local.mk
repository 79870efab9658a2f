# src/: what every conduit shares. Conduit libraries compile these sources
# together with their own, once per thread mode.
CORE_SOURCES = \
	src/gasnet_am.c \
	src/gasnet_am_invoke.c \
	src/gasnet_env.c \
	src/gasnet_error.c \
	src/gasnet_handler.c \
	src/gasnet_hsl.c \
	src/gasnet_init.c \
	src/gasnet_progress.c \
	src/gasnet_segalign.c \
	src/gasnet_wait.c
noinst_HEADERS += src/gasnet_internal.h src/gasnet_copy.h
include_HEADERS += include/gasnet_hooks.h
EXTRA_DIST += scripts/gen_client_config.sh

# extended-ref: the extended API (put/get, sync, barriers) written on the
# core API. Compiled into every conduit library (with -I extended-ref and
# the library's thread mode); a conduit overrides parts of it through
# extended-ref/gasnet_extended_conduit.h (see docs/extended.md).
EXTENDED_SOURCES = \
	extended-ref/gasnete_ops.c \
	extended-ref/gasnete_amputget.c \
	extended-ref/gasnete_putget.c \
	extended-ref/gasnete_barrier.c \
	extended-ref/gasnete_amdissem.c \
	extended-ref/gasnete_amcentral.c
noinst_HEADERS += \
	extended-ref/gasnete_internal.h \
	extended-ref/gasnet_extended_conduit.h

# conduits/dgram: active messages over Unix-domain datagram sockets between
# the processes of one host (see dgram_internal.h). Its libraries, headers,
# launcher and client files are declared by the generated conduit.mk.
dgram_CONDUIT_SOURCES = \
	conduits/dgram/dgram_boot.c \
	conduits/dgram/dgram_send.c \
	conduits/dgram/dgram_poll.c \
	conduits/dgram/dgram_exit.c \
	src/gasnet_xmem_none.c
dgram_CONDUIT_CPPFLAGS =
dgram_CONDUIT_LIBS =
dgram_CONDUIT_CC = $(CC)
dgram_CONDUIT_LAUNCHER_SED =
include conduits/dgram/conduit.mk

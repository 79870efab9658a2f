# conduits/template: the porting skeleton, built when configure is given
# --enable-template. A new conduit copies this directory and renames
# "template" in file names and inside the files (this one included); its
# libraries, headers, launcher and client files are then declared by the
# generated conduits/<name>/conduit.mk (see docs/porting.md).
template_CONDUIT_SOURCES = \
	conduits/template/template_conduit.c \
	src/gasnet_xmem_none.c
# Extra preprocessor flags, libraries and the compiler clients use (a
# network library's -I, -L and -l; an MPI wrapper instead of $(CC)).
template_CONDUIT_CPPFLAGS =
template_CONDUIT_LIBS =
template_CONDUIT_CC = $(CC)
# sed options applied to gasnetrun_template.in (e.g. -e 's|@X[@]|$(X)|g').
template_CONDUIT_LAUNCHER_SED =
include conduits/template/conduit.mk

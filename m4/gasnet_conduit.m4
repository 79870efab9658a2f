# gasnet_conduit.m4: declaring a conduit, one line of configure.ac per conduit.
#
# GASNET_CONDUIT(NAME, DEFAULT, DESCRIPTION)
#
# Declares the conduit of directory conduits/NAME: the options
# --enable-NAME / --disable-NAME (DEFAULT: yes, no, or auto: built when its
# check finds what it needs), the automake conditional BUILD_<NAME> that
# the conduit's generated conduits/NAME/conduit.mk is wrapped in, and its
# place in GASNET_CONFIG_STRING's CONDUITS list and in the summary.
#
# A conduit that needs configure-time checks keeps them in its own
# directory, in conduits/NAME/conduit.m4, read here if it exists. It
# defines GASNET_CONDUIT_CHECK_NAME, run when the conduit is wanted
# (enable_NAME is yes or auto). The check may fail (AC_MSG_ERROR) or, when
# enable_NAME is auto, set enable_NAME=no; it may AC_SUBST what its
# local.mk uses, append ",KEY=VALUE" to gasnet_conduit_config_NAME (added
# to GASNET_CONFIG_STRING) and set gasnet_conduit_summary_NAME (a line of
# the summary).
#
# After every GASNET_CONDUIT, GASNET_CONDUITS_DONE sets GASNET_CONDUITS
# (the conduits built, comma-separated) and the summary text.
AC_DEFUN([GASNET_CONDUIT], [
m4_if(m4_bregexp([$1], [^[a-z][a-z0-9_]*$]), [-1],
  [m4_fatal([GASNET_CONDUIT: conduit name '$1' must be lower case letters, digits and _])])
m4_sinclude([conduits/$1/conduit.m4])
AC_ARG_ENABLE([$1],
  [AS_HELP_STRING([--enable-$1], [build the $1 conduit: $3 (default: $2)])],
  [], [enable_$1=$2])
AS_CASE([$enable_$1],
  [yes|no|auto], [],
  [AC_MSG_ERROR([--enable-$1=$enable_$1: give yes, no or auto])])
gasnet_conduit_config_$1=
gasnet_conduit_summary_$1=
m4_ifdef([GASNET_CONDUIT_CHECK_$1],
  [AS_IF([test "x$enable_$1" != xno], [GASNET_CONDUIT_CHECK_$1])])
AS_IF([test "x$enable_$1" = xauto], [enable_$1=yes])
AM_CONDITIONAL(m4_toupper([BUILD_$1]), [test "x$enable_$1" = xyes])
AS_IF([test "x$enable_$1" = xyes],
  [gasnet_conduit_list="$gasnet_conduit_list $1"
   gasnet_conduit_configs="$gasnet_conduit_configs$gasnet_conduit_config_$1"])
gasnet_conduit_states="$gasnet_conduit_states $1=$enable_$1"
AS_IF([test -n "$gasnet_conduit_summary_$1"],
  [gasnet_conduit_summaries="$gasnet_conduit_summaries
  $1: $gasnet_conduit_summary_$1"])
])

AC_DEFUN([GASNET_CONDUITS_DONE], [
GASNET_CONDUITS=`echo $gasnet_conduit_list | tr ' ' ','`
AS_IF([test -z "$GASNET_CONDUITS"],
  [AC_MSG_ERROR([no conduit is enabled: enable at least one (--enable-smp, --enable-mpi, ...)])])
AC_SUBST([GASNET_CONDUITS])
AC_SUBST([GASNET_CONDUIT_LIST], [`echo $gasnet_conduit_list`])
])

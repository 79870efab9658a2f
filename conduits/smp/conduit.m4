dnl conduits/smp/conduit.m4: configure-time checks of the smp conduit, read by
dnl GASNET_CONDUIT([smp], ...) (m4/gasnet_conduit.m4).
AC_DEFUN([GASNET_CONDUIT_CHECK_smp], [
dnl Peers reach one another's memory only through the shared segments.
AS_IF([test "x$segment" = xeverything],
  [AS_IF([test "x$enable_smp" = xauto],
     [enable_smp=no],
     [AC_MSG_ERROR([the smp conduit cannot provide GASNET_SEGMENT_EVERYTHING: peers reach only the shared segments; configure with --disable-smp or another segment mode])])])
])

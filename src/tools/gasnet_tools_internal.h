/* gasnet_tools_internal.h: what the tools implementation shares between its
 * files, and the hooks through which the core library adapts the tools to a
 * running job. Not installed. */
#ifndef GASNET_TOOLS_INTERNAL_H
#define GASNET_TOOLS_INTERNAL_H

#include <gasnet_tools.h>

/* Hooks the core library may set during gasnet_init, before the client can
 * start threads (they are read without locking). NULL means "behave as a
 * tools-only program".
 *   getenv:     answers gasnett_getenv, e.g. from the environment node 0
 *               distributed to the job, so every node sees one setting.
 *   verboseenv: answers gasnett_verboseenv, e.g. "GASNET_VERBOSEENV is set
 *               and this is node 0", so a job reports its settings once. */
extern char *(*gasneti_tools_getenv_hook)(const char *name);
extern int (*gasneti_tools_verboseenv_hook)(void);
/* Set by the core library: takes over the reporting of settings read
 * through the _withdefault calls, so that a job lists each variable once,
 * from node 0, in one format, whichever layer read it. */
extern void (*gasneti_tools_env_display_hook)(const char *name, const char *value, int isdefault);

/* Reports a setting read through a _withdefault call on stderr, once per
 * name, when gasnett_verboseenv() says so. */
extern void gasneti_tools_env_display(const char *name, const char *value, int isdefault);

/* Lenient yes/no test for settings read on the way to a fatal error, where a
 * malformed value must not raise a second one: "y", "Y", "1"... mean yes. */
extern int gasneti_tools_env_is_yes(const char *name);

/* The backtrace mechanisms tried when GASNET_BACKTRACE_TYPE is unset
 * (configure --with-backtrace-type). */
extern const char *gasneti_tools_backtrace_default(void);

#endif /* GASNET_TOOLS_INTERNAL_H */

/* gasnet_env.c: reading GASNET_* environment variables, with the verbose
 * mode (GASNET_VERBOSEENV, the launchers' -v) that lists every variable the
 * job reads: once, from node 0, with the value or the default in force,
 * whichever layer read it (the core, the conduit, extended-ref and coll
 * through gasneti_getenv_verbose, the tools' _withdefault calls through
 * their display hook). A variable read before the node knows its number
 * (a launcher process, MPI start-up) is held back and listed by node 0
 * once it knows. */
#include "gasnet_internal.h"
#include "tools/gasnet_tools_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef GASNETI_THREADS
static pthread_mutex_t gasneti_env_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

/* Every variable seen, in the order first read; `shown` once listed. */
#define GASNETI_ENV_SEEN_MAX 256
typedef struct {
  char *name;
  char *value;
  int isdefault;
  int shown;
} gasneti_env_seen_t;
static gasneti_env_seen_t gasneti_env_seen[GASNETI_ENV_SEEN_MAX];
static int gasneti_env_nseen;

int gasneti_verboseenv_asked(void) {
  static int asked = -1;
  if (asked < 0) {
    const char *v = getenv("GASNET_VERBOSEENV");
    asked = v && *v && !strchr("0nN", v[0]);
  }
  return asked;
}

static void gasneti_env_lock_take(void) {
#ifdef GASNETI_THREADS
  pthread_mutex_lock(&gasneti_env_lock);
#endif
}
static void gasneti_env_lock_give(void) {
#ifdef GASNETI_THREADS
  pthread_mutex_unlock(&gasneti_env_lock);
#endif
}

static void gasneti_env_print(const gasneti_env_seen_t *e) {
  fprintf(stderr, "ENV parameter: %-30s = %s%s\n", e->name, e->value,
          e->isdefault ? "   (default)" : "");
}

/* List what is held back, once this is node 0 of a job that asked. */
static void gasneti_env_list_pending(void) {
  if (!gasneti_init_done || gasneti_mynode != 0) return;
  for (int i = 0; i < gasneti_env_nseen; i++)
    if (!gasneti_env_seen[i].shown) {
      gasneti_env_print(&gasneti_env_seen[i]);
      gasneti_env_seen[i].shown = 1;
    }
  fflush(stderr);
}

static void gasneti_env_note(const char *name, const char *value, int isdefault) {
  if (!gasneti_verboseenv_asked()) return;
  gasneti_env_lock_take();
  int known = 0;
  for (int i = 0; i < gasneti_env_nseen && !known; i++)
    known = !strcmp(gasneti_env_seen[i].name, name);
  if (!known && gasneti_env_nseen < GASNETI_ENV_SEEN_MAX) {
    gasneti_env_seen_t *e = &gasneti_env_seen[gasneti_env_nseen];
    e->name = strdup(name);
    e->value = strdup(value);
    e->isdefault = isdefault;
    if (e->name && e->value) gasneti_env_nseen++;
  }
  gasneti_env_list_pending();
  gasneti_env_lock_give();
}

/* gasnet_init, once the node knows its number: list what came before. */
static int gasneti_env_verbose_node0(void) {
  return gasneti_verboseenv_asked() && gasneti_init_done && gasneti_mynode == 0;
}

void gasneti_env_node_known(void) {
  gasneti_tools_verboseenv_hook = gasneti_env_verbose_node0;
  if (!gasneti_verboseenv_asked()) return;
  gasneti_env_lock_take();
  gasneti_env_list_pending();
  gasneti_env_lock_give();
}

/* Installed before the conduit starts, so a setting read anywhere, by any
 * layer, is noted. */
void gasneti_env_hooks_install(void) { gasneti_tools_env_display_hook = gasneti_env_note; }

const char *gasneti_getenv_verbose(const char *name, const char *dflt_desc) {
  const char *value = getenv(name);
  if (gasneti_verboseenv_asked())
    gasneti_env_note(name, value ? value : dflt_desc ? dflt_desc : "*not set*", !value);
  return value;
}

char *gasnet_getenv(const char *name) {
  return (char *)gasneti_getenv_verbose(name, NULL);
}

int gasneti_parse_size(const char *text, uint64_t *value_p) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || errno || v < 0) return -1;
  while (isspace((unsigned char)*end)) end++;
  double scale = 1;
  switch (toupper((unsigned char)*end)) {
    case 'K': scale = 1024.0; end++; break;
    case 'M': scale = 1024.0 * 1024; end++; break;
    case 'G': scale = 1024.0 * 1024 * 1024; end++; break;
    case 'T': scale = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
  }
  if (toupper((unsigned char)*end) == 'B') end++;
  if (*end) return -1;
  *value_p = (uint64_t)(v * scale);
  return 0;
}

int64_t gasneti_getenv_int(const char *name, int64_t dflt) {
  char desc[32];
  snprintf(desc, sizeof(desc), "%lld", (long long)dflt);
  const char *text = gasneti_getenv_verbose(name, desc);
  if (!text) return dflt;
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 0);
  if (end == text || *end || errno)
    gasneti_fatalerror("environment variable %s=\"%s\" is not an integer", name, text);
  return v;
}

uint64_t gasneti_getenv_size(const char *name, uint64_t dflt) {
  char desc[32];
  snprintf(desc, sizeof(desc), "%llu", (unsigned long long)dflt);
  const char *text = gasneti_getenv_verbose(name, desc);
  uint64_t v;
  if (!text) return dflt;
  if (gasneti_parse_size(text, &v))
    gasneti_fatalerror("environment variable %s=\"%s\" is not a size (e.g. 4096, 64K, 2M, 1G)",
                       name, text);
  return v;
}

double gasneti_getenv_double(const char *name, double dflt) {
  char desc[32];
  snprintf(desc, sizeof(desc), "%g", dflt);
  const char *text = gasneti_getenv_verbose(name, desc);
  if (!text) return dflt;
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end)
    gasneti_fatalerror("environment variable %s=\"%s\" is not a number", name, text);
  return v;
}

int gasneti_getenv_yesno(const char *name, int dflt) {
  const char *text = gasneti_getenv_verbose(name, dflt ? "yes" : "no");
  if (!text) return dflt;
  static const char *const yes[] = {"1", "y", "yes", "true", "on"};
  static const char *const no[] = {"0", "n", "no", "false", "off"};
  for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
    if (!strcasecmp(text, yes[i])) return 1;
    if (!strcasecmp(text, no[i])) return 0;
  }
  gasneti_fatalerror("environment variable %s=\"%s\" is neither yes nor no (1/0, y/n, true/false, "
                     "on/off)",
                     name, text);
  return dflt;
}

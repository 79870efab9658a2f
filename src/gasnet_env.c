/* gasnet_env.c: reading GASNET_* environment variables, with the verbose
 * mode (GASNET_VERBOSEENV) that lists on node 0 every variable read. */
#include "gasnet_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef GASNETI_THREADS
static pthread_mutex_t gasneti_env_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

/* Names already reported, so each appears once in the verbose listing. */
#define GASNETI_ENV_SEEN_MAX 128
static const char *gasneti_env_seen[GASNETI_ENV_SEEN_MAX];
static int gasneti_env_nseen;

static int gasneti_verboseenv(void) {
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("GASNET_VERBOSEENV") != NULL;
  return verbose && gasneti_mynode == 0;
}

static int gasneti_env_first_read(const char *name) {
  int first = 1;
#ifdef GASNETI_THREADS
  pthread_mutex_lock(&gasneti_env_lock);
#endif
  for (int i = 0; i < gasneti_env_nseen; i++)
    if (!strcmp(gasneti_env_seen[i], name)) first = 0;
  if (first && gasneti_env_nseen < GASNETI_ENV_SEEN_MAX)
    gasneti_env_seen[gasneti_env_nseen++] = strdup(name);
#ifdef GASNETI_THREADS
  pthread_mutex_unlock(&gasneti_env_lock);
#endif
  return first;
}

const char *gasneti_getenv_verbose(const char *name, const char *dflt_desc) {
  const char *value = getenv(name);
  if (gasneti_verboseenv() && gasneti_env_first_read(name)) {
    if (value)
      fprintf(stderr, "ENV parameter: %-28s = %s\n", name, value);
    else
      fprintf(stderr, "ENV parameter: %-28s = %s   (default)\n", name,
              dflt_desc ? dflt_desc : "*not set*");
  }
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

/* tools_env.c: environment variables and integer parsing for the tools. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gasnet_tools_internal.h"

char *(*gasneti_tools_getenv_hook)(const char *name) = NULL;
int (*gasneti_tools_verboseenv_hook)(void) = NULL;
void (*gasneti_tools_env_display_hook)(const char *name, const char *value, int isdefault) = NULL;

char *gasnett_getenv(const char *keyname) {
  if (gasneti_tools_getenv_hook) return gasneti_tools_getenv_hook(keyname);
  return getenv(keyname);
}

void gasnett_setenv(const char *key, const char *value) {
  if (setenv(key, value, 1) != 0)
    gasnett_fatalerror("gasnett_setenv: failed to set %s=\"%s\": %s", key, value, strerror(errno));
}

void gasnett_unsetenv(const char *key) {
  if (unsetenv(key) != 0)
    gasnett_fatalerror("gasnett_unsetenv: failed to unset %s: %s", key, strerror(errno));
}

int gasneti_tools_env_is_yes(const char *name) {
  const char *s = gasnett_getenv(name);
  return s && (s[0] == 'y' || s[0] == 'Y' || s[0] == '1');
}

int gasnett_verboseenv(void) {
  /* -1 until first asked; racing first callers compute the same answer. */
  static int verbose = -1;
  int v;
  if (gasneti_tools_verboseenv_hook) return gasneti_tools_verboseenv_hook();
  v = __atomic_load_n(&verbose, __ATOMIC_RELAXED);
  if (v < 0) {
    v = gasneti_tools_env_is_yes("GASNET_VERBOSEENV");
    __atomic_store_n(&verbose, v, __ATOMIC_RELAXED);
  }
  return v;
}

/* ------------------------------------------------------------ display */
/* Names already reported, so a setting read in a loop is shown once. */
typedef struct gasnetti_env_shown {
  struct gasnetti_env_shown *next;
  char name[1]; /* allocated to fit */
} gasnetti_env_shown_t;

static gasnetti_env_shown_t *gasnetti_env_shown_list = NULL;
static pthread_mutex_t gasnetti_env_shown_lock = PTHREAD_MUTEX_INITIALIZER;

/* Returns 1 the first time it sees name. */
static int gasnetti_env_first_sighting(const char *name) {
  gasnetti_env_shown_t *e;
  int first = 1;
  pthread_mutex_lock(&gasnetti_env_shown_lock);
  for (e = gasnetti_env_shown_list; e; e = e->next)
    if (!strcmp(e->name, name)) first = 0;
  if (first) {
    e = (gasnetti_env_shown_t *)malloc(sizeof(*e) + strlen(name));
    if (e) { /* without memory, only the dedup is lost */
      strcpy(e->name, name);
      e->next = gasnetti_env_shown_list;
      gasnetti_env_shown_list = e;
    }
  }
  pthread_mutex_unlock(&gasnetti_env_shown_lock);
  return first;
}

void gasneti_tools_env_display(const char *name, const char *value, int isdefault) {
  if (gasneti_tools_env_display_hook) {
    gasneti_tools_env_display_hook(name, value, isdefault);
    return;
  }
  if (!gasnett_verboseenv() || !gasnetti_env_first_sighting(name)) return;
  fprintf(stderr, "ENV parameter: %s = %s%s\n", name, value, isdefault ? "   (default)" : "");
  fflush(stderr);
}

/* ------------------------------------------------------------ integers */
static const char *gasnetti_skip_space(const char *p) {
  while (*p && isspace((unsigned char)*p)) p++;
  return p;
}

/* The multiplier a memory-size suffix stands for, 0 if c is not one. */
static uint64_t gasnetti_suffix_multiplier(char c) {
  switch (toupper((unsigned char)c)) {
  case 'T': return UINT64_C(1) << 40;
  case 'G': return UINT64_C(1) << 30;
  case 'M': return UINT64_C(1) << 20;
  case 'K': return UINT64_C(1) << 10;
  case 'B': return 1;
  default: return 0;
  }
}

/* Parses str into *result; returns NULL or what is wrong with it. */
static const char *gasnetti_parse_int(const char *str, uint64_t mem_size_multiplier,
                                      int64_t *result) {
  const char *p = gasnetti_skip_space(str);
  char *end;
  int neg = 0, isfrac = 0;
  uint64_t ival, mult = mem_size_multiplier ? mem_size_multiplier : 1;
  double dval = 0;

  if (*p == '-' || *p == '+') neg = (*p++ == '-');
  errno = 0;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    if (!isxdigit((unsigned char)p[2])) return "not a number";
    ival = strtoull(p + 2, &end, 16);
  } else {
    if (!isdigit((unsigned char)*p) && !(mem_size_multiplier && *p == '.'))
      return "not a number";
    ival = strtoull(p, &end, 10);
    if (mem_size_multiplier && *end == '.') { /* "1.5G" */
      dval = strtod(p, &end);
      isfrac = 1;
    }
  }
  if (errno == ERANGE) return "out of range";

  p = gasnetti_skip_space(end);
  if (*p) {
    if (!mem_size_multiplier) return "unexpected characters after the number";
    mult = gasnetti_suffix_multiplier(*p);
    if (!mult) return "unknown suffix (expected K, M, G, T or B)";
    p++;
    if (mult > 1 && (*p == 'b' || *p == 'B')) p++; /* "4KB" */
    if (*gasnetti_skip_space(p)) return "unexpected characters after the suffix";
  }

  if (isfrac) {
    dval *= (double)mult;
    if (dval >= 9223372036854775808.0) return "out of range";
    ival = (uint64_t)dval;
  } else {
    if (ival > (uint64_t)INT64_MAX / mult) return "out of range";
    ival *= mult;
  }
  if (ival > (uint64_t)INT64_MAX) return "out of range";
  *result = neg ? -(int64_t)ival : (int64_t)ival;
  return NULL;
}

int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier) {
  int64_t val = 0;
  const char *why;
  if (!str) return 0;
  why = gasnetti_parse_int(str, mem_size_multiplier, &val);
  if (why) gasnett_fatalerror("gasnett_parse_int: \"%s\": %s", str, why);
  return val;
}

int64_t gasnett_getenv_int_withdefault(const char *keyname, int64_t defaultval,
                                       uint64_t mem_size_multiplier) {
  const char *s = gasnett_getenv(keyname);
  int64_t val = defaultval;
  char shown[128];
  if (!s || !*s) {
    snprintf(shown, sizeof(shown), "%" PRId64, defaultval);
    gasneti_tools_env_display(keyname, shown, 1);
    return defaultval;
  }
  {
    const char *why = gasnetti_parse_int(s, mem_size_multiplier, &val);
    if (why)
      gasnett_fatalerror("environment variable %s=\"%s\": %s%s", keyname, s, why,
                         mem_size_multiplier ? " (a memory size, e.g. 512K, 64M, 1.5G)" : "");
  }
  snprintf(shown, sizeof(shown), "%s (%" PRId64 ")", s, val);
  gasneti_tools_env_display(keyname, shown, 0);
  return val;
}

int gasnett_getenv_yesno_withdefault(const char *keyname, int defaultval) {
  const char *s = gasnett_getenv(keyname);
  int val;
  if (!s || !*s) {
    gasneti_tools_env_display(keyname, defaultval ? "YES" : "NO", 1);
    return defaultval;
  }
  switch (toupper((unsigned char)s[0])) {
  case 'Y': case '1': val = 1; break;
  case 'N': case '0': val = 0; break;
  default:
    gasnett_fatalerror("environment variable %s=\"%s\": expected Y, YES, 1, N, NO or 0",
                       keyname, s);
  }
  gasneti_tools_env_display(keyname, val ? "YES" : "NO", 0);
  return val;
}

/* tools_mem.c: checksums and zero-byte counts over memory regions. */
#include <string.h>

#include "gasnet_tools_internal.h"

/* GASNet-1's checksum: each byte is XORed in after rotating the sum left by
 * one byte, so equal data gives equal sums on every node and reordered data
 * almost never does. */
uint64_t gasnett_checksum(const void *p, int numbytes) {
  const unsigned char *buf = (const unsigned char *)p;
  uint64_t result = 0;
  int i;
  for (i = 0; i < numbytes; i++) result = ((result << 8) | (result >> 56)) ^ buf[i];
  return result;
}

size_t gasnett_count0s(const void *src, size_t bytes) {
  const unsigned char *p = (const unsigned char *)src;
  size_t zeros = 0;
  /* Bytes one at a time up to word alignment, then whole words. */
  while (bytes > 0 && ((uintptr_t)p & (sizeof(uint64_t) - 1))) {
    zeros += (*p++ == 0);
    bytes--;
  }
  while (bytes >= sizeof(uint64_t)) {
    uint64_t w;
    memcpy(&w, p, sizeof(w)); /* aligned: compiles to one load */
    zeros += (size_t)gasnett_count0s_uint64_t(w);
    p += sizeof(w);
    bytes -= sizeof(w);
  }
  while (bytes > 0) {
    zeros += (*p++ == 0);
    bytes--;
  }
  return zeros;
}

size_t gasnett_count0s_copy(void *dst, const void *src, size_t bytes) {
  memcpy(dst, src, bytes);
  return gasnett_count0s(dst, bytes);
}

// compat_cxx.cc: a C++ GASNet-1 client, built through an installed
// makefile fragment with $(GASNET_CXX). It registers its reduction
// functions in the gasnet_coll_init table without casts, sends an AM from
// a class, and runs a broadcast. Every node prints
// "compat_cxx: node I/N OK".
#include <gasnet.h>

#include <vector>

namespace {

gasnet_node_t mynode, nodes;

void die(const char *what) {
  fprintf(stderr, "compat_cxx: node %u: %s\n", (unsigned)mynode, what);
  fflush(stderr);
  gasnet_exit(1);
}

// Reduction functions as C++ clients write them.
void sum_ints(void *results, size_t result_count, const void *left_operands, size_t left_count,
              const void *right_operands, size_t elem_size, int flags, int arg) {
  int *out = static_cast<int *>(results);
  const int *left = static_cast<const int *>(left_operands);
  const int *right = static_cast<const int *>(right_operands);
  for (size_t i = 0; i < result_count; i++) out[i] = left[i] + right[i];
  (void)left_count, (void)elem_size, (void)flags, (void)arg;
}
void max_ints(void *results, size_t result_count, const void *left_operands, size_t left_count,
              const void *right_operands, size_t elem_size, int flags, int arg) {
  int *out = static_cast<int *>(results);
  const int *left = static_cast<const int *>(left_operands);
  const int *right = static_cast<const int *>(right_operands);
  for (size_t i = 0; i < result_count; i++) out[i] = left[i] > right[i] ? left[i] : right[i];
  (void)left_count, (void)elem_size, (void)flags, (void)arg;
}

class Counter {
 public:
  static volatile int hits;
  static void handler(gasnet_token_t, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1) {
    if (a0 != 7 || a1 != -7) die("AM arguments");
    hits = hits + 1;
  }
};
volatile int Counter::hits = 0;

}  // namespace

int main(int argc, char **argv) {
  if (gasnet_init(&argc, &argv) != GASNET_OK) die("gasnet_init");
  gasnet_handlerentry_t handlers[] = {{201, (gasneti_handler_fn_t)Counter::handler}};
  if (gasnet_attach(handlers, 1, 1 << 20, 0) != GASNET_OK) die("gasnet_attach");
  mynode = gasnet_mynode();
  nodes = gasnet_nodes();

  gasnet_coll_fn_entry_t fns[] = {{sum_ints, GASNET_COLL_AMSAFE}, {max_ints, 0}};
  gasnet_coll_init(NULL, 0, fns, 2, 0);

  if (gasnet_AMRequestShort2((mynode + 1) % nodes, 201, 7, -7) != GASNET_OK) die("request");
  GASNET_BLOCKUNTIL(Counter::hits == 1);

  std::vector<int> data(64, mynode == 0 ? 11 : 0);
  std::vector<int> got(64, -1);
  gasnet_coll_broadcast(GASNET_TEAM_ALL, got.data(), 0, data.data(), got.size() * sizeof(int),
                        GASNET_COLL_LOCAL | GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC);
  for (int v : got)
    if (v != 11) die("broadcast value");

  printf("compat_cxx: node %u/%u OK\n", (unsigned)mynode, (unsigned)nodes);
  fflush(stdout);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) die("barrier");
  gasnet_exit(0);
}

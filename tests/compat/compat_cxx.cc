// compat_cxx.cc: a C++ GASNet-1 client, built through an installed
// makefile fragment with $(GASNET_CXX). It registers its reduction
// functions in the gasnet_coll_init table without casts, sends an AM from
// a class, runs a broadcast, splits a team through GASNet-1's internal
// gasnete_coll_team_split(..., &scratch GASNETE_THREAD_GET) as a C++ PGAS
// library does, and reduces element-wise on it (src_blksz 0) with a
// function that asserts GASNet-1's calling convention. Every node prints
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

// The element-wise reduction of GASNet 1.x: the result is combined in
// place (results is left, result_count == left_count), as a C++ PGAS
// library's team reduce asserts.
void sum_longs_in_place(void *results, size_t result_count, const void *left_operands,
                        size_t left_count, const void *right_operands, size_t elem_size, int flags,
                        int arg) {
  if (result_count != left_count) die("element-wise reduce: result_count != left_count");
  if (results != left_operands) die("element-wise reduce: results is not left_operands");
  if (elem_size != sizeof(long)) die("element-wise reduce: elem_size");
  long *out = static_cast<long *>(results);
  const long *right = static_cast<const long *>(right_operands);
  for (size_t i = 0; i < result_count; i++) out[i] += right[i];
  (void)flags, (void)arg;
}

// A helper declared and called the way GASNet-1's internals pass the
// hidden thread-info argument (empty in SEQ, one more argument otherwise).
gasnet_node_t team_rank(gasnet_team_handle_t team GASNETE_THREAD_FARG) {
  return gasnet_coll_team_node2rank(team, mynode);
}
gasnet_node_t team_rank_twice(gasnet_team_handle_t team GASNETE_THREAD_FARG) {
  return team_rank(team GASNETE_THREAD_PASS);
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

  gasnet_coll_fn_entry_t fns[] = {
      {sum_ints, GASNET_COLL_AMSAFE}, {max_ints, 0}, {sum_longs_in_place, 0}};
  gasnet_coll_init(NULL, 0, fns, 3, 0);

  if (gasnet_AMRequestShort2((mynode + 1) % nodes, 201, 7, -7) != GASNET_OK) die("request");
  GASNET_BLOCKUNTIL(Counter::hits == 1);

  std::vector<int> data(64, mynode == 0 ? 11 : 0);
  std::vector<int> got(64, -1);
  gasnet_coll_broadcast(GASNET_TEAM_ALL, got.data(), 0, data.data(), got.size() * sizeof(int),
                        GASNET_COLL_LOCAL | GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC);
  for (int v : got)
    if (v != 11) die("broadcast value");

  // Halves by parity, ranked in reverse node order, through the internal
  // spelling with a scratch segment and the hidden thread argument.
  gasnet_seginfo_t scratch_seg = {NULL, 0};
  gasnet_team_handle_t half =
      gasnete_coll_team_split(GASNET_TEAM_ALL, mynode % 2, nodes - mynode, &scratch_seg GASNETE_THREAD_GET);
  gasnet_node_t half_size = (nodes + 1 - mynode % 2) / 2;
  if (gasnet_coll_team_size(half) != half_size) die("split team size");
  if (team_rank_twice(half GASNETE_THREAD_GET) != half_size - 1 - mynode / 2) die("split team rank");
  // Element-wise: every member gives 5 longs, rank 0 of the team gets the sums.
  std::vector<long> mine(5), sums(5, -1);
  for (size_t i = 0; i < mine.size(); i++) mine[i] = (long)(mynode * 100 + i);
  gasnet_coll_reduce(half, 0, sums.data(), mine.data(), 0, 0, sizeof(long), mine.size(), 2, 0,
                     GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC);
  if (gasnet_coll_team_node2rank(half, mynode) == 0) {
    for (size_t i = 0; i < sums.size(); i++) {
      long want = 0;
      for (gasnet_node_t n = mynode % 2; n < nodes; n += 2) want += (long)(n * 100 + i);
      if (sums[i] != want) die("element-wise team reduce value");
    }
  }

  printf("compat_cxx: node %u/%u OK\n", (unsigned)mynode, (unsigned)nodes);
  fflush(stdout);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) die("barrier");
  gasnet_exit(0);
}

// hxrt_graph_memory: the host memory a large graph costs per node, at each stage: the graph as
// built, the executable compile makes of it (what it keeps, and the most it held while
// compiling), and a second compile given the first one's placement back. A chain of Relus on
// CPU:0, 1,000,000 nodes unless the first argument says otherwise. With a second argument, a
// limit in bytes per node: the program fails when what a compile keeps or holds at its most
// passes it (the CTest guard graph_memory_check).
//
// What C++ code holds is counted by this program's own operator new and delete (every
// allocation of the core and the plugin is one of theirs), by the size malloc gave each block:
// the bytes held at each stage, and the most held at once while each compile ran. The same
// binary and input give the same figures.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "graph_workloads.hpp"
#include "hxrt/hxrt.hpp"

namespace {

std::atomic<size_t> g_held{0};
std::atomic<size_t> g_peak{0};

void* counted(void* block) {
  if (block == nullptr) throw std::bad_alloc();
  const size_t held = g_held.fetch_add(malloc_usable_size(block)) + malloc_usable_size(block);
  size_t peak = g_peak.load();
  while (held > peak && !g_peak.compare_exchange_weak(peak, held)) {
  }
  return block;
}

void uncounted(void* block) {
  if (block == nullptr) return;
  g_held.fetch_sub(malloc_usable_size(block));
  std::free(block);
}

size_t held_bytes() { return g_held.load(); }
// The most held since the last reset, which starts it again from what is held now.
size_t peak_bytes() { return g_peak.load(); }
void reset_peak() { g_peak.store(g_held.load()); }

void report(const char* stage, double bytes, int nodes) {
  std::printf("  %-46s %8.0f bytes per node\n", stage, bytes / nodes);
}

}  // namespace

void* operator new(size_t bytes) { return counted(std::malloc(bytes == 0 ? 1 : bytes)); }
void* operator new[](size_t bytes) { return counted(std::malloc(bytes == 0 ? 1 : bytes)); }
void* operator new(size_t bytes, std::align_val_t alignment) {
  return counted(std::aligned_alloc(static_cast<size_t>(alignment),
                                    (bytes + static_cast<size_t>(alignment) - 1) &
                                        ~(static_cast<size_t>(alignment) - 1)));
}
void* operator new[](size_t bytes, std::align_val_t alignment) {
  return operator new(bytes, alignment);
}
void operator delete(void* block) noexcept { uncounted(block); }
void operator delete[](void* block) noexcept { uncounted(block); }
void operator delete(void* block, size_t) noexcept { uncounted(block); }
void operator delete[](void* block, size_t) noexcept { uncounted(block); }
void operator delete(void* block, std::align_val_t) noexcept { uncounted(block); }
void operator delete[](void* block, std::align_val_t) noexcept { uncounted(block); }
void operator delete(void* block, size_t, std::align_val_t) noexcept { uncounted(block); }
void operator delete[](void* block, size_t, std::align_val_t) noexcept { uncounted(block); }

int main(int argc, char** argv) {
  const int nodes = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const double limit = argc > 2 ? std::atof(argv[2]) : 0;
  if (nodes <= 0 || argc > 3) {
    std::fprintf(stderr, "usage: hxrt_graph_memory [nodes > 0 [limit in bytes per node]]\n");
    return 2;
  }
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_BENCH_PLUGIN_DIR) + "/libhx_cpu.so"};
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  runtime.initialize();
  const size_t start = held_bytes();
  const hxrt_bench::Workload chain = hxrt_bench::relu_chain(runtime, nodes);
  const size_t built = held_bytes();

  reset_peak();
  const hxrt::Executable first = runtime.compile(chain.graph, {chain.fetch});
  const size_t compiled_peak = peak_bytes() - built;
  const size_t compiled = held_bytes();

  hxrt::CompileOptions again;
  again.placement = first.placement_map();
  const size_t with_placement = held_bytes();
  reset_peak();
  const hxrt::Executable second = runtime.compile(chain.graph, {chain.fetch}, again);
  const size_t recompiled_peak = peak_bytes() - with_placement;
  const size_t recompiled = held_bytes();

  std::printf("A chain of %d Relu nodes on CPU:0:\n", nodes);
  report("the graph (GraphBuilder)", static_cast<double>(built - start), nodes);
  report("the executable compile keeps", static_cast<double>(compiled - built), nodes);
  report("the most compile held at once", static_cast<double>(compiled_peak), nodes);
  report("the placement map given back", static_cast<double>(with_placement - compiled), nodes);
  report("a second executable, compiled with it", static_cast<double>(recompiled - with_placement),
         nodes);
  report("the most that compile held at once", static_cast<double>(recompiled_peak), nodes);
  // Run once each, so that both executables are known to work.
  const hxrt::Tensor x = chain.feeds[0];
  if (first.run({{"x", x}})[0].to_vector<float>() != second.run({{"x", x}})[0].to_vector<float>()) {
    std::printf("the two executables disagree\n");
    return 1;
  }
  const double worst = static_cast<double>(std::max({compiled - built, compiled_peak,
                                                     recompiled - with_placement,
                                                     recompiled_peak})) / nodes;
  if (limit > 0 && worst > limit) {
    std::printf("FAILED: a compile takes %.0f bytes per node, more than the limit of %.0f\n",
                worst, limit);
    return 1;
  }
  return 0;
}

// hxrt_graph_loop: the executor-overhead graphs of hxrt_graph_bench (10,000 Relus of one float
// in a chain, and side by side into one AddN; 100 2x2 MatMuls in a chain), each run in a loop
// of its own function, and the same chains called eagerly, for bench/count_graph_instructions.sh to count under
// callgrind. The runtime has one inter-op thread, so the calling thread runs every node and
// callgrind, which counts per thread from the function it toggles on, sees all of them.
//
//   hxrt_graph_loop [runs]   (default 10; one run of each loop warms caches first)
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "graph_runtime.hpp"
#include "graph_workloads.hpp"
#include "hxrt/hxrt.hpp"

// Not inlined, so that callgrind can collect exactly these calls by function name.
__attribute__((noinline)) void hxrt_graph_relu_chain(const hxrt::Executable& exe,
                                                     const std::vector<hxrt::Tensor>& feeds,
                                                     long runs) {
  for (long i = 0; i < runs; ++i) exe.run(feeds);
}

__attribute__((noinline)) void hxrt_graph_relu_wide(const hxrt::Executable& exe,
                                                    const std::vector<hxrt::Tensor>& feeds,
                                                    long runs) {
  for (long i = 0; i < runs; ++i) exe.run(feeds);
}

__attribute__((noinline)) void hxrt_eager_relu_chain(hxrt::Runtime& rt, const hxrt::Tensor& x,
                                                     long runs) {
  for (long i = 0; i < runs; ++i) {
    hxrt::Tensor last = x;
    for (int node = 0; node < hxrt_bench::kOverheadNodes; ++node) {
      last = rt.execute("Relu", {last}, {}, "/CPU:0");
    }
  }
}

__attribute__((noinline)) void hxrt_graph_matmul_chain(const hxrt::Executable& exe,
                                                       const std::vector<hxrt::Tensor>& feeds,
                                                       long runs) {
  for (long i = 0; i < runs; ++i) exe.run(feeds);
}

__attribute__((noinline)) void hxrt_eager_matmul_chain(hxrt::Runtime& rt,
                                                       const std::vector<hxrt::Tensor>& feeds,
                                                       long runs) {
  for (long i = 0; i < runs; ++i) {
    hxrt::Tensor last = feeds[0];
    for (int node = 0; node < hxrt_bench::kMatMulChainNodes; ++node) {
      last = rt.execute("MatMul", {last, feeds[1]}, {}, "/CPU:0");
    }
  }
}

int main(int argc, char** argv) {
  const long runs = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 10;
  if (runs <= 0) {
    std::fprintf(stderr, "usage: %s [runs > 0]\n", argv[0]);
    return 2;
  }
  try {
    hxrt::RuntimeOptions options;
    options.log_level = hxrt::LogLevel::kWarning;
    hxrt::Runtime rt = hxrt_bench::runtime_with_threads({1, 0}, options);
    const hxrt_bench::Workload chain = hxrt_bench::relu_chain(rt, hxrt_bench::kOverheadNodes);
    const hxrt_bench::Workload wide = hxrt_bench::relu_wide(rt, hxrt_bench::kOverheadNodes);
    const hxrt::Executable chain_exe = rt.compile(chain.graph, {chain.fetch});
    const hxrt::Executable wide_exe = rt.compile(wide.graph, {wide.fetch});
    const hxrt_bench::Workload matmuls =
        hxrt_bench::matmul_2x2_chain(rt, hxrt_bench::kMatMulChainNodes);
    const hxrt::Executable matmul_exe = rt.compile(matmuls.graph, {matmuls.fetch});
    hxrt_graph_relu_chain(chain_exe, chain.feeds, 1);
    hxrt_graph_relu_wide(wide_exe, wide.feeds, 1);
    hxrt_eager_relu_chain(rt, chain.feeds[0], 1);
    hxrt_graph_matmul_chain(matmul_exe, matmuls.feeds, 1);
    hxrt_eager_matmul_chain(rt, matmuls.feeds, 1);
    hxrt_graph_relu_chain(chain_exe, chain.feeds, runs);
    hxrt_graph_relu_wide(wide_exe, wide.feeds, runs);
    hxrt_eager_relu_chain(rt, chain.feeds[0], runs);
    // A run of the short chain is cheap: many, so that the counts are of the steady state.
    hxrt_graph_matmul_chain(matmul_exe, matmuls.feeds, 100 * runs);
    hxrt_eager_matmul_chain(rt, matmuls.feeds, 100 * runs);
    std::printf("%ld runs each\n", runs);
  } catch (const std::exception& error) {  // hxrt::Error, or the config file's
    std::fprintf(stderr, "hxrt_graph_loop: %s\n", error.what());
    return 1;
  }
  return 0;
}

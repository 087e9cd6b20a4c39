// hxrt_gemm_bench: the CPU plugin's GEMM paths and MatMul across small sizes
// (small_gemm_bench.hpp). A program of its own rather than part of hxrt_bench, whose default
// run and ratio table stay as they are.
//
//   hxrt_gemm_bench [--benchmark_filter=GemmPath/|MatMulSizes/] [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include "bench_run.hpp"
#include "hxrt/hxrt.hpp"
#include "small_gemm_bench.hpp"

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv)) return 2;
  return hxrt_bench::run_program("hxrt_gemm_bench", [&] {
    hxrt::Runtime runtime = hxrt::Runtime::create();
    hxrt_bench::register_gemm_path_benchmarks();
    hxrt_bench::register_matmul_size_benchmarks(runtime);
    benchmark::RunSpecifiedBenchmarks();
  });
}

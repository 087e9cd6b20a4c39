// hxrt_bench: runs the benchmarks, then prints how the runtime compares with the raw library.
#include <benchmark/benchmark.h>

#include <iostream>

#include "allocator_bench.hpp"
#include "bench_run.hpp"
#include "hxrt/hxrt.hpp"
#include "matmul_bench.hpp"

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv)) return 2;

  try {
    hxrt::Runtime runtime = hxrt::Runtime::create();
    hxrt_bench::register_matmul_benchmarks(runtime);
    hxrt_bench::register_allocator_benchmarks();
    hxrt_bench::run_and_report(
        // Issue 16: a tiny op within 1.3x of the direct BLAS call (and at most 100 ns).
        {{"2x2 MatMul time", hxrt_bench::kTinyRuntime, hxrt_bench::kTinyDirect, false, 1.3},
         {"2x2 MatMul time, Op handle", hxrt_bench::kTinyRuntimeOp, hxrt_bench::kTinyDirect,
          false, 1.3},
         {"2048 MatMul throughput", hxrt_bench::kLargeRuntime, hxrt_bench::kLargeDirect, true,
          0.97},
         // The allocator hit must beat malloc/free of the same size (and stay near 30 ns).
         {"1 KiB allocator hit time", hxrt_bench::kHitBfc1K, hxrt_bench::kHitMalloc1K, false,
          1.0},
         {"64 KiB allocator hit time", hxrt_bench::kHitBfc64K, hxrt_bench::kHitMalloc64K, false,
          1.0},
         {"16 MiB allocator hit time", hxrt_bench::kHitBfc16M, hxrt_bench::kHitMalloc16M,
          false, 1.0}},
        // What the allocator holds at most, over what is in use at most, on a mixed workload.
        {{"mixed-workload reserve", hxrt_bench::kFragmentation, hxrt_bench::kReservedPerUse,
          1.15}});
  } catch (const hxrt::Error& error) {
    std::cerr << "hxrt_bench: " << error.what() << '\n';
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}

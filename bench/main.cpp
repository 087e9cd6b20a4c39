// hxrt_bench: runs the benchmarks, then prints how the runtime compares with the raw library.
// (The allocator's benchmarks are hxrt_allocator_bench: allocator_main.cpp.)
#include "bench_run.hpp"
#include "hxrt/hxrt.hpp"
#include "matmul_bench.hpp"

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv)) return 2;

  return hxrt_bench::run_program("hxrt_bench", [&] {
    hxrt::Runtime runtime = hxrt::Runtime::create();
    hxrt_bench::register_matmul_benchmarks(runtime);
    hxrt_bench::run_and_report(
        // Issue 16: a tiny op within 1.3x of the direct BLAS call (and at most 100 ns).
        {{"2x2 MatMul time", hxrt_bench::kTinyRuntime, hxrt_bench::kTinyDirect, false, 1.3},
         {"2x2 MatMul time, Op handle", hxrt_bench::kTinyRuntimeOp, hxrt_bench::kTinyDirect,
          false, 1.3},
         {"2048 MatMul throughput", hxrt_bench::kLargeRuntime, hxrt_bench::kLargeDirect, true,
          0.97}});
  });
}

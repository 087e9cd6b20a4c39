// hxrt_bench: runs the benchmarks, then prints how the runtime compares with the raw library.
// (The allocator's benchmarks are hxrt_allocator_bench: allocator_main.cpp.)
#include <cstdio>
#include <cstdlib>

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
    // OpenBLAS's own override holds for the direct calls too, and the CPU plugin's
    // blas_core "auto" leaves it: both sides then run that core, which may not be the fastest
    // the CPU runs (a machine image that sets Haswell on an AVX-512 CPU makes the direct 2x2
    // SGEMM 61 ns rather than 12.8).
    if (const char* core = std::getenv("OPENBLAS_CORETYPE")) {
      std::printf("\nNote: OPENBLAS_CORETYPE=%s is set, so both sides run that OpenBLAS core; "
                  "unset it to compare with the fastest core this CPU runs.\n",
                  core);
    }
  });
}

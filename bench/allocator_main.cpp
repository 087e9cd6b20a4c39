// hxrt_allocator_bench: the core's caching allocator against malloc/free, then how it compares.
// The allocator is a class of the core's inside, so this program links the core's objects
// statically (hxrt_internal); hxrt_bench times the runtime as a host app links it.
#include "allocator_bench.hpp"
#include "bench_run.hpp"

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv)) return 2;

  return hxrt_bench::run_program("hxrt_allocator_bench", [&] {
    hxrt_bench::register_allocator_benchmarks();
    hxrt_bench::run_and_report(
        // The allocator hit must beat malloc/free of the same size (and stay near 30 ns).
        {{"1 KiB allocator hit time", hxrt_bench::kHitBfc1K, hxrt_bench::kHitMalloc1K, false,
          1.0},
         {"64 KiB allocator hit time", hxrt_bench::kHitBfc64K, hxrt_bench::kHitMalloc64K, false,
          1.0},
         {"16 MiB allocator hit time", hxrt_bench::kHitBfc16M, hxrt_bench::kHitMalloc16M,
          false, 1.0}},
        // What the allocator holds at most, over what is in use at most, on a mixed workload.
        {{"mixed-workload reserve", hxrt_bench::kFragmentation, hxrt_bench::kReservedPerUse,
          1.15}});
  });
}

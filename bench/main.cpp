// hxrt_bench: runs the benchmarks, then prints how the runtime compares with the raw library.
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <iostream>
#include <string>
#include <vector>

#include "allocator_bench.hpp"
#include "hxrt/hxrt.hpp"
#include "matmul_bench.hpp"
#include "ratio_report.hpp"

namespace {

// Steadier ratios on a small, busy machine: medians of interleaved repetitions. They come
// before the user's flags on the command line, so a flag the user gives wins.
const char* const kDefaultFlags[] = {
    "--benchmark_repetitions=3",
    "--benchmark_enable_random_interleaving=true",
    "--benchmark_display_aggregates_only=true",
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> flags(kDefaultFlags, kDefaultFlags + std::size(kDefaultFlags));
  std::vector<char*> args = {argv[0]};
  for (std::string& flag : flags) args.push_back(flag.data());
  args.insert(args.end(), argv + 1, argv + argc);
  int arg_count = static_cast<int>(args.size());
  benchmark::Initialize(&arg_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(arg_count, args.data())) return 2;

  try {
    hxrt::Runtime runtime = hxrt::Runtime::create();
    hxrt_bench::register_matmul_benchmarks(runtime);
    hxrt_bench::register_allocator_benchmarks();

    // Colour only on a terminal, so that a redirected run stays plain text.
    hxrt_bench::RecordingReporter reporter(isatty(STDOUT_FILENO) != 0
                                               ? benchmark::ConsoleReporter::OO_ColorTabular
                                               : benchmark::ConsoleReporter::OO_Tabular);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    hxrt_bench::print_ratio_table(
        std::cout, reporter,
        {{"2x2 MatMul time", hxrt_bench::kTinyRuntime, hxrt_bench::kTinyDirect, false, 10.0},
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

// hxrt_async_bench: asynchronous execution on the sim plugin's timed GPUs, configured by a
// JSON file (--config=FILE, default bench/async_bench.json), then the budgets: the replication
// ratio and the copy/compute overlap against the sim's model.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstring>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "async_bench.hpp"
#include "async_config.hpp"
#include "bench_run.hpp"
#include "hxrt/hxrt.hpp"

namespace {

constexpr char kConfigFlag[] = "--config=";
constexpr double kReplicationTarget = 1.15;  // N devices' time over one device's, at most
constexpr double kOverlapTarget = 0.85;      // of the overlap the model allows, at least

// The value of --config= (taken out of argv, which Google Benchmark reads next), else the
// file of the source tree.
std::string take_config_flag(int& argc, char** argv) {
  std::string path = HXRT_ASYNC_BENCH_CONFIG;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kConfigFlag, sizeof kConfigFlag - 1) == 0) {
      path = argv[i] + sizeof kConfigFlag - 1;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return path;
}

void print_overlap(std::ostream& out, const hxrt_bench::RecordingReporter& reporter,
                   const hxrt_bench::AsyncConfig& config) {
  out << "\nOverlap of upload-then-MatMul chains over " << config.overlap.devices
      << " devices, against the sim's model:\n"
      << "                            measured  target   result\n";
  const std::optional<double> overlap =
      reporter.counter(hxrt_bench::kOverlap, hxrt_bench::kOverlapCounter);
  const std::optional<double> serial = reporter.counter(hxrt_bench::kOverlap, "serial_ms");
  const std::optional<double> ideal = reporter.counter(hxrt_bench::kOverlap, "ideal_ms");
  const std::optional<double> actual = reporter.seconds_per_iteration(hxrt_bench::kOverlap);
  if (!overlap || !serial || !ideal || !actual) {
    out << "  copy/compute overlap             -  >= 85%   not run\n";
    return;
  }
  std::ostringstream measured;
  measured << std::fixed << std::setprecision(1) << 100 * *overlap << '%';
  out << std::fixed << std::setprecision(1) << "  copy/compute overlap    " << std::right
      << std::setw(10) << measured.str() << "  >= " << std::setprecision(0) << 100 * kOverlapTarget
      << "%   " << std::left << (*overlap >= kOverlapTarget ? "met" : "MISSED") << '\n'
      << std::setprecision(1) << "  (model: serial " << *serial << " ms, ideal " << *ideal
      << " ms; measured " << 1e3 * *actual << " ms per iteration)\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string config_path = take_config_flag(argc, argv);
  if (!hxrt_bench::initialize(argc, argv)) return 2;
  return hxrt_bench::run_program("hxrt_async_bench", [&] {
    const hxrt_bench::AsyncConfig config = hxrt_bench::read_async_config(config_path);
    std::cout << "config: " << config.path << "\nsim options: " << config.sim_options << '\n';
    hxrt::RuntimeOptions options;
    options.plugin_options["sim"] = config.sim_options;
    hxrt::Runtime runtime = hxrt::Runtime::create(options);
    hxrt_bench::register_async_benchmarks(runtime, config);

    hxrt_bench::RecordingReporter reporter(isatty(STDOUT_FILENO) != 0
                                               ? benchmark::ConsoleReporter::OO_ColorTabular
                                               : benchmark::ConsoleReporter::OO_Tabular);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    hxrt_bench::print_ratio_table(std::cout, reporter,
                                  {{"replication time", hxrt_bench::kReplicationMany,
                                    hxrt_bench::kReplicationOne, false, kReplicationTarget}});
    print_overlap(std::cout, reporter, config);
  });
}

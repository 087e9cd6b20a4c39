#include "compare_placers.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string_view>

namespace dynamic_sample {
namespace {

// The first runs make each device's instances and fill its allocator's caches; the dynamic
// placer's cost model also measures its CPU kernels and copies in them.
constexpr int kWarmUpRuns = 2;
constexpr int kTimedRuns = 5;

std::string_view program_name(int argc, char** argv) {
  const std::string_view path = argc > 0 ? argv[0] : "dynamic sample";
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Canonical name -> "GPU:3", as the reasons name devices.
std::map<std::string, std::string> short_names(const hxrt::Runtime& rt) {
  std::map<std::string, std::string> names;
  for (const hxrt::DeviceInfo& info : rt.devices()) names[info.name] = info.short_name;
  return names;
}

// The median wall time of a run, in milliseconds, and the fetches of the last run.
double median_run_ms(const hxrt::Executable& exe, const SampleGraph& sample,
                     std::vector<hxrt::Tensor>& fetched) {
  for (int run = 0; run < kWarmUpRuns; ++run) exe.run(sample.feeds);
  std::vector<double> times;
  for (int run = 0; run < kTimedRuns; ++run) {
    const auto start = std::chrono::steady_clock::now();
    fetched = exe.run(sample.feeds);  // returns once every node's work has completed
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Compiles `sample` under `placer`, prints its placement and run time; returns the time.
double show(hxrt::Runtime& rt, const SampleGraph& sample, hxrt::GraphPlacer placer,
            std::vector<hxrt::Tensor>& fetched) {
  hxrt::CompileOptions options;
  options.placer = placer;
  const hxrt::Executable exe = rt.compile(sample.graph, sample.fetches, options);
  std::cout << (placer == hxrt::GraphPlacer::kSimple ? "simple" : "dynamic") << " placer:\n";
  const std::map<std::string, std::string> names = short_names(rt);
  for (const hxrt::NodePlacement& node : exe.placement()) {
    std::cout << "  " << node.node << " (" << node.op << "): " << names.at(node.device) << '\n';
    if (!node.reason.empty()) std::cout << "    " << node.reason << '\n';
  }
  const double ms = median_run_ms(exe, sample, fetched);
  std::cout << "  run: " << std::fixed << std::setprecision(3) << ms << " ms (median of "
            << kTimedRuns << " runs)\n";
  return ms;
}

}  // namespace

std::optional<hxrt::RuntimeOptions> options_from_command_line(int argc, char** argv,
                                                              const char* config_hint) {
  const char* config_from_environment = std::getenv("HXRT_CONFIG");
  const bool has_config_from_environment =
      config_from_environment != nullptr && *config_from_environment != '\0';
  if (argc > 2 || (argc < 2 && !has_config_from_environment)) {
    std::cerr << "usage: " << program_name(argc, argv) << " CONFIG_FILE (or set HXRT_CONFIG)\n"
              << "  " << config_hint << " sets up its simulated devices\n";
    return std::nullopt;
  }
  hxrt::RuntimeOptions options;
  // Without an argument the runtime reads $HXRT_CONFIG itself.
  if (argc == 2) options.config_path = argv[1];
  return options;
}

int compare_placers(hxrt::Runtime& rt, const SampleGraph& sample) {
  std::vector<hxrt::Tensor> simple_results;
  std::vector<hxrt::Tensor> dynamic_results;
  const double simple = show(rt, sample, hxrt::GraphPlacer::kSimple, simple_results);
  const double dynamic = show(rt, sample, hxrt::GraphPlacer::kDynamic, dynamic_results);
  std::cout << "dynamic / simple run time: " << std::defaultfloat << std::setprecision(3)
            << dynamic / simple << "x\n";
  for (size_t i = 0; i < simple_results.size(); ++i) {
    if (simple_results[i].to_vector<float>() != dynamic_results[i].to_vector<float>()) {
      std::cout << "fetch " << i << " differs between the placers\n";
      return 1;
    }
  }
  std::cout << "both placers give the same results\n";
  return 0;
}

}  // namespace dynamic_sample

#include "sim_test_support.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

namespace sim_test {
namespace {

bool loaded(const hxrt::Runtime& rt, const std::string& name) {
  return std::any_of(rt.load_report().begin(), rt.load_report().end(),
                     [&](const hxrt::PluginReport& r) { return r.loaded && r.name == name; });
}

std::string describe_report(const hxrt::Runtime& rt) {
  std::string text;
  for (const hxrt::PluginReport& report : rt.load_report()) {
    text += report.path + ": " + (report.loaded ? "loaded" : report.reason) + "\n";
  }
  return text;
}

hxrt::Runtime make_four_gpus() {
  hxrt::Runtime rt = make_runtime(kFourGpus);
  if (!loaded(rt, "cpu") || !loaded(rt, "sim")) {
    FAIL("the CPU and sim plugins did not both load:\n" << describe_report(rt));
  }
  return rt;
}

}  // namespace

std::string cpu_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"; }
std::string sim_plugin_path() { return std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"; }

hxrt::Runtime make_runtime(const std::string& sim_options) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {cpu_plugin_path(), sim_plugin_path()};
  if (!sim_options.empty()) options.plugin_options = {{"sim", sim_options}};
  return hxrt::Runtime::create(options);
}

hxrt::Runtime& four_gpus() {
  static hxrt::Runtime instance = make_four_gpus();
  return instance;
}

const hxrt::PluginReport& sim_report(const hxrt::Runtime& rt) {
  const auto& report = rt.load_report();
  const auto sim = std::find_if(report.begin(), report.end(), [](const hxrt::PluginReport& r) {
    return r.path == sim_plugin_path();
  });
  if (sim == report.end()) FAIL("no load report for " << sim_plugin_path());
  return *sim;
}

std::vector<float> random_floats(size_t count, uint32_t seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> distribution(-10, 10);
  std::vector<float> values(count);
  for (float& value : values) value = distribution(engine);
  return values;
}

TransferCounts::TransferCounts() {
  library_ = dlopen(sim_plugin_path().c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (library_ == nullptr) FAIL("the sim plugin is not loaded in this process");
  read_ =
      reinterpret_cast<hx_sim_transfer_counts_fn>(dlsym(library_, HX_SIM_TRANSFER_COUNTS_SYMBOL));
  reset_ = reinterpret_cast<hx_sim_reset_transfer_counts_fn>(
      dlsym(library_, HX_SIM_RESET_TRANSFER_COUNTS_SYMBOL));
  if (read_ == nullptr || reset_ == nullptr) {
    dlclose(library_);
    FAIL("the sim plugin does not export its transfer counters");
  }
}

TransferCounts::~TransferCounts() { dlclose(library_); }

hx_sim_transfer_counts_t TransferCounts::of(int32_t ordinal) const {
  hx_sim_transfer_counts_t counts{};
  counts.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  REQUIRE(read_(ordinal, &counts) == 0);
  return counts;
}

void TransferCounts::reset() const { reset_(); }

}  // namespace sim_test

#include "async_config.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace hxrt_bench {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

// sim.<key> as a figure of the model: absent is 0, as for the plugin.
double figure(const std::string& path, const json& sim, const char* key) {
  if (!sim.contains(key)) return 0;
  if (!sim[key].is_number() || sim[key].get<double>() < 0) {
    fail(path, std::string("sim.") + key + " must be a number >= 0, got " + sim[key].dump());
  }
  return sim[key].get<double>();
}

int64_t positive(const std::string& path, const json& section, const std::string& name,
                 const char* key) {
  if (!section.contains(key) || !section[key].is_number_integer() ||
      section[key].get<int64_t>() < 1) {
    fail(path, name + "." + key + " must be an integer >= 1" +
                   (section.contains(key) ? ", got " + section[key].dump() : " (missing)"));
  }
  return section[key].get<int64_t>();
}

Workload workload(const std::string& path, const json& root, const std::string& name, bool chained,
                  int64_t sim_devices) {
  if (!root.contains(name) || !root[name].is_object()) {
    fail(path, "expected an object \"" + name + "\"");
  }
  const json& section = root[name];
  Workload out;
  out.devices = static_cast<int>(positive(path, section, name, "devices"));
  if (out.devices > sim_devices) {
    fail(path, name + ".devices is " + std::to_string(out.devices) + " but sim.device_count is " +
                   std::to_string(sim_devices) + ": raise sim.device_count or lower devices");
  }
  out.matmul_size = positive(path, section, name, "matmul_size");
  if (chained) out.chain_length = static_cast<int>(positive(path, section, name, "chain_length"));
  return out;
}

}  // namespace

AsyncConfig read_async_config(const std::string& path) {
  std::ifstream file(path);
  if (!file) fail(path, "cannot be read; pass --config=FILE (default bench/async_bench.json)");
  json root;
  try {
    root = json::parse(file);
  } catch (const json::parse_error& error) {
    fail(path, std::string("not valid JSON: ") + error.what());
  }
  if (!root.is_object() || !root.contains("sim") || !root["sim"].is_object()) {
    fail(path, "expected an object with a \"sim\" object (the sim plugin's options)");
  }
  const json& sim = root["sim"];
  // The ideal is the model's time without noise: a random delay would make it a lower bound
  // that no run can reach.
  if (figure(path, sim, "random_delay_us") > 0) {
    fail(path, "sim.random_delay_us must be 0 here: the ideal is computed without it");
  }
  AsyncConfig config;
  config.path = path;
  config.sim_options = sim.dump();
  hxsim::PerfOptions& model = config.model;
  model.matmul_gflops = figure(path, sim, "matmul_gflops");
  model.elementwise_gbps = figure(path, sim, "elementwise_gbps");
  model.launch_latency_us = figure(path, sim, "launch_latency_us");
  model.h2d = {figure(path, sim, "h2d_gbps"), figure(path, sim, "h2d_latency_us")};
  model.d2h = {figure(path, sim, "d2h_gbps"), figure(path, sim, "d2h_latency_us")};
  model.d2d = {figure(path, sim, "d2d_gbps"), figure(path, sim, "d2d_latency_us")};
  const int64_t sim_devices =
      sim.contains("device_count") && sim["device_count"].is_number_integer()
          ? sim["device_count"].get<int64_t>()
          : 0;
  config.replication = workload(path, root, "replication", false, sim_devices);
  config.overlap = workload(path, root, "overlap", true, sim_devices);
  return config;
}

}  // namespace hxrt_bench

// Reading a written trace back: the file as JSON, and its events picked by category and name.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hxrt/runtime.hpp"

namespace trace_test {

using nlohmann::json;

// The CPU plugin and two sim devices of type GPU.
inline hxrt::RuntimeOptions cpu_and_two_sim_gpus() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options["sim"] = R"({"device_type": "GPU", "device_count": 2, "memory_mb": 8})";
  return options;
}

inline json read_trace(const std::string& path) {
  std::ifstream file(path);
  REQUIRE(file.good());
  return json::parse(file);  // throws, failing the test, on anything but valid JSON
}

// The events of category `cat` (and name `name`, when given).
inline std::vector<json> events(const json& trace, const std::string& cat,
                                const std::string& name = {}) {
  std::vector<json> out;
  for (const json& event : trace.at("traceEvents")) {
    if (event.value("cat", "") != cat) continue;
    if (!name.empty() && event.value("name", "") != name) continue;
    out.push_back(event);
  }
  return out;
}

// The name a metadata event gives process `pid` ("process_name").
inline std::string process_name(const json& trace, int pid) {
  for (const json& event : trace.at("traceEvents")) {
    if (event.value("ph", "") == "M" && event.value("name", "") == "process_name" &&
        event.value("pid", -1) == pid) {
      return event.at("args").at("name");
    }
  }
  return {};
}

}  // namespace trace_test

// The trace HXRT_TRACE (or trace.path) asks for: started by Runtime::create, written when
// that runtime goes, shown by the effective config, and refused at create when unwritable.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "../config/scoped_environment.hpp"
#include "error_from.hpp"
#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;

namespace {

std::string setting(const hxrt::Runtime& rt, const std::string& path, std::string* source) {
  for (const hxrt::ConfigSetting& entry : rt.effective_config()) {
    if (entry.path != path) continue;
    if (source) *source = entry.source;
    return entry.value;
  }
  FAIL("no setting " << path);
  return {};
}

}  // namespace

TEST_CASE("HXRT_TRACE starts a trace at create, written when the runtime is destroyed") {
  hxrt_test::TempDir dir("hxrt_trace_env");
  const std::string path = (dir.path() / "env.json").string();
  config_test::ScopedEnvironment environment;
  environment.set("HXRT_TRACE", path);
  {
    hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
    std::string source;
    CHECK(setting(rt, "/trace/path", &source) == json(path).dump());
    CHECK(source == "environment HXRT_TRACE");
    CHECK(setting(rt, "/trace/max_events", &source) == "1000000");
    CHECK(source == "default");
    hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
    rt.execute("MatMul", {a, a}, {}, "CPU:0");
  }
  const json trace = trace_test::read_trace(path);
  const std::vector<json> ops = events(trace, "op", "MatMul");
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].at("args").at("inputs") == json::array({"float32[2, 2]", "float32[2, 2]"}));
  CHECK(events(trace, "copy", "copy host to device").size() == 1);
  CHECK_FALSE(events(trace, "memory", "allocate").empty());
}

TEST_CASE("an unwritable HXRT_TRACE fails create, naming the variable") {
  config_test::ScopedEnvironment environment;
  environment.set("HXRT_TRACE", "/nonexistent-folder/env.json");
  const auto error =
      hxrt_test::error_from([] { hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus()); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("environment HXRT_TRACE: trace.path:") &&
                                Catch::Contains("cannot open '/nonexistent-folder/env.json'"));
}

TEST_CASE("without HXRT_TRACE or trace.path nothing is traced and the setting is null") {
  config_test::ScopedEnvironment environment;
  environment.unset("HXRT_TRACE");
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  std::string source;
  CHECK(setting(rt, "/trace/path", &source) == "null");
  CHECK(source == "default");
  CHECK(rt.stop_trace().empty());
}

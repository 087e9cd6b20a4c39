// trace.max_events: a trace keeps at most that many events and says how many it dropped.
#include <catch2/catch.hpp>

#include <fstream>

#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::json;

TEST_CASE("events beyond trace.max_events are dropped, and the trace says how many") {
  hxrt_test::TempDir dir("hxrt_trace_cap");
  const std::string config = (dir.path() / "hxrt.json").string();
  std::ofstream(config) << R"({"trace": {"max_events": 5}})";
  const std::string path = (dir.path() / "capped.json").string();
  hxrt::RuntimeOptions options = trace_test::cpu_and_two_sim_gpus();
  options.config_path = config;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  hxrt::Tensor a = rt.tensor<float>({2}, {1, 2}, "CPU:0");
  rt.start_trace(path);
  for (int i = 0; i < 10; ++i) rt.execute("Add", {a, a}, {}, "CPU:0");
  rt.stop_trace();
  const json trace = trace_test::read_trace(path);
  size_t kept = 0;
  for (const json& event : trace.at("traceEvents")) {
    const std::string ph = event.at("ph");
    if (ph == "X" || (ph == "i" && event.at("cat") != "trace")) ++kept;
  }
  CHECK(kept == 5);
  const uint64_t dropped = trace.at("otherData").at("dropped_events");
  CHECK(dropped > 0);
  CHECK(trace.at("otherData").at("max_events") == 5);
  const std::vector<json> notes = trace_test::events(trace, "trace");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].at("name") == std::to_string(dropped) +
                                   " events dropped: the trace keeps 5 (raise "
                                   "trace.max_events in the config)");
}

TEST_CASE("trace.max_events out of range is a config error naming the path") {
  hxrt_test::TempDir dir("hxrt_trace_bad_cap");
  const std::string config = (dir.path() / "hxrt.json").string();
  std::ofstream(config) << R"({"trace": {"max_events": 0}})";
  hxrt::RuntimeOptions options = trace_test::cpu_and_two_sim_gpus();
  options.config_path = config;
  CHECK_THROWS_WITH(hxrt::Runtime::create(options),
                    Catch::Contains("/trace/max_events") &&
                        Catch::Contains("expected an integer from 1 to 100000000"));
}

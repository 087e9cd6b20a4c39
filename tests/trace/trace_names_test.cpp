// Names that are not UTF-8 (a graph node may be called anything) are written as valid JSON,
// their stray bytes as U+FFFD, by stop_trace and by the runtime that goes; the tracer goes on.
#include <catch2/catch.hpp>

#include <hxrt/hxrt.hpp>

#include "../config/scoped_environment.hpp"
#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;

namespace {

const std::string kLatin1Name = "caf\xE9";              // "café" in Latin-1: not UTF-8
const std::string kWrittenName = "caf\xEF\xBF\xBD";     // what the trace says: "caf" U+FFFD

// A graph of one Relu on the CPU, its node named `name`.
hxrt::Executable relu_named(hxrt::Runtime& rt, const std::string& name) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {2});
  const hxrt::NodeOutput y = builder.add(name, "Relu", {x}, {}, "/CPU:0");
  return rt.compile(builder.graph(), {y});
}

void check_node_written(const json& trace) {
  const std::vector<json> ops = events(trace, "op", kWrittenName + " (Relu)");
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].at("args").at("node") == kWrittenName);
  CHECK(events(trace, "kernel", kWrittenName + " (Relu)").size() == 1);
}

}  // namespace

TEST_CASE("a node name that is not UTF-8 is written validly by stop_trace, which stays usable") {
  hxrt_test::TempDir dir("hxrt_trace_latin1");
  const std::string path = (dir.path() / "trace.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  const hxrt::Executable exe = relu_named(rt, kLatin1Name);
  const hxrt::Tensor x = rt.tensor<float>({2}, {-1, 2}, "CPU:0");
  rt.start_trace(path);
  exe.run({{"x", x}});
  std::string stopped;
  REQUIRE_NOTHROW(stopped = rt.stop_trace());
  CHECK(stopped == path);
  check_node_written(trace_test::read_trace(path));

  const std::string again = (dir.path() / "again.json").string();
  rt.start_trace(again);
  exe.run({{"x", x}});
  CHECK(rt.stop_trace() == again);
  check_node_written(trace_test::read_trace(again));
}

TEST_CASE("a node name that is not UTF-8 is written validly when the tracing runtime goes") {
  hxrt_test::TempDir dir("hxrt_trace_latin1_env");
  const std::string path = (dir.path() / "env.json").string();
  config_test::ScopedEnvironment environment;
  environment.set("HXRT_TRACE", path);
  {
    hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
    relu_named(rt, kLatin1Name).run({{"x", rt.tensor<float>({2}, {-1, 2}, "CPU:0")}});
  }
  check_node_written(trace_test::read_trace(path));
}

// The JSON texts a program keeps between runs, a placement (placement_to_json and back) and a
// cost model (cost_model_json and back, directly or through CompileOptions), read as the config
// file is: every mistake an hxrt::Error with its JSON pointer, never an exception of the JSON
// library, and a key given twice refused.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "error_from.hpp"
#include "graph_support.hpp"

using graph_test::cpu_and_gpus;
using hxrt_test::error_from;

namespace {

// The message of the hxrt::Error `body` throws; fails the test when it throws none (another
// exception type fails it too, as Catch reports an unexpected exception).
template <class Body>
std::string refusal(Body body) {
  const auto error = error_from(body);
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  return error->what();
}

std::string cpu0() { return "/job:localhost/replica:0/task:0/device:CPU:0"; }

std::string saved_model(const std::string& speed_fields) {
  return R"({"format": "hxrt cost model", "version": 1, "devices": {")" + cpu0() +
         R"(": {"speed": {)" + speed_fields + "}}}}";
}

}  // namespace

TEST_CASE("placement_from_json refuses what the config file refuses, as hxrt::Error", "[graph]") {
  CHECK_THAT(refusal([] { hxrt::placement_from_json(R"({"a": 1e400})"); }),
             Catch::Contains("placement JSON: /a: the number 1e400") &&
                 Catch::Contains("beyond the range of a double"));
  CHECK_THAT(refusal([] { hxrt::placement_from_json(R"({"a": "/CPU:0", "a": "/GPU:0"})"); }),
             Catch::Contains("/a: the key appears twice"));
  CHECK_THAT(refusal([] { hxrt::placement_from_json(std::string(100, '[')); }),
             Catch::Contains("nesting deeper than"));
  CHECK_THAT(refusal([] { hxrt::placement_from_json(std::string("{\"a\": \"x\"}\0{", 13)); }),
             Catch::Contains("a NUL byte"));
  CHECK_THAT(refusal([] { hxrt::placement_from_json("\"\xff\""); }),
             Catch::Contains("placement JSON: malformed JSON at line 1"));
  CHECK_THAT(refusal([] { hxrt::placement_from_json("[1]"); }),
             Catch::Contains("expected an object of node names to device names") &&
                 Catch::Contains("got array"));
  CHECK_THAT(refusal([] { hxrt::placement_from_json(R"({"a": ""})"); }),
             Catch::Contains("/a: expected a device name"));
}

TEST_CASE("placement_to_json writes a node name that is not UTF-8 with U+FFFD, never throws",
          "[graph]") {
  const std::map<std::string, std::string> placement = {{"n\xff\xfe", cpu0()}, {"ok", cpu0()}};
  std::string text;
  REQUIRE_NOTHROW(text = hxrt::placement_to_json(placement));
  const std::map<std::string, std::string> back = hxrt::placement_from_json(text);
  CHECK(back == std::map<std::string, std::string>{{"n\xEF\xBF\xBD\xEF\xBF\xBD", cpu0()},
                                                   {"ok", cpu0()}});
}

TEST_CASE("A graph whose node name is not UTF-8 gives back a placement that can be written",
          "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x\xc3", hxrt::DType::kF32, {2});
  const hxrt::NodeOutput y = builder.add("relu\xff", "Relu", {x});
  const hxrt::Executable exe = rt.compile(builder.graph(), {y});
  const std::string text = hxrt::placement_to_json(exe.placement_map());
  CHECK(nlohmann::json::parse(text).size() == 2);
  // Read back, the names differ from the graph's, and compile says which one it lacks.
  hxrt::CompileOptions options;
  options.placement = hxrt::placement_from_json(text);
  CHECK_THAT(refusal([&] { rt.compile(builder.graph(), {y}, options); }),
             Catch::Contains("not a node"));
}

TEST_CASE("A saved cost model of the wrong shape is refused with its JSON pointer and changes "
          "nothing", "[graph][dynamic]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  const std::string before = rt.cost_model_json();
  auto load = [&](const std::string& text) {
    return refusal([&] { rt.load_cost_model_json(text); });
  };
  CHECK_THAT(load(R"({"format": 1})"),
             Catch::Contains("Runtime::load_cost_model_json: /format: expected \"hxrt cost "
                             "model\"") &&
                 Catch::Contains("got number 1"));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": "1"})"),
             Catch::Contains("/version: expected 1") && Catch::Contains("got string \"1\""));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 2})"),
             Catch::Contains("/version: expected 1"));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 1, "links": 1e400})"),
             Catch::Contains("/links: the number 1e400"));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 1, "version": 1})"),
             Catch::Contains("/version: the key appears twice"));
  CHECK_THAT(load(saved_model(R"("flops_per_second": 1, "bytes_per_second": 1)")),
             Catch::Contains("/speed/latency: missing; expected a number >= 0"));
  CHECK_THAT(load(saved_model(R"("flops_per_second": 1, "bytes_per_second": 1, "latency": -1)")),
             Catch::Contains("/speed/latency: expected a number >= 0, got number -1"));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 1, "devices": {")" + cpu0() +
                  R"(": {"kernels": [{"op": "MatMul", "flops": "yes"}]}}})"),
             Catch::Contains("/kernels/0/flops: expected true or false"));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 1, "copies": [{"from": 3}]})"),
             Catch::Contains("/copies/0/from: expected a string, got number 3"));
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 1, "links": [{"from": "a"}]})"),
             Catch::Contains("/links/0/to: missing"));
  // A valid device entry before the mistake is not merged: a refused text changes nothing.
  CHECK_THAT(load(R"({"format": "hxrt cost model", "version": 1, "devices": {")" + cpu0() +
                  R"(": {"speed": {"flops_per_second": 5, "bytes_per_second": 5, "latency": 0}}},
                  "links": [{"from": 1}]})"),
             Catch::Contains("/links/0/from"));
  CHECK(rt.cost_model_json() == before);
}

TEST_CASE("CompileOptions::cost_model_json is read as load_cost_model_json is",
          "[graph][dynamic]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput y = builder.add("y", "Relu", {builder.input("x", hxrt::DType::kF32, {2})});
  hxrt::CompileOptions options;
  options.placer = hxrt::GraphPlacer::kDynamic;
  for (const std::string& text :
       {std::string(R"({"format": 1})"),
        std::string(R"({"format": "hxrt cost model", "version": "1"})"),
        std::string(R"({"format": "hxrt cost model", "version": 1e400})")}) {
    INFO(text);
    options.cost_model_json = text;
    CHECK_THAT(refusal([&] { rt.compile(builder.graph(), {y}, options); }),
               Catch::StartsWith("CompileOptions::cost_model_json: /"));
  }
  options.cost_model_json = rt.cost_model_json();
  CHECK_NOTHROW(rt.compile(builder.graph(), {y}, options));
}

// Graph constants (GraphBuilder::constant): placed with their consumers, copied once at compile
// to every device that reads them, kept by the executable across runs, and counted in its
// memory plan apart from what a run allocates.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include "error_from.hpp"
#include "graph_support.hpp"

using graph_test::cpu_and_gpus;
using graph_test::placement_of;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt::Tensor;
using hxrt_test::error_from;

namespace {

// y = relu(x @ w + b) with w and b constants.
hxrt::Graph dense_graph(hxrt::Runtime& rt, const std::string& device = "") {
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {1, 2});
  const NodeOutput w = builder.constant("w", rt.tensor<float>({2, 2}, {1, 2, 3, 4}));
  const NodeOutput b = builder.constant("b", rt.tensor<float>({2}, {-10, 1}));
  const NodeOutput product = builder.add("mm", "MatMul", {x, w}, {}, device);
  builder.add("relu", "Relu", {builder.add("add", "Add", {product, b}, {}, device)}, {}, device);
  return builder.build();
}

}  // namespace

TEST_CASE("A graph's constants are read by every run", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  const hxrt::Executable exe = rt.compile(dense_graph(rt), {{"relu", 0}});
  CHECK(exe.inputs() == std::vector<std::string>{"x"});
  for (int run = 0; run < 3; ++run) {
    const std::vector<Tensor> out = exe.run({{"x", rt.tensor<float>({1, 2}, {1, 1})}});
    CHECK(out[0].to_string() == "[[0, 7]]");
  }
  const std::vector<Tensor> out = exe.run({{"x", rt.tensor<float>({1, 2}, {2, 1})}});
  CHECK(out[0].to_string() == "[[0, 9]]");
  CHECK(placement_of(exe, "w").op == "Const");
}

TEST_CASE("A constant goes with its consumer and is copied there once, not on every run",
          "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  const hxrt::Executable exe = rt.compile(dense_graph(rt, "/GPU:0"), {{"relu", 0}});
  CHECK(placement_of(exe, "w").device == graph_test::device("GPU:0"));
  CHECK(placement_of(exe, "b").device == graph_test::device("GPU:0"));
  // Only the feed crosses devices per run; the constants were copied at compile.
  for (const std::string& transfer : exe.transfers()) {
    CHECK(transfer.find("w:0") == std::string::npos);
    CHECK(transfer.find("b:0") == std::string::npos);
  }
  const hxrt::DeviceMemoryPlan* gpu = nullptr;
  for (const hxrt::DeviceMemoryPlan& plan : exe.memory_plan()) {
    if (plan.device == graph_test::device("GPU:0")) gpu = &plan;
  }
  REQUIRE(gpu != nullptr);
  CHECK(gpu->constant_bytes == 6 * sizeof(float));
  const std::vector<Tensor> out = exe.run({{"x", rt.tensor<float>({1, 2}, {1, 1})}});
  CHECK(out[0].to_string() == "[[0, 7]]");
}

TEST_CASE("A constant read on two devices has a copy on each", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(2);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2});
  const NodeOutput c = builder.constant("c", rt.tensor<float>({2}, {1, 2}));
  const NodeOutput on0 = builder.add("add0", "Add", {x, c}, {}, "/GPU:0");
  const NodeOutput on1 = builder.add("add1", "Add", {x, c}, {}, "/GPU:1");
  builder.add("sum", "AddN", {on0, on1}, {}, "/CPU:0");
  const hxrt::Executable exe = rt.compile(builder.build(), {{"sum", 0}});
  for (const std::string& transfer : exe.transfers()) {
    CHECK(transfer.find("c:0") == std::string::npos);
  }
  for (int run = 0; run < 2; ++run) {
    CHECK(exe.run({{"x", rt.tensor<float>({2}, {1, 1})}})[0].to_string() == "[4, 6]");
  }
}

TEST_CASE("An executable keeps its constants after the caller lets go of them", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  hxrt::Executable exe;
  {
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {3});
    const NodeOutput c = builder.constant("c", rt.tensor<float>({3}, {1, 2, 3}));
    builder.add("mul", "Mul", {x, c});
    exe = rt.compile(builder.build(), {{"mul", 0}});
  }
  CHECK(exe.run({{"x", rt.tensor<float>({3}, {2, 2, 2})}})[0].to_string() == "[2, 4, 6]");
}

TEST_CASE("A constant can be fetched, and the dynamic placer places its consumers", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  const hxrt::Graph graph = dense_graph(rt);
  hxrt::CompileOptions options;
  options.placer = hxrt::GraphPlacer::kDynamic;
  const hxrt::Executable exe = rt.compile(graph, {{"relu", 0}, {"w", 0}}, options);
  const std::vector<Tensor> out = exe.run({{"x", rt.tensor<float>({1, 2}, {1, 1})}});
  CHECK(out[0].to_string() == "[[0, 7]]");
  CHECK(out[1].to_string() == "[[1, 2], [3, 4]]");
  CHECK(placement_of(exe, "w").device == placement_of(exe, "mm").device);
}

TEST_CASE("A constant needs a value and a name of its own", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  GraphBuilder builder(rt);
  builder.input("x", DType::kF32, {2});
  const auto empty = error_from([&] { builder.constant("c", Tensor()); });
  REQUIRE(empty);
  CHECK(std::string(empty->what()) ==
        "graph node 'c': its value is an empty Tensor handle; give it a tensor");
  const auto taken = error_from([&] { builder.constant("x", rt.tensor<float>({1}, {1})); });
  REQUIRE(taken);
  CHECK_THAT(taken->what(), Catch::Contains("the name is taken"));
  CHECK(builder.graph().nodes().size() == 1);
}

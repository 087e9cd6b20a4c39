// Graphs with shapes known only at run (GraphNode::shapes_at_run): NonZero, whose count of
// coordinates its inputs' values decide, and the nodes that read it. Compile compiles what
// precedes it; runs compile the rest for the extents they meet, once per set of extents.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <thread>

#include "error_from.hpp"
#include "graph_support.hpp"

using graph_test::cpu_and_gpus;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt::Tensor;
using hxrt_test::error_from;

namespace {

// values = gather(relu(x), nonzero(relu(x))) * 10: x's positive elements, times ten, with
// the count of them fetched too.
hxrt::Graph positives_graph(hxrt::Runtime& rt) {
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {6});
  const NodeOutput relu = builder.add("relu", "Relu", {x});
  const NodeOutput found = builder.add("found", "NonZero", {relu});
  const NodeOutput indices =
      builder.add("indices", "Squeeze", {found}, {{"axes", std::vector<int64_t>{0}}});
  const NodeOutput picked = builder.add("picked", "Gather", {relu, indices});
  const NodeOutput ten = builder.constant("ten", rt.tensor<float>({}, {10}));
  builder.add("values", "Mul", {picked, ten});
  builder.add("count", "Size", {indices});
  return builder.build();
}

}  // namespace

TEST_CASE("A graph reading NonZero runs with the count each run finds", "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  const hxrt::Graph graph = positives_graph(rt);
  CHECK_FALSE(graph.find("relu")->shapes_at_run);
  CHECK(graph.find("found")->shapes_at_run);
  CHECK(graph.find("values")->shapes_at_run);
  // Before a run, the most there can be: every element.
  CHECK(graph.find("values")->output_shapes[0] == hxrt::Shape{6});

  const hxrt::Executable exe = rt.compile(graph, {{"values", 0}, {"count", 0}, {"relu", 0}});
  CHECK(exe.inputs() == std::vector<std::string>{"x"});
  // What the executable describes is the part compiled before any run: up to relu.
  REQUIRE(exe.placement().size() == 2);
  CHECK(exe.placement()[1].node == "relu");

  for (int run = 0; run < 2; ++run) {
    const std::vector<Tensor> three =
        exe.run({{"x", rt.tensor<float>({6}, {1, -2, 3, 0, 5, -6})}});
    CHECK(three[0].to_string() == "[10, 30, 50]");
    CHECK(three[1].to_vector<int64_t>() == std::vector<int64_t>{3});
    CHECK(three[2].shape() == hxrt::Shape{6});
  }
  const std::vector<Tensor> one =
      exe.run({{"x", rt.tensor<float>({6}, {0, 0, 0, 0, 0.5f, 0})}});
  CHECK(one[0].to_string() == "[5]");
  const std::vector<Tensor> none =
      exe.run({{"x", rt.tensor<float>({6}, {-1, 0, 0, 0, 0, 0})}});
  CHECK(none[0].shape() == hxrt::Shape{0});
  CHECK(none[1].to_vector<int64_t>() == std::vector<int64_t>{0});
}

TEST_CASE("A graph that starts with NonZero, or chains two, runs in stages",
          "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kI32, {2, 3});
  const NodeOutput found = builder.add("found", "NonZero", {x});
  // The coordinates' own nonzero ones: a second op whose extents the run decides, on the
  // first one's output.
  builder.add("again", "NonZero", {found});
  const hxrt::Executable exe = rt.compile(builder.build(), {{"found", 0}, {"again", 0}});
  CHECK(exe.placement().empty());  // nothing precedes the first NonZero
  const Tensor x_value = rt.tensor<int32_t>({2, 3}, {0, 4, 0, 7, 0, 1});
  const std::vector<Tensor> out = exe.run({{"x", x_value}});
  CHECK(out[0].to_vector<int64_t>() == std::vector<int64_t>{0, 1, 1, 1, 0, 2});
  CHECK(out[1].shape() == hxrt::Shape{2, 4});
  CHECK(out[1].to_vector<int64_t>() == std::vector<int64_t>{0, 0, 1, 1, 1, 2, 0, 2});
}

TEST_CASE("A node that refuses the extents a run computed names itself", "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {4});
  const NodeOutput found = builder.add("found", "NonZero", {x});
  // [1, 4] at build; a run with three nonzero elements gives [1, 3], which no [4] matches.
  const NodeOutput c = builder.constant("c", rt.tensor<int64_t>({4}, {1, 2, 3, 4}));
  builder.add("sum", "Add", {found, c});
  const hxrt::Executable exe = rt.compile(builder.build(), {{"sum", 0}});
  CHECK(exe.run({{"x", rt.tensor<float>({4}, {1, 1, 1, 1})}})[0].to_vector<int64_t>() ==
        std::vector<int64_t>{1, 3, 5, 7});
  const Tensor three = rt.tensor<float>({4}, {1, 0, 1, 1});
  const auto error = error_from([&] { exe.run({{"x", three}}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             Catch::Contains("graph node 'sum' (Add), for the shapes this run computed"));
  // The executable stays usable.
  CHECK(exe.run({{"x", rt.tensor<float>({4}, {2, 2, 2, 2})}})[0].shape() == hxrt::Shape{1, 4});
}

TEST_CASE("Several threads run a graph with run-time shapes at once", "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  const hxrt::Executable exe = rt.compile(positives_graph(rt), {{"values", 0}});
  std::vector<std::thread> threads;
  std::vector<int> right(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 20; ++run) {
        std::vector<float> x(6, -1);
        for (int i = 0; i <= (t + run) % 6; ++i) x[static_cast<size_t>(i)] = 1;
        const Tensor values = exe.run({{"x", rt.tensor<float>({6}, x)}})[0];
        right[static_cast<size_t>(t)] +=
            values.shape() == hxrt::Shape{(t + run) % 6 + 1} ? 1 : 0;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(right == std::vector<int>(4, 20));
}

TEST_CASE("Runs that meet more counts than the parts kept compile the oldest again",
          "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {80});
  const NodeOutput found = builder.add("found", "NonZero", {builder.add("relu", "Relu", {x})});
  builder.add("count", "Size", {found});
  const hxrt::Executable exe = rt.compile(builder.build(), {{"count", 0}});
  const auto count_of = [&](int64_t n) {
    std::vector<float> values(80, -1);
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = 1;
    return exe.run({{"x", rt.tensor<float>({80}, values)}})[0].to_vector<int64_t>().at(0);
  };
  // 80 counts, more than the 64 parts kept, then the first ones again.
  for (int64_t n = 0; n < 80; ++n) REQUIRE(count_of(n) == n);
  for (int64_t n = 0; n < 4; ++n) REQUIRE(count_of(n) == n);
}

// Attributes a graph computes (GraphNode::attr_inputs), as ONNX passes Reshape's shape and
// TopK's k: the builder checks them, and each run reads them from the values it computed and
// runs the node with them, so that the node's shapes, and those of what reads it, are each
// run's own.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include "error_from.hpp"
#include "graph_support.hpp"

using graph_test::cpu_and_gpus;
using hxrt::AttrInput;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt::Tensor;
using hxrt_test::error_from;

namespace {

// y = Transpose(Reshape(x, shape = Concat(rows, [-1]))): x's six elements as `rows` rows,
// transposed; `rows` is fed.
hxrt::Graph reshape_by_rows(hxrt::Runtime& rt) {
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {6});
  const NodeOutput rows = builder.input("rows", DType::kI64, {1});
  const NodeOutput rest = builder.constant("rest", rt.tensor<int64_t>({1}, {-1}));
  const NodeOutput shape = builder.add("shape", "Concat", {rows, rest}, {{"axis", int64_t{0}}});
  const NodeOutput reshaped =
      builder.add("reshaped", "Reshape", {x}, {}, "", {}, {AttrInput{"shape", shape}});
  builder.add("y", "Transpose", {reshaped}, {{"perm", std::vector<int64_t>{1, 0}}});
  return builder.build();
}

}  // namespace

TEST_CASE("An attribute the graph computes is read at each run", "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  const hxrt::Graph graph = reshape_by_rows(rt);
  const hxrt::GraphNode& reshaped = *graph.find("reshaped");
  CHECK(reshaped.shapes_at_run);
  CHECK(reshaped.attrs.find("shape") == nullptr);
  // Before a run its shape is provisional: its dtype is x's, and Transpose, whose perm no
  // provisional shape fits, waits for the runs too.
  CHECK(reshaped.output_dtypes == std::vector<DType>{DType::kF32});
  CHECK(graph.find("y")->shapes_at_run);
  CHECK_FALSE(graph.find("shape")->shapes_at_run);

  const hxrt::Executable exe = rt.compile(graph, {{"y", 0}});
  CHECK(exe.inputs() == std::vector<std::string>{"x", "rows"});
  const Tensor x = rt.tensor<float>({6}, {1, 2, 3, 4, 5, 6});
  for (int run = 0; run < 2; ++run) {
    CHECK(exe.run({{"x", x}, {"rows", rt.tensor<int64_t>({1}, {2})}})[0].to_string() ==
          "[[1, 4], [2, 5], [3, 6]]");
    CHECK(exe.run({{"x", x}, {"rows", rt.tensor<int64_t>({1}, {3})}})[0].to_string() ==
          "[[1, 3, 5], [2, 4, 6]]");
  }
  // A value the op refuses names the node; the executable stays usable.
  const auto error =
      error_from([&] { exe.run({{"x", x}, {"rows", rt.tensor<int64_t>({1}, {4})}}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("graph node 'reshaped' (Reshape)"));
  CHECK(exe.run({{"x", x}, {"rows", rt.tensor<int64_t>({1}, {1})}})[0].shape() ==
        hxrt::Shape({6, 1}));
}

TEST_CASE("A computed attribute's value must fit the attribute, or the run names it",
          "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {5});
  const NodeOutput k = builder.input("k", DType::kI64, {2});
  builder.add("top", "TopK", {x}, {}, "", {}, {AttrInput{"k", k}});
  const hxrt::Executable exe = rt.compile(builder.build(), {{"top", 0}});
  const Tensor five = rt.tensor<float>({5}, {3, 9, 1, 7, 5});
  const auto error =
      error_from([&] { exe.run({{"x", five}, {"k", rt.tensor<int64_t>({2}, {1, 2})}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("attribute input 'k' ('k:0'): must hold one value, "
                                            "but has shape [2]"));
}

TEST_CASE("The builder refuses attribute inputs that cannot give the attribute",
          "[graph][run_time]") {
  hxrt::Runtime rt = cpu_and_gpus(0);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {6});
  const NodeOutput shape = builder.input("shape", DType::kI64, {2});
  const auto refusal = [&](const std::vector<AttrInput>& attr_inputs,
                           const hxrt::Attrs& attrs = {}) {
    const auto error =
        error_from([&] { builder.add("r", "Reshape", {x}, attrs, "", {}, attr_inputs); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    CHECK(builder.graph().find("r") == nullptr);  // the graph is left as it was
    return std::string(error->what());
  };
  CHECK_THAT(refusal({{"shapes", shape}}),
             Catch::Contains("graph node 'r': attribute input 'shapes' names no attribute of "
                             "Reshape"));
  CHECK_THAT(refusal({{"shape", shape}}, {{"shape", std::vector<int64_t>{6}}}),
             Catch::Contains("attribute input 'shape' is set in its attributes too"));
  CHECK_THAT(refusal({{"shape", x}}),
             Catch::Contains("attribute input 'shape' reads a tensor of float32, which "
                             "cannot give Reshape's attribute 'shape' (list of ints)"));
  CHECK_THAT(refusal({{"shape", {"nowhere", 0}}}),
             Catch::Contains("attribute input 'shape' names 'nowhere', which is not a node of "
                             "the graph"));
  CHECK_THAT(refusal({{"shape", {"shape", 1}}}),
             Catch::Contains("attribute input 'shape' names output 1 of 'shape', which has 1 "
                             "output"));
}

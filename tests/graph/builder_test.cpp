// GraphBuilder: nodes checked as they are added (naming the node), shapes and dtypes inferred
// over the graph, and device requests taken from the node, the scope or the placement
// function in force while the graph is built.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include "error_from.hpp"

using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::GraphNode;
using hxrt::NodeOutput;
using hxrt::RequestSource;
using hxrt_test::error_from;

namespace {

hxrt::Runtime cpu_and_four_gpus() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options = {{"sim", R"({"device_type":"GPU","device_count":4})"}};
  return hxrt::Runtime::create(options);
}

// Checks that `body` is refused with INVALID_ARGUMENT whose text has every part of `parts`,
// and leaves the graph's node count as it was.
template <class Body>
void check_refused(const GraphBuilder& builder, Body body,
                   std::initializer_list<const char*> parts) {
  const size_t before = builder.graph().nodes().size();
  const auto error = error_from(body);
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  for (const char* part : parts) CHECK_THAT(error->what(), Catch::Contains(part));
  CHECK(builder.graph().nodes().size() == before);
}

}  // namespace

TEST_CASE("The guide's replication builds as a graph: scopes request devices, shapes are "
          "inferred", "[graph]") {
  hxrt::Runtime rt = cpu_and_four_gpus();
  GraphBuilder builder(rt);
  const NodeOutput a = builder.input("a", DType::kF32, {2, 3});
  const NodeOutput b = builder.input("b", DType::kF32, {3, 2});
  std::vector<NodeOutput> products;
  for (int i = 0; i < 4; ++i) {
    const auto scope = rt.device("/GPU:" + std::to_string(i));
    products.push_back(builder.add("MatMul_" + std::to_string(i), "MatMul", {a, b}));
  }
  {
    const auto scope = rt.device("/CPU:0");
    builder.add("AddN", "AddN", products);
  }
  const hxrt::Graph graph = builder.build();
  REQUIRE(graph.nodes().size() == 7);
  CHECK(graph.inputs() == std::vector<std::string>{"a", "b"});
  const GraphNode* matmul = graph.find("MatMul_2");
  REQUIRE(matmul != nullptr);
  CHECK(matmul->op == "MatMul");
  CHECK(matmul->requested_device == "/GPU:2");
  CHECK(matmul->request_source == RequestSource::kScope);
  CHECK(matmul->output_shapes == std::vector<hxrt::Shape>{hxrt::Shape{2, 2}});
  const GraphNode* sum = graph.find("AddN");
  REQUIRE(sum != nullptr);
  CHECK(sum->inputs.size() == 4);
  CHECK(sum->requested_device == "/CPU:0");
  CHECK(sum->output_dtypes == std::vector<DType>{DType::kF32});
  CHECK(graph.find("a")->kind == GraphNode::Kind::kInput);
  CHECK(graph.find("a")->request_source == RequestSource::kNone);
  CHECK(graph.find("missing") == nullptr);
}

TEST_CASE("A node's own device wins over the scope, and the scope over the placement function",
          "[graph]") {
  hxrt::Runtime rt = cpu_and_four_gpus();
  std::vector<hxrt::OpPlacementInfo> asked;
  rt.set_placement_function([&asked](const hxrt::OpPlacementInfo& op) {
    asked.push_back(op);
    return op.op == "MatMul" ? std::string("/GPU:1") : std::string();
  });
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2}, "/GPU:3");
  const NodeOutput by_function = builder.add("mm", "MatMul", {x, x});
  const NodeOutput unanswered = builder.add("relu", "Relu", {by_function});
  NodeOutput by_scope;
  NodeOutput by_node;
  {
    const auto scope = rt.device("/GPU:2");
    by_scope = builder.add("add", "Add", {unanswered, x});
    by_node = builder.add("sub", "Sub", {by_scope, x}, {}, "/CPU:0");
  }
  const hxrt::Graph& graph = builder.graph();
  CHECK(graph.find("x")->request_source == RequestSource::kNode);
  CHECK(graph.find("mm")->requested_device == "/GPU:1");
  CHECK(graph.find("mm")->request_source == RequestSource::kPlacementFunction);
  CHECK(graph.find("relu")->request_source == RequestSource::kNone);
  CHECK(graph.find("add")->request_source == RequestSource::kScope);
  CHECK(graph.find("sub")->requested_device == "/CPU:0");
  CHECK(graph.find("sub")->request_source == RequestSource::kNode);
  // Asked once per op outside a scope, at build time, with its inputs' requested devices.
  REQUIRE(asked.size() == 2);
  CHECK(asked[0].op == "MatMul");
  CHECK(asked[0].input_dtypes == std::vector<DType>{DType::kF32, DType::kF32});
  CHECK(asked[0].input_devices == std::vector<std::string>{"/GPU:3", "/GPU:3"});
  CHECK(asked[1].op == "Relu");
  CHECK(asked[1].input_devices == std::vector<std::string>{"/GPU:1"});
}

TEST_CASE("Bad nodes are refused as they are added, naming the node, and leave the graph as "
          "it was", "[graph]") {
  hxrt::Runtime rt = cpu_and_four_gpus();
  GraphBuilder builder(rt);
  const NodeOutput a = builder.input("a", DType::kF32, {2, 3});
  const NodeOutput n = builder.input("n", DType::kI32, {2, 3});
  builder.add("relu", "Relu", {a});

  check_refused(builder, [&] { builder.add("", "Relu", {a}); }, {"graph node ''", "name"});
  check_refused(builder, [&] { builder.add("relu", "Relu", {a}); },
                {"graph node 'relu'", "taken"});
  check_refused(builder, [&] { builder.input("a", DType::kF32, {1}); },
                {"graph node 'a'", "taken"});
  check_refused(builder, [&] { builder.add("x", "Frobnicate", {a}); },
                {"graph node 'x'", "unknown op 'Frobnicate'", "MatMul"});
  check_refused(builder, [&] { builder.add("x", "Relu", {NodeOutput{"later"}}); },
                {"graph node 'x'", "input 0 names 'later'", "not a node of the graph"});
  // A node cannot read itself: a cycle cannot be written.
  check_refused(builder, [&] { builder.add("self", "Relu", {NodeOutput{"self"}}); },
                {"graph node 'self'", "input 0 names 'self'"});
  check_refused(builder, [&] { builder.add("x", "Relu", {NodeOutput{"relu", 1}}); },
                {"graph node 'x'", "output 1 of 'relu'", "has 1 output"});
  check_refused(builder, [&] { builder.add("x", "Relu", {a}, {}, {}, {"nowhere"}); },
                {"graph node 'x'", "control input 'nowhere'"});
  check_refused(builder, [&] { builder.add("x", "Relu", {a}, {}, "/GPU:zero"); },
                {"graph node 'x'", "GPU:zero"});
  check_refused(builder, [&] { builder.add("mm", "MatMul", {a, a}); },
                {"graph node 'mm' (MatMul)", "[2, 3]"});
  check_refused(builder, [&] { builder.add("sum", "Add", {a, n}); },
                {"graph node 'sum' (Add)", "int32"});
  check_refused(builder, [&] { builder.add("one", "Relu", {}); },
                {"graph node 'one' (Relu)"});

  // The builder goes on after a refusal.
  builder.add("relu2", "Relu", {NodeOutput{"relu"}}, {}, {}, {"a"});
  CHECK(builder.graph().nodes().size() == 4);
  CHECK(builder.graph().find("relu2")->control_inputs == std::vector<std::string>{"a"});
}

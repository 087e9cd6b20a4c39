// Runtime::compile: the simple placer's rules in their order, the placement log, transfers
// where edges cross devices, a placement given back, pruning to the fetches, and the memory
// plan with its refusal over a device's limit.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <algorithm>

#include "error_from.hpp"
#include "graph_support.hpp"

using graph_test::cpu_and_gpus;
using graph_test::placement_of;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt_test::error_from;

namespace {

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
std::string gpu(int i) { return "/job:localhost/replica:0/task:0/device:GPU:" + std::to_string(i); }

}  // namespace

TEST_CASE("compile logs the device mapping, then one line per node as TensorFlow does",
          "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(4);
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  rt.set_log_device_placement(true);
  const hxrt::Graph graph = graph_test::replication_graph(rt, 4);
  const hxrt::Executable exe = rt.compile(graph, {{"AddN", 0}});

  REQUIRE(log.lines.size() >= 8);
  CHECK_THAT(log.lines[0], Catch::StartsWith("Device mapping:"));
  CHECK_THAT(log.lines[0], Catch::Contains(kCpu0 + " -> device: 0"));
  CHECK_THAT(log.lines[0], Catch::Contains(gpu(3) + " -> device: 3"));
  const std::vector<std::string> expected = {
      "a: (Placeholder): " + gpu(0),        "b: (Placeholder): " + gpu(0),
      "MatMul_0: (MatMul): " + gpu(0),      "MatMul_1: (MatMul): " + gpu(1),
      "MatMul_2: (MatMul): " + gpu(2),      "MatMul_3: (MatMul): " + gpu(3),
      "AddN: (AddN): " + kCpu0};
  CHECK(std::vector<std::string>(log.lines.begin() + 1, log.lines.end()) == expected);
  // a and b go with their first consumer, MatMul_0; each other GPU gets a copy of each.
  const std::vector<std::string> transfers = exe.transfers();
  CHECK(transfers.size() == 10);
  CHECK(std::count(transfers.begin(), transfers.end(), "a:0 from GPU:0 to GPU:3") == 1);
  CHECK(std::count(transfers.begin(), transfers.end(), "MatMul_2:0 from GPU:2 to CPU:0") == 1);
  CHECK(exe.inputs() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("compile places by the simple placer's rules: pinned nodes where pinned, the rest "
          "by priority, under the soft-placement mode", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(2);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2});
  const NodeOutput free = builder.add("free", "Relu", {x});
  const NodeOutput pinned = builder.add("pinned", "Relu", {free}, {}, "/CPU:0");
  builder.add("missing", "Relu", {pinned}, {}, "/GPU:7");

  SECTION("a device that does not exist is an error naming the node, by default") {
    const auto error = error_from([&] { rt.compile(builder.graph(), {{"missing", 0}}); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("graph node 'missing' (Relu)"));
    CHECK_THAT(error->what(), Catch::Contains("unknown device"));
  }
  SECTION("and under soft placement it goes to the best device, saying why") {
    rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
    const hxrt::Executable exe = rt.compile(builder.graph(), {{"missing", 0}});
    CHECK(placement_of(exe, "free").device == gpu(0));  // the sim GPU ranks before the CPU
    CHECK(placement_of(exe, "free").request_source == hxrt::RequestSource::kNone);
    CHECK(placement_of(exe, "pinned").device == kCpu0);
    CHECK(placement_of(exe, "pinned").request_source == hxrt::RequestSource::kNode);
    CHECK(placement_of(exe, "missing").device == gpu(0));
    CHECK_FALSE(placement_of(exe, "missing").reason.empty());
    CHECK(placement_of(exe, "x").device == gpu(0));  // with its first consumer
    CHECK(placement_of(exe, "x").op == "Placeholder");
  }
}

TEST_CASE("A placement given back to compile keeps every node where it was, over requests, "
          "and survives JSON", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(2);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2});
  const NodeOutput y = builder.add("y", "Relu", {x});
  builder.add("z", "Identity", {y}, {}, "/GPU:1");
  const hxrt::Executable first = rt.compile(builder.graph(), {{"z", 0}});
  CHECK(placement_of(first, "y").device == gpu(0));
  CHECK(placement_of(first, "z").device == gpu(1));

  std::map<std::string, std::string> saved = first.placement_map();
  saved["z"] = kCpu0;  // as if the earlier run had put it there
  const std::map<std::string, std::string> read_back =
      hxrt::placement_from_json(hxrt::placement_to_json(saved));
  CHECK(read_back == saved);
  hxrt::CompileOptions options;
  options.placement = read_back;
  const hxrt::Executable second = rt.compile(builder.graph(), {{"z", 0}}, options);
  CHECK(placement_of(second, "y").device == gpu(0));
  CHECK(placement_of(second, "z").device == kCpu0);
  CHECK_THAT(placement_of(second, "z").reason, Catch::StartsWith("placed before"));
  // Placement stays across runs: the executable's placement does not move.
  const hxrt::Tensor fed = rt.tensor<float>({2, 2}, {1, -2, 3, -4});
  for (int run = 0; run < 3; ++run) {
    CHECK(second.run({{"x", fed}})[0].to_vector<float>() == std::vector<float>{1, 0, 3, 0});
    CHECK(second.placement_map() == saved);
  }

  SECTION("a given-back node that is not in the graph is an error") {
    options.placement["gone"] = kCpu0;
    const auto error = error_from([&] { rt.compile(builder.graph(), {{"z", 0}}, options); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("'gone'"));
  }
  SECTION("bad placement JSON names what is wrong and where") {
    auto error = error_from([] { hxrt::placement_from_json(R"({"y": 3})"); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("/y: expected a device name"));
    CHECK_THAT(error->what(), Catch::Contains("got number 3"));
    error = error_from([] { hxrt::placement_from_json("[1]"); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("array"));
    error = error_from([] { hxrt::placement_from_json("{"); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  }
}

TEST_CASE("compile keeps only the nodes the fetches need (control inputs included), and checks the fetches", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2});
  const NodeOutput unused = builder.input("unused", DType::kF32, {2});
  const NodeOutput y = builder.add("y", "Relu", {x});
  builder.add("side", "Relu", {unused});
  builder.add("after", "Identity", {y}, {}, "", {"side"});
  const hxrt::Executable exe = rt.compile(builder.graph(), {{"after", 0}});
  std::vector<std::string> nodes;
  for (const hxrt::NodePlacement& p : exe.placement()) nodes.push_back(p.node);
  CHECK(nodes == std::vector<std::string>{"x", "unused", "y", "side", "after"});
  const hxrt::Executable pruned = rt.compile(builder.graph(), {y});
  CHECK(pruned.placement().size() == 2);
  CHECK(pruned.inputs() == std::vector<std::string>{"x"});

  auto error = error_from([&] { rt.compile(builder.graph(), {{"nope", 0}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("'nope' is not a node"));
  error = error_from([&] { rt.compile(builder.graph(), {{"y", 1}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("has 1 output"));
  error = error_from([&] { rt.compile(builder.graph(), {}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("no fetches"));
}

TEST_CASE("The memory plan shares memory along a chain, reports each device's peak, and "
          "refuses a plan over a device's limit with the figures", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  hxrt::MemoryPolicy policy;
  policy.limit_mb = 1;
  rt.set_memory_policy("CPU", policy);
  GraphBuilder builder(rt);
  const auto scope = rt.device("/CPU:0");
  NodeOutput value = builder.input("x", DType::kF32, {64, 64});  // 16 KiB a tensor
  for (int i = 0; i < 10; ++i) value = builder.add("relu" + std::to_string(i), "Relu", {value});
  const hxrt::Executable exe = rt.compile(builder.graph(), {value});
  REQUIRE(exe.memory_plan().size() == 1);
  const hxrt::DeviceMemoryPlan& plan = exe.memory_plan()[0];
  CHECK(plan.device == kCpu0);
  CHECK(plan.unshared_bytes == 9 * 16384);  // the nine intermediates
  CHECK(plan.arena_bytes == 2 * 16384);     // two at a time along a chain
  CHECK(plan.widest_bytes == 2 * 16384);    // which is the most live at once
  CHECK(plan.separate_bytes == 16384);      // the fetched output
  CHECK(plan.peak_bytes == plan.arena_bytes + plan.separate_bytes);

  const NodeOutput wide = builder.input("wide", DType::kF32, {64, 4096});  // 1 MiB
  const NodeOutput big = builder.add("big", "MatMul", {value, wide});
  builder.add("after_big", "Relu", {big});
  const auto error = error_from([&] { rt.compile(builder.graph(), {{"after_big", 0}}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains(kCpu0));
  CHECK_THAT(error->what(), Catch::Contains("memory limit of 1.00 MiB"));
}

TEST_CASE("With one thread for everything the host's steps run in order, and branches share "
          "memory",
          "[graph][memory_plan]") {
  // Two branches of two Relus each from x, added: 16 KiB a tensor. Run one step at a time in
  // the order built (a1 a2 b1 b2 sum), b1 may take a1's memory: three tensors at most are live
  // at once (a2, b1, b2). With branches that may run at once, a1 and b1 may be live together.
  const auto compiled = [](int inter_op_threads) {
    hxrt::RuntimeOptions options;
    options.use_installed_plugins = false;
    options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
    options.inter_op_threads = inter_op_threads;
    options.intra_op_threads = 1;
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {64, 64});
    const NodeOutput a = builder.add("a2", "Relu", {builder.add("a1", "Relu", {x})});
    const NodeOutput b = builder.add("b2", "Relu", {builder.add("b1", "Relu", {x})});
    builder.add("sum", "Add", {a, b});
    const hxrt::Executable exe = rt.compile(builder.graph(), {{"sum", 0}});
    const hxrt::Tensor fed = rt.tensor<float>({64, 64}, std::vector<float>(64 * 64, -1.5f));
    CHECK(exe.run({{"x", fed}})[0].to_vector<float>() == std::vector<float>(64 * 64, 0.0f));
    const hxrt::Tensor positive =
        rt.tensor<float>({64, 64}, std::vector<float>(64 * 64, 2.0f));
    CHECK(exe.run({{"x", positive}})[0].to_vector<float>() ==
          std::vector<float>(64 * 64, 4.0f));
    REQUIRE(exe.memory_plan().size() == 1);
    return exe.memory_plan()[0];
  };
  const hxrt::DeviceMemoryPlan serial = compiled(1);
  CHECK(serial.widest_bytes == 3 * 16384);
  CHECK(serial.arena_bytes == 3 * 16384);
  const hxrt::DeviceMemoryPlan parallel = compiled(2);
  CHECK(parallel.widest_bytes == 3 * 16384);
  CHECK(parallel.arena_bytes == 4 * 16384);
}

TEST_CASE("A node pinned to a device without its kernel falls back, or under strict placement "
          "fails naming the node", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1, "", {graph_test::fixture_path("failing_kernel")});
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2});
  const NodeOutput product = builder.add("product", "MatMul", {x, x}, {}, "/FAILDEV:0");

  const hxrt::Executable exe = rt.compile(builder.graph(), {product});
  CHECK(placement_of(exe, "product").device == gpu(0));
  CHECK_THAT(placement_of(exe, "product").reason, Catch::Contains("FAILDEV:0"));

  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  const auto error = error_from([&] { rt.compile(builder.graph(), {product}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("graph node 'product' (MatMul)"));
  CHECK_THAT(error->what(), Catch::Contains("Could not satisfy explicit device specification"));
}

// Runtime::plan_placement: the dynamic placer over a cluster described in JSON, in one process
// (docs/cluster.md, "Planning on a topology"). The devices' speeds come from a saved cost
// model, so that every estimate, and so every choice, is the same on any machine.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "hxrt/graph.hpp"
#include "hxrt/runtime.hpp"

namespace {

using Catch::Matchers::Contains;
using hxrt::NodeOutput;

hxrt::Runtime cpu_and_sim_gpu() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options["sim"] = R"({"device_type": "GPU", "device_count": 1})";
  return hxrt::Runtime::create(options);
}

// The CPU at 10 GFLOP/s and 10 GB/s, the sim GPU ten times that, copies at 10 GB/s.
hxrt::CompileOptions known_speeds() {
  const std::string cpu = "/job:localhost/replica:0/task:0/device:CPU:0";
  const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
  hxrt::CompileOptions options;
  options.cost_model_json = R"({"format": "hxrt cost model", "version": 1, "devices": {
    ")" + cpu + R"(": {"speed": {"flops_per_second": 1e10, "bytes_per_second": 1e10,
                               "latency": 1e-6}},
    ")" + gpu + R"(": {"speed": {"flops_per_second": 1e11, "bytes_per_second": 1e11,
                               "latency": 1e-5}}},
    "links": [{"from": ")" + cpu + R"(", "to": ")" + gpu + R"(", "bytes_per_second": 1e10,
               "latency": 1e-5},
              {"from": ")" + gpu + R"(", "to": ")" + cpu + R"(", "bytes_per_second": 1e10,
               "latency": 1e-5}],
    "copies": []})";
  return options;
}

// 64 tasks of one CPU each, 10 GB/s and 5 us between any two.
const char* const kSixtyFourCpus = R"({
  "tasks": [{"count": 64, "devices": [{"like": "/CPU:0"}]}],
  "network": {"gigabytes_per_second": 10, "latency_us": 5}})";

std::string task_device(int task, const std::string& device) {
  return "/job:worker/replica:0/task:" + std::to_string(task) + "/device:" + device;
}

const hxrt::NodePlacement& placed(const hxrt::PlacementPlan& plan, const std::string& node) {
  for (const hxrt::NodePlacement& placement : plan.nodes) {
    if (placement.node == node) return placement;
  }
  FAIL("no node " << node << " in the plan");
  throw;
}

// `branches` MatMuls of x by a constant of their own, each fetched.
std::vector<NodeOutput> branches(hxrt::Runtime& rt, hxrt::GraphBuilder& builder, int count,
                                 int64_t n) {
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {n, n});
  std::vector<NodeOutput> fetches;
  const std::vector<float> values(static_cast<size_t>(n * n), 0.5f);
  for (int b = 0; b < count; ++b) {
    const std::string name = "b" + std::to_string(b);
    const NodeOutput w = builder.constant(name + "_w", rt.tensor<float>({n, n}, values));
    fetches.push_back(builder.add(name, "MatMul", {x, w}));
  }
  return fetches;
}

}  // namespace

TEST_CASE("A 64-task topology takes heavy branches to other tasks, each with its reason") {
  hxrt::Runtime rt = cpu_and_sim_gpu();
  hxrt::GraphBuilder builder(rt);
  const std::vector<NodeOutput> fetches = branches(rt, builder, 64, 256);
  const hxrt::PlacementPlan plan =
      rt.plan_placement(builder.graph(), fetches, kSixtyFourCpus, known_speeds());
  // 2 * 256^3 flops at 10 GFLOP/s: 3.36 ms a branch; x goes to a task in 0.03 ms.
  CHECK(plan.tasks_used == 64);
  CHECK(plan.one_task_makespan_ms == Approx(64 * 3.355).epsilon(0.01));
  CHECK(plan.makespan_ms < 4.0);
  std::set<std::string> devices;
  for (int b = 0; b < 64; ++b) devices.insert(placed(plan, "b" + std::to_string(b)).device);
  CHECK(devices.size() == 64);
  // Each constant goes with its reader; the input stays where it is fed.
  CHECK(placed(plan, "b7_w").device == placed(plan, "b7").device);
  CHECK(placed(plan, "x").device == task_device(0, "CPU:0"));
  const hxrt::NodePlacement& far = placed(plan, "b63");
  REQUIRE(far.device != task_device(0, "CPU:0"));
  CHECK_THAT(far.reason, Contains(": MatMul 3.36 ms there vs 3.36 ms on task:"));
  CHECK_THAT(far.reason, Contains("ms of copies in; finishes at"));
  CHECK(far.estimates.size() == 64);
  CHECK_THAT(plan.summary(), Contains(task_device(63, "CPU:0") + ": 1 node (MatMul 1)"));
}

TEST_CASE("Ops cheaper than the network stay on the first task") {
  hxrt::Runtime rt = cpu_and_sim_gpu();
  hxrt::GraphBuilder builder(rt);
  NodeOutput value = builder.input("x", hxrt::DType::kF32, {16});
  for (int i = 0; i < 8; ++i) value = builder.add("relu" + std::to_string(i), "Relu", {value});
  const hxrt::PlacementPlan plan =
      rt.plan_placement(builder.graph(), {value}, kSixtyFourCpus, known_speeds());
  CHECK(plan.tasks_used == 1);
  for (const hxrt::NodePlacement& placement : plan.nodes) {
    CHECK(placement.device == task_device(0, "CPU:0"));
  }
  CHECK(plan.makespan_ms == Approx(plan.one_task_makespan_ms));
}

TEST_CASE("A faster task's devices draw the work, its speed and the network weighed") {
  hxrt::Runtime rt = cpu_and_sim_gpu();
  hxrt::GraphBuilder builder(rt);
  const std::vector<NodeOutput> fetches = branches(rt, builder, 1, 512);
  const char* const topology = R"({
    "tasks": [{"count": 63, "devices": [{"like": "/CPU:0"}]},
              {"devices": [{"like": "/CPU:0"}, {"like": "/GPU:0", "count": 2, "speed": 4}]}],
    "network": {"gigabytes_per_second": 10, "latency_us": 5}})";
  const hxrt::PlacementPlan plan =
      rt.plan_placement(builder.graph(), fetches, topology, known_speeds());
  // 26.8 ms on a CPU; 0.67 ms on a GPU 40 times as fast, after 1 MiB over the network and
  // onto the GPU.
  CHECK(placed(plan, "b0").device == task_device(63, "GPU:0"));
  CHECK_THAT(placed(plan, "b0").reason,
             Contains("task:63/GPU:0: MatMul 0.67 ms there vs 0.67 ms on task:63/GPU:1; 0.22 ms "
                      "of copies in"));
  CHECK(plan.makespan_ms < plan.one_task_makespan_ms / 10);
}

TEST_CASE("Requests on a topology: a task's device, this task's, a fallback, and none") {
  hxrt::Runtime rt = cpu_and_sim_gpu();
  const char* const topology = R"({"job": "trainer",
    "tasks": [{"count": 4, "devices": [{"like": "/CPU:0"}, {"like": "/GPU:0"}]}],
    "network": {"gigabytes_per_second": 10, "latency_us": 5}})";
  hxrt::GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {4});
  const NodeOutput there =
      builder.add("there", "Relu", {x}, {}, "/job:trainer/replica:0/task:2/device:GPU:0");
  const NodeOutput here = builder.add("here", "Relu", {there}, {}, "/GPU:0");
  // The sim plugin has no Neg: the task's CPU runs it, under soft placement.
  const NodeOutput shared =
      builder.add("shared", "Neg", {here}, {}, "/job:trainer/task:3/device:GPU:0");
  const hxrt::PlacementPlan plan =
      rt.plan_placement(builder.graph(), {shared}, topology, known_speeds());
  CHECK(placed(plan, "there").device == "/job:trainer/replica:0/task:2/device:GPU:0");
  CHECK(placed(plan, "here").device == "/job:trainer/replica:0/task:0/device:GPU:0");
  CHECK(placed(plan, "shared").device == "/job:trainer/replica:0/task:3/device:CPU:0");
  CHECK_THAT(placed(plan, "shared").reason, Contains("no kernel for Neg on"));
  CHECK(plan.tasks_used == 3);

  hxrt::CompileOptions given = known_speeds();
  given.placement["there"] = "/job:trainer/replica:0/task:1/device:CPU:0";
  CHECK(placed(rt.plan_placement(builder.graph(), {shared}, topology, given), "there").device ==
        "/job:trainer/replica:0/task:1/device:CPU:0");

  hxrt::GraphBuilder lost(rt);
  const NodeOutput y = lost.input("y", hxrt::DType::kF32, {4});
  const NodeOutput nowhere =
      lost.add("nowhere", "Relu", {y}, {}, "/job:trainer/replica:0/task:9/device:CPU:0");
  CHECK_THROWS_WITH(rt.plan_placement(lost.graph(), {nowhere}, topology, known_speeds()),
                    Contains("graph node 'nowhere' asks for /job:trainer/replica:0/task:9/"
                             "device:CPU:0, which names no device of the topology ("
                             "/job:trainer/replica:0/task:0/device:CPU:0"));
}

TEST_CASE("A node that fits no device's memory on the topology is named") {
  hxrt::Runtime rt = cpu_and_sim_gpu();
  hxrt::GraphBuilder builder(rt);
  const std::vector<NodeOutput> fetches = branches(rt, builder, 1, 1024);  // 4 MiB a matrix
  const char* const topology = R"({
    "tasks": [{"count": 8, "devices": [{"like": "/CPU:0", "memory_mb": 1}]}],
    "network": {"gigabytes_per_second": 10, "latency_us": 5}})";
  CHECK_THROWS_WITH(rt.plan_placement(builder.graph(), fetches, topology, known_speeds()),
                    Contains("graph node 'x'"));
}

TEST_CASE("A malformed topology is refused naming the JSON pointer of what is wrong") {
  hxrt::Runtime rt = cpu_and_sim_gpu();
  hxrt::GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {4});
  const NodeOutput relu = builder.add("relu", "Relu", {x});
  const auto refusal = [&](const std::string& topology) {
    try {
      rt.plan_placement(builder.graph(), {relu}, topology);
    } catch (const hxrt::Error& e) {
      CHECK(e.code() == hxrt::StatusCode::kInvalidArgument);
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string network = R"("network": {"gigabytes_per_second": 10, "latency_us": 5})";
  CHECK_THAT(refusal("{"), Contains("plan_placement's topology"));
  CHECK_THAT(refusal(R"({"tasks": [{"devices": [{"like": "/CPU:0"}]}]})"),
             Contains("/network: missing"));
  CHECK_THAT(refusal(R"({"tasks": [], )" + network + "}"),
             Contains("/tasks: expected a non-empty array of task groups"));
  CHECK_THAT(refusal(R"({"tasks": [{"devcies": []}], )" + network + "}"),
             Contains("did you mean 'devices'"));
  CHECK_THAT(refusal(R"({"tasks": [{"devices": [{"like": "/TPU:0"}]}], )" + network + "}"),
             Contains("/tasks/0/devices/0/like: names no device of this process"));
  CHECK_THAT(refusal(R"({"tasks": [{"count": 0, "devices": [{"like": "/CPU:0"}]}], )" +
                     network + "}"),
             Contains("/tasks/0/count: expected an integer from 1 to 4096, got number 0"));
  CHECK_THAT(refusal(R"({"tasks": [{"devices": [{"like": "/CPU:0", "speed": -2}]}], )" +
                     network + "}"),
             Contains("/tasks/0/devices/0/speed: expected a number > 0"));
  CHECK_THAT(refusal(R"({"tasks": [{"count": 4096, "devices": [{"like": "/CPU:0",
                     "count": 2}]}], )" + network + "}"),
             Contains("more than 4096 devices in all"));
  CHECK_THAT(refusal(R"({"job": "a/b", "tasks": [{"devices": [{"like": "/CPU:0"}]}], )" +
                     network + "}"),
             Contains("/job: expected a job name"));
  CHECK_THAT(refusal(R"({"tasks": [{"devices": [{"like": "/CPU:0"}]}],
                     "network": {"gigabytes_per_second": 0, "latency_us": 5}})"),
             Contains("/network/gigabytes_per_second: expected a number > 0"));
}

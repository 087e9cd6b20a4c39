// Run under mpirun (tests/cluster/CMakeLists.txt): task 0 builds graphs that place nodes on the
// other tasks' devices, and checks what their runs give; the other tasks only keep their
// runtime, whose service runs their parts until task 0 leaves.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

using hxrt::DType;
using hxrt::NodeOutput;
using hxrt::Shape;
using Catch::Matchers::Contains;

std::mutex g_log_mutex;
std::vector<std::string> g_log;  // guarded by g_log_mutex

hxrt::Runtime& runtime() {
  static hxrt::Runtime made = [] {
    hxrt::RuntimeOptions options;
    options.use_installed_plugins = false;
    options.plugin_paths = {HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so",
                            HXRT_TEST_PLUGIN_DIR "/libhx_sim.so"};
    options.plugin_options["sim"] = R"({"device_count": 1})";
    options.log_sink = [](hxrt::LogLevel, std::string_view message) {
      std::lock_guard<std::mutex> lock(g_log_mutex);
      g_log.emplace_back(message);
    };
    return hxrt::Runtime::create(options);
  }();
  return made;
}

bool is_client() { return runtime().cluster().rank == 0; }
int tasks() { return static_cast<int>(runtime().cluster().tasks.size()); }

std::string task_device(int task, const std::string& device) {
  return "/job:worker/replica:0/task:" + std::to_string(task) + "/device:" + device;
}

std::string device_of(const hxrt::Executable& executable, const std::string& node) {
  for (const hxrt::NodePlacement& placed : executable.placement()) {
    if (placed.node == node) return placed.device;
  }
  return "(not placed)";
}

std::vector<unsigned char> bytes_of(const hxrt::Tensor& tensor) {
  std::vector<unsigned char> bytes(tensor.byte_size());
  tensor.copy_to_host(bytes.data(), bytes.size());
  return bytes;
}

}  // namespace

TEST_CASE("a graph runs its nodes on the tasks they ask for, and the client gets the fetches") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{2, 2});
  NodeOutput w = builder.constant("w", rt.tensor<float>({2, 2}, {1, -1, 2, 0}));
  NodeOutput mm = builder.add("mm", "MatMul", {x, w}, {}, task_device(1, "CPU:0"));
  // On every task in turn, then back to the client: one stage per task.
  NodeOutput last = mm;
  for (int task = 2; task < tasks(); ++task) {
    last = builder.add("add" + std::to_string(task), "Add", {last, w}, {},
                       task_device(task, "CPU:0"));
  }
  builder.add("relu", "Relu", {last});
  hxrt::Executable executable = rt.compile(builder.build(), {{"relu", 0}, {"mm", 0}});

  CHECK(device_of(executable, "mm") == task_device(1, "CPU:0"));
  // A constant goes with its first consumer's task; a node that names no task, the client's.
  CHECK_THAT(device_of(executable, "w"), Catch::StartsWith(task_device(1, "")));
  CHECK_THAT(device_of(executable, "relu"), Catch::StartsWith(task_device(0, "")));
  const std::vector<std::string> transfers = executable.transfers();
  CHECK(std::count(transfers.begin(), transfers.end(),
                   "x:0 from /job:worker/replica:0/task:0 to /job:worker/replica:0/task:1") == 1);

  // The placement given back, with the feeds' devices, compiles to the same placement.
  hxrt::CompileOptions again;
  again.placement = executable.placement_map();
  again.feed_devices = {{"x", task_device(0, "CPU:0")}};
  hxrt::Executable replaced = rt.compile(builder.build(), {{"relu", 0}, {"mm", 0}}, again);
  CHECK(replaced.placement_map() == executable.placement_map());

  for (int run = 0; run < 3; ++run) {
    const float scale = static_cast<float>(run + 1);
    std::vector<hxrt::Tensor> out =
        executable.run({{"x", rt.tensor<float>({2, 2}, {scale, 2, 3, 4})}});
    // x @ w, then + w once per further task, then ReLU.
    std::vector<float> expected = {scale * 1 + 2 * 2, scale * -1, 3 + 8, -3};
    CHECK(out[1].to_vector<float>() == expected);
    const std::vector<float> w_values = {1, -1, 2, 0};
    for (int task = 2; task < tasks(); ++task) {
      for (size_t i = 0; i < 4; ++i) expected[i] += w_values[i];
    }
    for (float& value : expected) value = std::max(value, 0.0f);
    CHECK(out[0].to_vector<float>() == expected);
  }
}

TEST_CASE("the client logs the whole placement, each node on its task's device") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{3});
  builder.add("neg", "Neg", {x}, {}, task_device(1, "CPU:0"));
  {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    g_log.clear();
  }
  rt.set_log_device_placement(true);
  hxrt::Executable executable = rt.compile(builder.build(), {{"neg", 0}});
  rt.set_log_device_placement(false);
  std::string log;
  {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    for (const std::string& line : g_log) log += line + "\n";
  }
  CHECK_THAT(log, Contains("neg: (Neg): " + task_device(1, "CPU:0")));
  CHECK_THAT(log, Contains("x: (Placeholder): " + task_device(1, "CPU:0")));
  CHECK(executable.run({rt.tensor<float>({3}, {1, -2, 0})})[0].to_vector<float>() ==
        std::vector<float>{-1, 2, 0});
}

TEST_CASE("every dtype, and empty tensors, go between tasks as they are") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  for (int code = 1; code <= 17; ++code) {
    const auto dtype = static_cast<DType>(code);
    for (const Shape& shape : {Shape{5}, Shape{0}, Shape{2, 0, 3}}) {
      INFO(hxrt::dtype_name(dtype) << shape.to_string());
      hxrt::GraphBuilder builder(rt);
      NodeOutput x = builder.input("x", dtype, shape);
      builder.add("copy", "Identity", {x}, {}, task_device(tasks() - 1, "CPU:0"));
      hxrt::Executable executable = rt.compile(builder.build(), {{"copy", 0}});
      std::vector<unsigned char> elements(hxrt::tensor_bytes(dtype, shape));
      std::iota(elements.begin(), elements.end(), static_cast<unsigned char>(code));
      if (dtype == DType::kBool) {
        for (unsigned char& element : elements) element &= 1;
      }
      const hxrt::Tensor fed = rt.from_host(dtype, shape, elements.data(), elements.size());
      const hxrt::Tensor out = executable.run({fed})[0];
      CHECK(out.dtype() == dtype);
      CHECK(out.shape() == shape);
      CHECK(bytes_of(out) == elements);
    }
  }
}

TEST_CASE("a node on another task waits for its control inputs there") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{2});
  builder.add("here", "Neg", {x});
  builder.add("there", "Abs", {x}, {}, task_device(1, "CPU:0"), {"here"});
  hxrt::Executable executable = rt.compile(builder.build(), {{"there", 0}, {"here", 0}});
  const std::vector<std::string> transfers = executable.transfers();
  CHECK(std::count(transfers.begin(), transfers.end(),
                   "'here' ran from /job:worker/replica:0/task:0 to "
                   "/job:worker/replica:0/task:1") == 1);
  const std::vector<hxrt::Tensor> out = executable.run({rt.tensor<float>({2}, {-1, 2})});
  CHECK(out[0].to_vector<float>() == std::vector<float>{1, 2});
  CHECK(out[1].to_vector<float>() == std::vector<float>{1, -2});
}

TEST_CASE("a node on another task's simulated accelerator runs there") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{2, 2});
  builder.add("mm", "MatMul", {x, x}, {}, task_device(1, "SIM:0"));
  hxrt::Executable executable = rt.compile(builder.build(), {{"mm", 0}});
  CHECK(device_of(executable, "mm") == task_device(1, "SIM:0"));
  CHECK(executable.run({rt.tensor<float>({2, 2}, {1, 2, 3, 4})})[0].to_vector<float>() ==
        std::vector<float>{7, 10, 15, 22});
}

TEST_CASE("a request naming no task of the cluster is refused at compile, naming the node") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{2});
  builder.add("far", "Neg", {x}, {}, "/job:ps/replica:0/task:0/device:CPU:0");
  CHECK_THROWS_WITH(rt.compile(builder.build(), {{"far", 0}}),
                    Contains("graph node 'far' asks for /job:ps/replica:0/task:0/device:CPU:0, "
                             "which names no task of this cluster; its tasks are "
                             "/job:worker/replica:0/task:0, /job:worker/replica:0/task:1"));
}

TEST_CASE("a task that cannot compile its part is named in the compile's error") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{2});
  builder.add("gpu", "Neg", {x}, {}, task_device(1, "GPU:0"));
  CHECK_THROWS_WITH(rt.compile(builder.build(), {{"gpu", 0}}),
                    Contains("/job:worker/replica:0/task:1, compiling its part of the graph: "));
  rt.set_soft_placement(hxrt::SoftPlacement::kFallbackOnMissingKernel);
}

TEST_CASE("256 MiB go between tasks and back", "[.large]") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  const int64_t elements = int64_t{64} << 20;
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{elements});
  builder.add("copy", "Identity", {x}, {}, task_device(1, "CPU:0"));
  hxrt::Executable executable = rt.compile(builder.build(), {{"copy", 0}});
  std::vector<float> values(static_cast<size_t>(elements));
  std::iota(values.begin(), values.end(), 0.0f);
  const hxrt::Tensor out = executable.run({rt.tensor<float>({elements}, values)})[0];
  std::vector<float> back(values.size());
  out.copy_to_host(back.data(), back.size() * sizeof(float));
  CHECK(back == values);
}

TEST_CASE("a part that fails on another task fails the run, naming the task and the node") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput indices = builder.input("indices", DType::kI64, Shape{2});
  NodeOutput table = builder.constant("table", rt.tensor<float>({3}, {10, 20, 30}));
  builder.add("pick", "Gather", {table, indices}, {}, task_device(1, "CPU:0"));
  hxrt::Executable executable = rt.compile(builder.build(), {{"pick", 0}});
  CHECK(executable.run({rt.tensor<int64_t>({2}, {2, 0})})[0].to_vector<float>() ==
        std::vector<float>{30, 10});
  try {
    executable.run({rt.tensor<int64_t>({2}, {1, 7})});
    FAIL("a Gather out of range ran");
  } catch (const hxrt::Error& error) {
    CHECK_THAT(error.what(), Catch::StartsWith("/job:worker/replica:0/task:1: graph node 'pick' "
                                               "(Gather)"));
  }
  // What the failed run left in flight could be taken for another's: the executable is done.
  try {
    executable.run({rt.tensor<int64_t>({2}, {0, 1})});
    FAIL("a failed executable ran again");
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kFailedPrecondition);
    CHECK_THAT(error.what(), Contains("compile the graph again"));
  }
  // A new compile of the graph runs.
  hxrt::Executable again = rt.compile(builder.build(), {{"pick", 0}});
  CHECK(again.run({rt.tensor<int64_t>({2}, {0, 1})})[0].to_vector<float>() ==
        std::vector<float>{10, 20});
}

TEST_CASE("AllReduce over the replicas of every task gives each task the reduction") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  // Replica k is x * (k + 1); two per task, on its CPU and its simulated accelerator.
  const std::vector<float> x_values = {1, -2, 3, 0.5f};
  const int replicas = 2 * tasks();
  for (const std::string reduction : {"sum", "mean", "max", "min"}) {
    INFO(reduction);
    hxrt::GraphBuilder builder(rt);
    NodeOutput x = builder.input("x", DType::kF32, Shape{4});
    std::vector<NodeOutput> parts;
    for (int k = 0; k < replicas; ++k) {
      const int task = k / 2;
      const std::string device = task_device(task, k % 2 == 0 ? "CPU:0" : "SIM:0");
      NodeOutput scale = builder.constant("scale" + std::to_string(k),
                                          rt.tensor<float>({4}, std::vector<float>(4, k + 1.0f)),
                                          device);
      parts.push_back(builder.add("replica" + std::to_string(k), "Mul", {x, scale}, {}, device));
    }
    NodeOutput reduced = builder.add("reduced", "AllReduce", parts, {{"reduction", reduction}});
    std::vector<NodeOutput> fetches;
    for (int task = 0; task < tasks(); ++task) {
      const std::string name = "read" + std::to_string(task);
      builder.add(name, "Identity", {reduced}, {}, task_device(task, "CPU:0"));
      fetches.push_back({name, 0});
    }
    hxrt::Executable executable = rt.compile(builder.build(), fetches);
    CHECK_THAT(device_of(executable, "reduced"), Catch::StartsWith(task_device(0, "")));
    std::vector<float> expected;
    for (float value : x_values) {
      float sum = 0;
      float high = value;
      float low = value;
      for (int k = 0; k < replicas; ++k) {
        sum += value * static_cast<float>(k + 1);
        high = std::max(high, value * static_cast<float>(k + 1));
        low = std::min(low, value * static_cast<float>(k + 1));
      }
      expected.push_back(reduction == "sum"    ? sum
                         : reduction == "mean" ? sum / static_cast<float>(replicas)
                         : reduction == "max"  ? high
                                               : low);
    }
    for (int run = 0; run < 2; ++run) {
      const std::vector<hxrt::Tensor> out = executable.run({rt.tensor<float>({4}, x_values)});
      for (const hxrt::Tensor& read : out) CHECK(read.to_vector<float>() == expected);
    }
  }
}

TEST_CASE("AllReduce across tasks of integers, and a refusal of float16 which MPI cannot reduce") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kI32, Shape{3});
  NodeOutput here = builder.add("here", "Neg", {x});
  NodeOutput there = builder.add("there", "Identity", {x}, {}, task_device(1, "CPU:0"));
  builder.add("mean", "AllReduce", {here, there, there}, {{"reduction", "mean"}});
  // On the last task, after the AllReduce: with four tasks, one outside its group, which waits
  // for the word that it ran.
  builder.add("after", "Abs", {x}, {}, task_device(tasks() - 1, "CPU:0"), {"mean"});
  hxrt::Executable executable = rt.compile(builder.build(), {{"mean", 0}, {"after", 0}});
  // (-x + x + x) / 3, truncated toward zero.
  const std::vector<hxrt::Tensor> out = executable.run({rt.tensor<int32_t>({3}, {7, -8, 2})});
  CHECK(out[0].to_vector<int32_t>() == std::vector<int32_t>{2, -2, 0});
  CHECK(out[1].to_vector<int32_t>() == std::vector<int32_t>{7, 8, 2});

  hxrt::GraphBuilder halves(rt);
  NodeOutput h = halves.input("h", DType::kF16, Shape{3});
  NodeOutput far = halves.add("far", "Identity", {h}, {}, task_device(1, "CPU:0"));
  halves.add("sum", "AllReduce", {h, far});
  CHECK_THROWS_WITH(rt.compile(halves.build(), {{"sum", 0}}),
                    Contains("graph node 'sum' (AllReduce) reduces float16 replicas across "
                             "tasks, which MPI cannot reduce"));
}

TEST_CASE("AllGather across tasks joins the replicas in replica order, of any dtype") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  // Replica k is x + k, on task k % tasks: the tasks' replicas interleave.
  const int replicas = 2 * tasks();
  for (const DType dtype : {DType::kF32, DType::kF16, DType::kI64}) {
    INFO(hxrt::dtype_name(dtype));
    hxrt::GraphBuilder builder(rt);
    NodeOutput x = builder.input("x", DType::kF32, Shape{2});
    std::vector<NodeOutput> parts;
    for (int k = 0; k < replicas; ++k) {
      const std::string device = task_device(k % tasks(), "CPU:0");
      NodeOutput offset = builder.constant("offset" + std::to_string(k),
                                           rt.tensor<float>({2}, std::vector<float>(2, k)),
                                           device);
      NodeOutput sum = builder.add("sum" + std::to_string(k), "Add", {x, offset}, {}, device);
      parts.push_back(builder.add("replica" + std::to_string(k), "Cast", {sum},
                                  {{"dtype", dtype}}, device));
    }
    builder.add("gathered", "AllGather", parts);
    builder.add("back", "Cast", {NodeOutput{"gathered", 0}}, {{"dtype", DType::kF32}},
                task_device(tasks() - 1, "CPU:0"));
    hxrt::Executable executable = rt.compile(builder.build(), {{"back", 0}});
    std::vector<float> expected;
    for (int k = 0; k < replicas; ++k) {
      expected.push_back(1.0f + static_cast<float>(k));
      expected.push_back(-2.0f + static_cast<float>(k));
    }
    CHECK(executable.run({rt.tensor<float>({2}, {1, -2})})[0].to_vector<float>() == expected);
  }
}

TEST_CASE("ReduceScatter across tasks gives each replica its shard, read on its own task") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  // Replica k is x * (k + 1), on task k % tasks; each reads its shard back on its task.
  const int replicas = 2 * tasks();
  for (const std::string reduction : {"sum", "mean", "max"}) {
    INFO(reduction);
    hxrt::GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, Shape{replicas, 2});
    std::vector<NodeOutput> parts;
    for (int k = 0; k < replicas; ++k) {
      const std::string device = task_device(k % tasks(), "CPU:0");
      const NodeOutput scale = builder.constant(
          "scale" + std::to_string(k),
          rt.tensor<float>({}, std::vector<float>{static_cast<float>(k + 1)}), device);
      parts.push_back(builder.add("replica" + std::to_string(k), "Mul", {x, scale}, {}, device));
    }
    builder.add("rs", "ReduceScatter", parts, {{"reduction", reduction}});
    std::vector<NodeOutput> fetches;
    for (int k = 0; k < replicas; ++k) {
      fetches.push_back(builder.add("read" + std::to_string(k), "Identity",
                                    {NodeOutput{"rs", k}}, {},
                                    task_device(k % tasks(), "CPU:0")));
    }
    hxrt::Executable executable = rt.compile(builder.build(), fetches);
    std::vector<float> x_values;
    for (int row = 0; row < replicas; ++row) {
      x_values.push_back(static_cast<float>(row));
      x_values.push_back(-1.0f);
    }
    const std::vector<hxrt::Tensor> got =
        executable.run({rt.tensor<float>({replicas, 2}, x_values)});
    // Row k's x times the sum of (k + 1) over the replicas, its mean, or (the largest of
    // x * (k + 1)) the largest for x >= 0 and the smallest, 1, for x = -1.
    const float sum = static_cast<float>(replicas * (replicas + 1) / 2);
    const float factor = reduction == "sum"    ? sum
                         : reduction == "mean" ? sum / static_cast<float>(replicas)
                                               : static_cast<float>(replicas);
    for (int k = 0; k < replicas; ++k) {
      CHECK(got[static_cast<size_t>(k)].to_vector<float>() ==
            std::vector<float>{static_cast<float>(k) * factor,
                               reduction == "max" ? -1.0f : -factor});
    }
  }
}

TEST_CASE("Broadcast across tasks gives each task that reads it the root's tensor") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput x = builder.input("x", DType::kF32, Shape{3});
  NodeOutput root = builder.add("root", "Neg", {x}, {}, task_device(1, "CPU:0"));
  builder.add("shared", "Broadcast", {root});
  std::vector<NodeOutput> fetches;
  for (int task = 0; task < tasks(); ++task) {
    const std::string name = "read" + std::to_string(task);
    builder.add(name, "Abs", {NodeOutput{"shared", 0}}, {}, task_device(task, "CPU:0"));
    fetches.push_back({name, 0});
  }
  fetches.push_back({"shared", 0});
  hxrt::Executable executable = rt.compile(builder.build(), fetches);
  CHECK_THAT(device_of(executable, "shared"), Catch::StartsWith(task_device(1, "")));
  const std::vector<hxrt::Tensor> out = executable.run({rt.tensor<float>({3}, {1, -2, 3})});
  for (int task = 0; task < tasks(); ++task) {
    CHECK(out[static_cast<size_t>(task)].to_vector<float>() == std::vector<float>{1, 2, 3});
  }
  CHECK(out.back().to_vector<float>() == std::vector<float>{-1, 2, -3});
}

TEST_CASE("the compile options' graph passes apply to the parts on other tasks") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput a = builder.constant("a", rt.tensor<float>({2}, {1, 2}), task_device(1, "CPU:0"));
  builder.add("sum", "Add", {a, a}, {}, task_device(1, "CPU:0"));
  const auto op_of = [](const hxrt::Executable& executable, const std::string& node) {
    for (const hxrt::NodePlacement& placed : executable.placement()) {
      if (placed.node == node) return placed.op;
    }
    return std::string("(not placed)");
  };
  // Folded into a constant at compile by default; kept as an op with the pass off.
  hxrt::Executable folded = rt.compile(builder.build(), {{"sum", 0}});
  CHECK(op_of(folded, "sum") == "Const");
  hxrt::CompileOptions options;
  options.passes.fold_constants = false;
  hxrt::Executable kept = rt.compile(builder.build(), {{"sum", 0}}, options);
  CHECK(op_of(kept, "sum") == "Add");
  CHECK(kept.run(std::vector<hxrt::Tensor>{})[0].to_vector<float>() == std::vector<float>{2, 4});
}

namespace {

// Every task's CPU at 0.1 GFLOP/s and its sim device at 1 MFLOP/s (each task's devices cost as
// this task's alike do): a branch's MatMuls then take seconds by the model, against copies of
// milliseconds at worst, so that the placer's choices do not hang on the network a loaded
// machine measures, nor on a calibration.
hxrt::CompileOptions dynamic_with_known_speeds() {
  const std::string cpu = task_device(0, "CPU:0");
  const std::string sim = task_device(0, "SIM:0");
  hxrt::CompileOptions options;
  options.placer = hxrt::GraphPlacer::kDynamic;
  options.cost_model_json = R"({"format": "hxrt cost model", "version": 1, "devices": {
    ")" + cpu + R"(": {"speed": {"flops_per_second": 1e8, "bytes_per_second": 1e10,
                               "latency": 1e-6}},
    ")" + sim + R"(": {"speed": {"flops_per_second": 1e6, "bytes_per_second": 1e6,
                               "latency": 1e-3}}},
    "links": [], "copies": []})";
  return options;
}

}  // namespace

TEST_CASE("the dynamic placer spreads heavy branches over the tasks, each with its reason") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  const int64_t n = 256;
  constexpr int kLayers = 8;
  const NodeOutput x = builder.input("x", DType::kF32, Shape{n, n});
  const NodeOutput w = builder.constant(
      "w", rt.tensor<float>({n, n}, std::vector<float>(static_cast<size_t>(n * n), 1.0f / n)));
  std::vector<NodeOutput> fetches;
  for (int branch = 0; branch < tasks(); ++branch) {
    NodeOutput value = x;
    for (int layer = 0; layer < kLayers; ++layer) {
      value = builder.add("b" + std::to_string(branch) + "_" + std::to_string(layer), "MatMul",
                          {value, w});
    }
    fetches.push_back(value);
  }
  // Each branch 2.7 s of MatMuls by the model; x (256 KiB) goes to another task in well under
  // that on whatever network a loaded machine measures.
  hxrt::Executable spread = rt.compile(builder.build(), fetches, dynamic_with_known_speeds());
  std::vector<std::string> devices;
  for (int branch = 0; branch < tasks(); ++branch) {
    const std::string first = device_of(spread, "b" + std::to_string(branch) + "_0");
    // A branch stays on one device, its layers after each other.
    CHECK(device_of(spread, "b" + std::to_string(branch) + "_" + std::to_string(kLayers - 1)) ==
          first);
    devices.push_back(first);
  }
  std::sort(devices.begin(), devices.end());
  std::vector<std::string> every_cpu;
  for (int task = 0; task < tasks(); ++task) every_cpu.push_back(task_device(task, "CPU:0"));
  CHECK(devices == every_cpu);
  for (const hxrt::NodePlacement& placed : spread.placement()) {
    if (placed.op != "MatMul" || placed.device == task_device(0, "CPU:0")) continue;
    CHECK_THAT(placed.reason, Contains(": MatMul 335.55 ms there vs 335.55 ms on task:"));
    CHECK(placed.estimates.size() == static_cast<size_t>(2 * tasks()));
  }
  const hxrt::Tensor ones =
      rt.tensor<float>({n, n}, std::vector<float>(static_cast<size_t>(n * n), 1.0f));
  const std::vector<hxrt::Tensor> results = spread.run({{"x", ones}});
  REQUIRE(results.size() == static_cast<size_t>(tasks()));
  for (const hxrt::Tensor& result : results) {
    const std::vector<float> values = result.to_vector<float>();
    CHECK(std::all_of(values.begin(), values.end(), [](float v) { return v == 1.0f; }));
  }
  // Compiled again from its own placement, it stays where it is.
  hxrt::CompileOptions again = dynamic_with_known_speeds();
  again.placement = spread.placement_map();
  CHECK(rt.compile(builder.build(), fetches, again).placement_map() == spread.placement_map());
}

TEST_CASE("the dynamic placer keeps ops cheaper than the network on the client") {
  if (!is_client()) return;
  hxrt::Runtime& rt = runtime();
  hxrt::GraphBuilder builder(rt);
  NodeOutput value = builder.input("x", DType::kF32, Shape{16});
  for (int i = 0; i < 6; ++i) value = builder.add("relu" + std::to_string(i), "Relu", {value});
  hxrt::Executable kept = rt.compile(builder.build(), {value}, dynamic_with_known_speeds());
  for (const hxrt::NodePlacement& placed : kept.placement()) {
    CHECK(placed.device == task_device(0, "CPU:0"));
  }
  CHECK(kept.transfers().empty());
}

// MirroredStrategy in one process: its replicas' devices, by default and by name, the graph it
// builds (a replica per device, an AllReduce per result), and its errors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "runtime_fixture.hpp"

namespace {

using Catch::Matchers::Contains;
using hxrt::NodeOutput;

hxrt::Runtime cpu_and_sim_gpus(int gpus) {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_paths.push_back(std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so");
  options.plugin_options["sim"] =
      R"({"device_type": "GPU", "device_count": )" + std::to_string(gpus) + "}";
  return hxrt::Runtime::create(options);
}

std::string full(const std::string& short_name) {
  return "/job:localhost/replica:0/task:0/device:" + short_name;
}

std::string device_of(const hxrt::Executable& executable, const std::string& node) {
  for (const hxrt::NodePlacement& placed : executable.placement()) {
    if (placed.node == node) return placed.device;
  }
  return "(not placed)";
}

}  // namespace

TEST_CASE("MirroredStrategy replicates on every GPU, else on the CPU, or on the devices named") {
  hxrt::Runtime four = cpu_and_sim_gpus(4);
  CHECK(hxrt::MirroredStrategy(four).devices() ==
        std::vector<std::string>{full("GPU:0"), full("GPU:1"), full("GPU:2"), full("GPU:3")});
  CHECK(hxrt::MirroredStrategy(four, {"GPU:3", "/CPU:0"}).devices() ==
        std::vector<std::string>{full("GPU:3"), full("CPU:0")});
  CHECK(hxrt::MirroredStrategy(four).num_replicas_in_sync() == 4);
  hxrt::Runtime cpu = hxrt::Runtime::create(runtime_test::cpu_only_options());
  CHECK(hxrt::MirroredStrategy(cpu).devices() == std::vector<std::string>{full("CPU:0")});
  CHECK_THROWS_WITH(hxrt::MirroredStrategy(four, {"GPU:7"}),
                    Contains("MirroredStrategy: no device is named 'GPU:7'"));
  CHECK_THROWS_WITH(hxrt::MirroredStrategy(four, {"/job:worker/task:1/device:GPU:0"}),
                    Contains("no device is named"));
}

TEST_CASE("MirroredStrategy builds a replica per device and reduces each result over them") {
  hxrt::Runtime rt = cpu_and_sim_gpus(3);
  const hxrt::MirroredStrategy strategy(rt);
  hxrt::GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {2});
  const std::vector<NodeOutput> reduced = strategy.reduce(
      builder,
      [&](hxrt::GraphBuilder& replica_builder, const hxrt::MirroredStrategy::Replica& replica) {
        const NodeOutput scale = replica_builder.constant(
            replica.prefix + "scale",
            rt.tensor<float>({2}, std::vector<float>(2, replica.index + 1.0f)));
        const NodeOutput scaled =
            replica_builder.add(replica.prefix + "scaled", "Mul", {x, scale});
        return std::vector<NodeOutput>{scaled, replica_builder.add(replica.prefix + "double",
                                                                   "Add", {scaled, scaled})};
      },
      "mean", "averaged");
  REQUIRE(reduced.size() == 2);
  CHECK(reduced[0].node == "averaged");
  CHECK(reduced[1].node == "averaged_1");
  const hxrt::Executable executable = rt.compile(builder.graph(), reduced);
  for (int replica = 0; replica < 3; ++replica) {
    CHECK(device_of(executable, "replica_" + std::to_string(replica) + "/scaled") ==
          full("GPU:" + std::to_string(replica)));
  }
  // x * (1 + 2 + 3) / 3, and twice that.
  const std::vector<hxrt::Tensor> out = executable.run({rt.tensor<float>({2}, {1, -3})});
  CHECK(out[0].to_vector<float>() == std::vector<float>{2, -6});
  CHECK(out[1].to_vector<float>() == std::vector<float>{4, -12});
}

TEST_CASE("MirroredStrategy refuses replicas that return different numbers of results") {
  hxrt::Runtime rt = cpu_and_sim_gpus(2);
  const hxrt::MirroredStrategy strategy(rt);
  hxrt::GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {2});
  CHECK_THROWS_WITH(
      strategy.reduce(builder,
                      [&](hxrt::GraphBuilder& b, const hxrt::MirroredStrategy::Replica& replica) {
                        std::vector<NodeOutput> results{b.add(replica.prefix + "a", "Neg", {x})};
                        if (replica.index == 1) results.push_back(results[0]);
                        return results;
                      }),
      Contains("replica 1 returned 2 results and replica 0 1"));
}

TEST_CASE("the collectives refuse replicas of two shapes, and a reduction they do not know") {
  hxrt::Runtime rt = cpu_and_sim_gpus(2);
  hxrt::GraphBuilder builder(rt);
  const NodeOutput a = builder.input("a", hxrt::DType::kF32, {2});
  const NodeOutput b = builder.input("b", hxrt::DType::kF32, {3});
  for (const std::string op : {"AllReduce", "AllGather", "ReduceScatter"}) {
    CHECK_THROWS_WITH(builder.add("two_shapes_" + op, op, {a, b}),
                      Contains("replica 1's tensor has shape [3] but replica 0's has [2]"));
  }
  CHECK_THROWS_WITH(builder.add("median", "AllReduce", {a, a}, {{"reduction", "median"}}),
                    Contains("reduction \"median\" is none of \"sum\", \"mean\", \"max\", "
                             "\"min\""));
  // Gathered along axis 0; scalars become a vector.
  const NodeOutput s = builder.input("s", hxrt::DType::kF32, {});
  builder.add("gathered", "AllGather", {a, a, a});
  builder.add("scalars", "AllGather", {s, s});
  const hxrt::Graph graph = builder.build();
  CHECK(graph.find("gathered")->output_shapes[0] == hxrt::Shape{6});
  CHECK(graph.find("scalars")->output_shapes[0] == hxrt::Shape{2});
}

TEST_CASE("ReduceScatter gives each replica its shard of the reduction, on its device") {
  hxrt::Runtime rt = cpu_and_sim_gpus(3);
  // Eagerly: one shard per replica.
  const hxrt::Tensor a = rt.tensor<float>({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const hxrt::Tensor b = rt.tensor<float>({4, 2}, {10, 20, 30, 40, 50, 60, 70, 80});
  const std::vector<hxrt::Tensor> shards = rt.execute_multi("ReduceScatter", {a, b});
  REQUIRE(shards.size() == 2);
  CHECK(shards[0].to_vector<float>() == std::vector<float>{11, 22, 33, 44});
  CHECK(shards[1].to_vector<float>() == std::vector<float>{55, 66, 77, 88});
  const std::vector<hxrt::Tensor> maxima =
      rt.execute_multi("ReduceScatter", {a, b}, {{"reduction", "max"}});
  CHECK(maxima[1].to_vector<float>() == std::vector<float>{50, 60, 70, 80});

  // In a graph of three replicas on three GPUs, each reads its shard there.
  hxrt::GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {6});
  std::vector<NodeOutput> replicas;
  for (int i = 0; i < 3; ++i) {
    replicas.push_back(builder.add("scaled" + std::to_string(i), "Mul", {x, x}, {},
                                   "/GPU:" + std::to_string(i)));
  }
  builder.add("rs", "ReduceScatter", replicas, {{"reduction", "mean"}});
  std::vector<NodeOutput> read;
  for (int i = 0; i < 3; ++i) {
    read.push_back(builder.add("read" + std::to_string(i), "Relu", {{"rs", i}}, {},
                               "/GPU:" + std::to_string(i)));
  }
  const hxrt::Executable exe = rt.compile(builder.graph(), read);
  CHECK(device_of(exe, "read2") == full("GPU:2"));
  const std::vector<hxrt::Tensor> got =
      exe.run({{"x", rt.tensor<float>({6}, {1, 2, 3, 4, 5, 6})}});
  CHECK(got[0].to_vector<float>() == std::vector<float>{1, 4});
  CHECK(got[2].to_vector<float>() == std::vector<float>{25, 36});

  hxrt::GraphBuilder odd(rt);
  const NodeOutput y = odd.input("y", hxrt::DType::kF32, {5});
  CHECK_THROWS_WITH(odd.add("rs", "ReduceScatter", {y, y}),
                    Contains("whose axis 0 does not split into 2 equal shards"));
}

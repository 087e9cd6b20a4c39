// A traced graph run: the same Chrome trace JSON as eager mode, each op named by its node,
// with host spans on the inter-op threads and kernel spans on the devices.
#include <catch2/catch.hpp>

#include <hxrt/hxrt.hpp>

#include <set>

#include "temp_dir.hpp"
#include "trace_reading.hpp"

using trace_test::events;
using trace_test::json;

TEST_CASE("a traced graph run names every node's op and kernel spans") {
  hxrt_test::TempDir dir("hxrt_trace_graph");
  const std::string path = (dir.path() / "trace.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {2, 2});
  const hxrt::NodeOutput on_gpu = builder.add("square", "MatMul", {x, x}, {}, "/GPU:0");
  const hxrt::NodeOutput on_cpu = builder.add("rectify", "Relu", {on_gpu}, {}, "/CPU:0");
  const hxrt::Executable exe = rt.compile(builder.graph(), {on_cpu});
  const hxrt::Tensor fed = rt.tensor<float>({2, 2}, {1, -2, 3, -4}, "CPU:0");

  rt.start_trace(path);
  CHECK(exe.run({{"x", fed}})[0].to_vector<float>() == std::vector<float>{0, 6, 0, 10});
  CHECK(rt.stop_trace() == path);
  const json trace = trace_test::read_trace(path);

  const std::vector<json> square = events(trace, "op", "square (MatMul)");
  REQUIRE(square.size() == 1);
  CHECK(square[0].at("args").at("node") == "square");
  CHECK(square[0].at("args").at("op") == "MatMul");
  CHECK(square[0].at("args").at("device") == "/job:localhost/replica:0/task:0/device:GPU:0");
  CHECK(square[0].at("args").at("placement") == "as requested: /GPU:0");
  const std::vector<json> kernels = events(trace, "kernel", "square (MatMul)");
  REQUIRE(kernels.size() == 1);
  CHECK(trace_test::process_name(trace, kernels[0].at("pid")) ==
        "/job:localhost/replica:0/task:0/device:GPU:0");
  CHECK(events(trace, "op", "rectify (Relu)").size() == 1);
  CHECK(events(trace, "kernel", "rectify (Relu)").size() == 1);
  // The result crossed from the GPU to the CPU through a transfer step.
  CHECK_FALSE(events(trace, "copy").empty());
}

namespace {

// The host threads that the op spans of a traced run of `fetches`, fed `x`, were on.
std::set<int> op_threads(hxrt::Runtime& rt, const hxrt::GraphBuilder& builder,
                         const std::vector<hxrt::NodeOutput>& fetches, const hxrt::Tensor& x) {
  hxrt_test::TempDir dir("hxrt_trace_graph_threads");
  const std::string path = (dir.path() / "trace.json").string();
  const hxrt::Executable exe = rt.compile(builder.graph(), fetches);
  rt.start_trace(path);
  exe.run({{"x", x}});
  rt.stop_trace();
  std::set<int> threads;
  for (const json& op : events(trace_test::read_trace(path), "op")) {
    threads.insert(op.at("tid").get<int>());
  }
  return threads;
}

hxrt::RuntimeOptions with_inter_op_threads(hxrt::RuntimeOptions options, int threads) {
  options.inter_op_threads = threads;
  options.intra_op_threads = 1;
  return options;
}

}  // namespace

TEST_CASE("a graph given one inter-op thread runs every branch on the caller") {
  hxrt::Runtime rt =
      hxrt::Runtime::create(with_inter_op_threads(trace_test::cpu_and_two_sim_gpus(), 1));
  hxrt::GraphBuilder builder(rt);
  const auto scope = rt.device("/CPU:0");
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {64, 64});
  std::vector<hxrt::NodeOutput> fetches;
  for (const char* branch : {"left", "right"}) {
    hxrt::NodeOutput value = x;
    for (int i = 0; i < 10; ++i) {
      value = builder.add(branch + std::to_string(i), "MatMul", {value, x});
    }
    fetches.push_back(value);
  }
  const hxrt::Tensor fed = rt.tensor<float>({64, 64}, std::vector<float>(64 * 64, 0.01f), "CPU:0");
  CHECK(op_threads(rt, builder, fetches, fed).size() == 1);
}

TEST_CASE("a graph runs independent branches on the inter-op threads it is given") {
  // The MEET fixture's Relus complete only in pairs running at once: the run ends only if the
  // two branches ran on two threads, however slowly the machine schedules them.
  hxrt::RuntimeOptions options = with_inter_op_threads(trace_test::cpu_and_two_sim_gpus(), 2);
  options.plugin_paths.push_back(HXRT_TEST_FIXTURE_DIR "/graph/libhx_fixture_rendezvous.so");
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {2, 2});
  const hxrt::NodeOutput left = builder.add("left", "Relu", {x}, {}, "/MEET:0");
  const hxrt::NodeOutput right = builder.add("right", "Relu", {x}, {}, "/MEET:0");
  const hxrt::Tensor fed = rt.tensor<float>({2, 2}, {1, -2, 3, -4}, "CPU:0");
  CHECK(op_threads(rt, builder, {left, right}, fed).size() == 2);
}

TEST_CASE("a traced compile shows each graph pass with the nodes it changed") {
  hxrt_test::TempDir dir("hxrt_trace_graph_passes");
  const std::string path = (dir.path() / "trace.json").string();
  hxrt::Runtime rt = hxrt::Runtime::create(trace_test::cpu_and_two_sim_gpus());
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {2, 2});
  const hxrt::NodeOutput copy = builder.add("copy", "Identity", {x});
  const hxrt::NodeOutput rectified = builder.add("rectify", "Relu", {copy});
  rt.start_trace(path);
  rt.compile(builder.graph(), {rectified});
  CHECK(rt.stop_trace() == path);
  const json trace = trace_test::read_trace(path);
  const std::vector<json> removed = events(trace, "compile", "graph pass remove_identities");
  REQUIRE(removed.size() == 1);
  CHECK(removed[0].at("args").at("changed") == 1);
  CHECK(removed[0].at("args").at("nodes") == "copy");
  CHECK(events(trace, "compile", "graph pass fold_constants").size() == 1);
  CHECK(events(trace, "compile", "graph pass fuse_kernels").size() == 1);
}

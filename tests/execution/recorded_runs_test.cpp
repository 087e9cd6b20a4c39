// Graphs run by replay (plugin_api.h, "Recorded work"; core/src/graph/recorded_runs.hpp): a
// graph whose work lies on one sim GPU is recorded at its second run and replayed after, its
// feeds copied into the recording's memory and its fetches out of it. The sim's counters show
// what each run launched: kernel calls one by one, or one replay.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "execution_rig.hpp"

using namespace execution_test;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt::Tensor;

namespace {

constexpr int kChain = 20;

// x + w, + w again, ... kChain Adds on GPU:0, fetching the last and the input x itself.
hxrt::Executable add_chain(hxrt::Runtime& rt, const hxrt::CompileOptions& options = {}) {
  GraphBuilder builder(rt);
  const auto scope = rt.device("/GPU:0");
  const NodeOutput x = builder.input("x", DType::kF32, {2, 3});
  const NodeOutput w = builder.input("w", DType::kF32, {2, 3});
  NodeOutput sum = x;
  for (int i = 0; i < kChain; ++i) sum = builder.add("add" + std::to_string(i), "Add", {sum, w});
  return rt.compile(builder.graph(), {sum, x, sum}, options);
}

std::vector<float> expected_chain(const std::vector<float>& x, const std::vector<float>& w) {
  std::vector<float> out = x;
  for (size_t i = 0; i < out.size(); ++i) out[i] += kChain * w[i];
  return out;
}

struct Launches {
  uint64_t kernel_calls;
  uint64_t recorded_calls;
  uint64_t recordings;
  uint64_t replays;
};

Launches launches_since(const hx_sim_transfer_counts_t& before) {
  const hx_sim_transfer_counts_t now = sim_counts(0);
  return {now.kernel_calls - before.kernel_calls, now.recorded_calls - before.recorded_calls,
          now.recordings - before.recordings, now.replays - before.replays};
}

}  // namespace

TEST_CASE("A one-device graph is recorded at its second run and replayed in the runs after",
          "[execution][recorded]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::Executable exe = add_chain(rt);
  const hx_sim_transfer_counts_t before = sim_counts(0);
  for (int run = 0; run < 5; ++run) {
    // New feeds every run, from the host and from the GPU: a replay reads this run's.
    const std::vector<float> xs{1.f * run, 2, 3, 4, 5, 6}, ws{0.5f, 1, 1.5f, 2, 2.5f, 1.f * run};
    const Tensor x = rt.tensor<float>({2, 3}, xs, run % 2 ? "/CPU:0" : "/GPU:0");
    const Tensor w = rt.tensor<float>({2, 3}, ws, "/GPU:0");
    const std::vector<Tensor> out = exe.run({{"x", x}, {"w", w}});
    REQUIRE(out.size() == 3);
    CHECK(out[0].to_vector<float>() == expected_chain(xs, ws));
    CHECK(out[1].to_vector<float>() == xs);
    CHECK(out[2].to_vector<float>() == expected_chain(xs, ws));
    CHECK(out[0].device() == "/job:localhost/replica:0/task:0/device:GPU:0");
  }
  const Launches launched = launches_since(before);
  CHECK(launched.kernel_calls == kChain);  // the first run's, kernel by kernel
  CHECK(launched.recorded_calls == kChain);
  CHECK(launched.recordings == 1);
  CHECK(launched.replays == 4);
}

TEST_CASE("A fetched tensor of a replay is not overwritten by the next replay",
          "[execution][recorded]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::Executable exe = add_chain(rt);
  std::vector<Tensor> kept;
  for (int run = 0; run < 4; ++run) {
    const Tensor x = rt.tensor<float>({2, 3}, {1.f * run, 0, 0, 0, 0, 0}, "/GPU:0");
    const Tensor w = rt.tensor<float>({2, 3}, {1, 1, 1, 1, 1, 1}, "/GPU:0");
    kept.push_back(exe.run({{"x", x}, {"w", w}})[0]);
  }
  for (int run = 0; run < 4; ++run) {
    CHECK(kept[static_cast<size_t>(run)].to_vector<float>()[0] == run + kChain);
  }
}

TEST_CASE("Without the plugin's recording group every run launches each kernel",
          "[execution][recorded]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"recording\":false");
  const hxrt::Executable exe = add_chain(rt);
  const hx_sim_transfer_counts_t before = sim_counts(0);
  const Tensor x = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/GPU:0");
  for (int run = 0; run < 4; ++run) {
    CHECK(exe.run({{"x", x}, {"w", x}})[0].to_vector<float>()[5] == 6 + 6 * kChain);
  }
  const Launches launched = launches_since(before);
  CHECK(launched.kernel_calls == 4 * kChain);
  CHECK(launched.recordings == 0);
  CHECK(launched.replays == 0);
}

TEST_CASE("Graphs over several devices, and the dynamic placer's, are not recorded",
          "[execution][recorded]") {
  hxrt::Runtime rt = runtime_with_gpus(2);
  const Tensor x = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/CPU:0");
  SECTION("two devices") {
    GraphBuilder builder(rt);
    const NodeOutput in = builder.input("x", DType::kF32, {2, 2});
    NodeOutput a, b;
    {
      const auto scope = rt.device("/GPU:0");
      a = builder.add("a", "Add", {in, in});
    }
    {
      const auto scope = rt.device("/GPU:1");
      b = builder.add("b", "Add", {a, in});
    }
    const hxrt::Executable exe = rt.compile(builder.graph(), {b});
    const hx_sim_transfer_counts_t before = sim_counts(0);
    for (int run = 0; run < 3; ++run) {
      CHECK(exe.run({{"x", x}})[0].to_vector<float>() == std::vector<float>{3, 6, 9, 12});
    }
    CHECK(launches_since(before).recordings == 0);
    CHECK(launches_since(before).kernel_calls == 3);
  }
  SECTION("the dynamic placer times each kernel, which a replay cannot") {
    hxrt::CompileOptions options;
    options.placer = hxrt::GraphPlacer::kDynamic;
    const hxrt::Executable exe = add_chain(rt, options);
    const Tensor x23 = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/GPU:0");
    const hx_sim_transfer_counts_t before = sim_counts(0);
    for (int run = 0; run < 3; ++run) (void)exe.run({{"x", x23}, {"w", x23}});
    CHECK(launches_since(before).recordings == 0);
  }
}

TEST_CASE("A replay whose work fails fails its run, names the node, and later runs work",
          "[execution][recorded]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"fault_ops\":[\"Relu\"]");
  GraphBuilder builder(rt);
  const auto scope = rt.device("/GPU:0");
  const NodeOutput x = builder.input("x", DType::kF32, {4});
  const NodeOutput sum = builder.add("sum", "Add", {x, x});
  const NodeOutput relu = builder.add("relu", "Relu", {sum});
  const hxrt::Executable good = rt.compile(builder.graph(), {sum});
  const hxrt::Executable bad = rt.compile(builder.graph(), {relu});
  const Tensor in = rt.tensor<float>({4}, {1, 2, 3, 4}, "/GPU:0");
  for (int run = 0; run < 3; ++run) {
    INFO("run " << run);
    const std::optional<hxrt::Error> error = error_from([&] { (void)bad.run({{"x", in}}); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("graph node 'relu' (Relu)"));
    CHECK(good.run({{"x", in}})[0].to_vector<float>() == std::vector<float>{2, 4, 6, 8});
  }
}

TEST_CASE("Runs of one recorded graph from many threads each get their own feeds' results",
          "[execution][recorded][threads]") {
  hxrt::Runtime rt = runtime_with_gpus(1);
  const hxrt::Executable exe = add_chain(rt);
  const Tensor w = rt.tensor<float>({2, 3}, {1, 1, 1, 1, 1, 1}, "/GPU:0");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 25; ++run) {
        const float first = static_cast<float>(100 * t + run);
        const Tensor x = rt.tensor<float>({2, 3}, {first, 0, 0, 0, 0, 0}, "/GPU:0");
        const std::vector<Tensor> out = exe.run({{"x", x}, {"w", w}});
        if (out[0].to_vector<float>()[0] != first + kChain) ++wrong;
        if (out[1].to_vector<float>()[0] != first) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == 0);
}

TEST_CASE("A recorded graph fed a tensor of failed work fails its run as an unrecorded one does",
          "[execution][recorded]") {
  hxrt::Runtime rt = runtime_with_gpus(1, "\"fault_ops\":[\"Relu\"]");
  const hxrt::Executable exe = add_chain(rt);
  const Tensor good = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/GPU:0");
  for (int run = 0; run < 3; ++run) (void)exe.run({{"x", good}, {"w", good}});
  const Tensor failed = rt.execute("Relu", {good}, {}, "/GPU:0");
  REQUIRE(error_from([&] { failed.wait(); }));  // the failure is known now
  const std::optional<hxrt::Error> error =
      error_from([&] { (void)exe.run({{"x", failed}, {"w", good}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("graph node 'add0' (Add)") &&
                                Catch::Contains("was written by work that failed"));
  CHECK(exe.run({{"x", good}, {"w", good}})[0].to_vector<float>()[0] == 1 + kChain);
}

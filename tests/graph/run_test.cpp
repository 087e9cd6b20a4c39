// Executable::run: feeds in, fetches out, many times and from many threads at once; results
// as eager execution gives them; a failing node (on the host or in queued work) stops the run,
// is named, and leaves the executable usable.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <atomic>
#include <thread>

#include "error_from.hpp"
#include "graph_support.hpp"

using graph_test::cpu_and_gpus;
using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using hxrt::Tensor;
using hxrt_test::error_from;

TEST_CASE("The guide's replication runs as one graph on four sim GPUs and the CPU", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(4, "\"launch_latency_us\":200");
  const hxrt::Executable exe =
      rt.compile(graph_test::replication_graph(rt, 4), {{"AddN", 0}});
  const Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "CPU:0");
  const Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "CPU:0");
  for (int run = 0; run < 5; ++run) {
    const std::vector<Tensor> out = exe.run({{"a", a}, {"b", b}});
    REQUIRE(out.size() == 1);
    CHECK(out[0].to_string() == "[[88, 112], [196, 256]]");
    CHECK(out[0].device() == "/job:localhost/replica:0/task:0/device:CPU:0");
  }
}

TEST_CASE("A graph gives what the same ops give eagerly, across the CPU and a GPU", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {4, 3});
  const NodeOutput w1 = builder.input("w1", DType::kF32, {3, 5});
  const NodeOutput b1 = builder.input("b1", DType::kF32, {5});
  const NodeOutput w2 = builder.input("w2", DType::kF32, {5, 2});
  NodeOutput hidden;
  {
    const auto scope = rt.device("/CPU:0");
    hidden = builder.add("relu1", "Relu",
                         {builder.add("add1", "Add", {builder.add("mm1", "MatMul", {x, w1}), b1})});
  }
  NodeOutput out;
  {
    const auto scope = rt.device("/GPU:0");
    out = builder.add("mm2", "MatMul", {hidden, w2});
  }
  const hxrt::Executable exe = rt.compile(builder.graph(), {out, hidden});

  std::vector<float> xs(12), w1s(15), b1s(5), w2s(10);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i % 5) - 2.0f;
  for (size_t i = 0; i < w1s.size(); ++i) w1s[i] = 0.25f * static_cast<float>(i % 7) - 0.5f;
  for (size_t i = 0; i < b1s.size(); ++i) b1s[i] = static_cast<float>(i) - 1.0f;
  for (size_t i = 0; i < w2s.size(); ++i) w2s[i] = 0.5f * static_cast<float>(i % 3);
  const Tensor tx = rt.tensor<float>({4, 3}, xs), tw1 = rt.tensor<float>({3, 5}, w1s),
               tb1 = rt.tensor<float>({5}, b1s), tw2 = rt.tensor<float>({5, 2}, w2s);

  const Tensor eager_mm1 = rt.execute("MatMul", {tx, tw1}, {}, "/CPU:0");
  Tensor eager_hidden =
      rt.execute("Relu", {rt.execute("Add", {eager_mm1, tb1}, {}, "/CPU:0")}, {}, "/CPU:0");
  Tensor eager_out = rt.execute("MatMul", {eager_hidden, tw2}, {}, "/GPU:0");

  const std::vector<Tensor> fetched = exe.run({{"x", tx}, {"w1", tw1}, {"b1", tb1}, {"w2", tw2}});
  REQUIRE(fetched.size() == 2);
  CHECK(fetched[0].to_vector<float>() == eager_out.to_vector<float>());
  CHECK(fetched[1].to_vector<float>() == eager_hidden.to_vector<float>());
  CHECK(fetched[0].device() == "/job:localhost/replica:0/task:0/device:GPU:0");
  // By position, in the order of inputs().
  CHECK(exe.inputs() == std::vector<std::string>{"x", "w1", "b1", "w2"});
  CHECK(exe.run(std::vector<Tensor>{tx, tw1, tb1, tw2})[0].to_vector<float>() ==
        eager_out.to_vector<float>());
}

TEST_CASE("Outputs past a node's first feed nodes on its device and on another, or are unused",
          "[graph]") {
  // LayerNormalization on the CPU gives Y, Mean and InvStdDev: a Mul on the CPU reads Mean,
  // a Mul on a GPU reads InvStdDev (a transfer of output 2), and InvStdDev is fetched as well.
  hxrt::Runtime rt = cpu_and_gpus(1);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 3});
  const NodeOutput scale = builder.input("scale", DType::kF32, {3});
  const NodeOutput two = builder.input("two", DType::kF32, {2, 1});
  const NodeOutput y = builder.add("norm", "LayerNormalization", {x, scale}, {}, "/CPU:0");
  const NodeOutput mean = NodeOutput{"norm", 1};
  const NodeOutput inverse = NodeOutput{"norm", 2};
  const NodeOutput twice_mean = builder.add("twice_mean", "Mul", {mean, two}, {}, "/CPU:0");
  const NodeOutput twice_inverse =
      builder.add("twice_inverse", "Mul", {inverse, two}, {}, "/GPU:0");
  CHECK(builder.graph().find("norm")->output_shapes[2] == hxrt::Shape({2, 1}));
  const auto refused = error_from([&] { builder.add("bad", "Relu", {NodeOutput{"norm", 3}}); });
  REQUIRE(refused);
  CHECK_THAT(refused->what(),
             Catch::Contains("input 0 names output 3 of 'norm', which has 3 outputs"));

  const Tensor tx = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 6, 8});
  const Tensor tscale = rt.tensor<float>({3}, {1, -1, 2});
  const Tensor ttwo = rt.tensor<float>({2, 1}, {2, 2});
  const std::vector<Tensor> eager = rt.execute_multi("LayerNormalization", {tx, tscale});
  REQUIRE(eager.size() == 3);
  const std::vector<float> mean_values = eager[1].to_vector<float>();
  const std::vector<float> inverse_values = eager[2].to_vector<float>();
  CHECK(mean_values == std::vector<float>{2, 6});

  const hxrt::Executable exe = rt.compile(builder.graph(), {y, twice_mean, twice_inverse,
                                                            inverse});
  CHECK(exe.transfers() == std::vector<std::string>{"norm:2 from CPU:0 to GPU:0",
                                                    "two:0 from CPU:0 to GPU:0"});
  const std::vector<Tensor> fetched = exe.run({{"x", tx}, {"scale", tscale}, {"two", ttwo}});
  REQUIRE(fetched.size() == 4);
  CHECK(fetched[0].to_vector<float>() == eager[0].to_vector<float>());
  CHECK(fetched[1].to_vector<float>() ==
        std::vector<float>{2 * mean_values[0], 2 * mean_values[1]});
  CHECK(fetched[2].to_vector<float>() ==
        std::vector<float>{2 * inverse_values[0], 2 * inverse_values[1]});
  CHECK(fetched[2].device() == graph_test::device("GPU:0"));
  CHECK(fetched[3].to_vector<float>() == inverse_values);

  // Fetching Y alone leaves Mean and InvStdDev written and read by nothing.
  const hxrt::Executable y_only = rt.compile(builder.graph(), {y});
  for (int run = 0; run < 2; ++run) {
    CHECK(y_only.run({{"x", tx}, {"scale", tscale}})[0].to_vector<float>() ==
          eager[0].to_vector<float>());
  }
}

TEST_CASE("Scalars, and a scalar broadcast over a matrix, run in a graph as they do eagerly",
          "[graph]") {
  // Operands of rank 0 beside others: each view's shape and strides are packed at compile
  // time, and a scalar's are empty.
  hxrt::Runtime rt = cpu_and_gpus(1);
  const auto scope = rt.device("/CPU:0");
  GraphBuilder builder(rt);
  const NodeOutput s = builder.input("s", DType::kF32, {});
  const NodeOutput m = builder.input("m", DType::kF32, {2, 3});
  const NodeOutput twice = builder.add("twice", "Add", {s, s});
  const NodeOutput shifted = builder.add("shifted", "Add", {m, twice});
  const NodeOutput product = builder.add("product", "Mul", {twice, shifted});
  const hxrt::Executable exe = rt.compile(builder.graph(), {twice, product});

  const Tensor ts = rt.tensor<float>({}, {1.5f});
  const Tensor tm = rt.tensor<float>({2, 3}, {0, 1, 2, 3, 4, 5});
  const Tensor eager_twice = rt.execute("Add", {ts, ts});
  const Tensor eager_product =
      rt.execute("Mul", {eager_twice, rt.execute("Add", {tm, eager_twice})});
  for (int run = 0; run < 3; ++run) {
    const std::vector<Tensor> fetched = exe.run({{"s", ts}, {"m", tm}});
    REQUIRE(fetched.size() == 2);
    CHECK(fetched[0].shape() == hxrt::Shape{});
    CHECK(fetched[0].to_vector<float>() == std::vector<float>{3.0f});
    CHECK(fetched[1].shape() == hxrt::Shape{2, 3});
    CHECK(fetched[1].to_vector<float>() == eager_product.to_vector<float>());
    CHECK(fetched[1].to_vector<float>() == std::vector<float>{9, 12, 15, 18, 21, 24});
  }
}

namespace {

// x + x + x of 64 f32 on CPU:0, the sum x + x in an arena of its own size.
hxrt::Executable tripling_graph(hxrt::Runtime& rt) {
  const auto scope = rt.device("/CPU:0");
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {64});
  const NodeOutput doubled = builder.add("doubled", "Add", {x, x});  // in the arena
  const NodeOutput out = builder.add("out", "Add", {doubled, x});
  hxrt::Executable exe = rt.compile(builder.graph(), {out});
  REQUIRE(exe.memory_plan().size() == 1);
  REQUIRE(exe.memory_plan()[0].arena_bytes == 64 * sizeof(float));
  return exe;
}

}  // namespace

TEST_CASE("A run whose arena is not where the last run's was works there, and leaves the "
          "memory at the old place alone", "[graph]") {
  // An executable keeps its operands' views bound to the last run's arena, and binds them
  // again only when a run's arena is elsewhere: here the old arena's block is an eager
  // tensor's by the second run (the allocator hands a freed block of the size out again).
  hxrt::Runtime rt = cpu_and_gpus(0);
  const hxrt::Executable exe = tripling_graph(rt);

  CHECK(exe.run({{"x", rt.tensor<float>({64}, std::vector<float>(64, 1.0f))}})[0]
            .to_vector<float>() == std::vector<float>(64, 3.0f));
  // Three tensors of the arena's size between runs take the blocks the last run freed (its
  // feed, arena and result), whatever order the allocator hands them out in.
  std::vector<Tensor> held;
  for (int i = 0; i < 12; ++i) {
    held.push_back(rt.tensor<float>({64}, std::vector<float>(64, static_cast<float>(100 + i))));
    if (i % 3 != 2) continue;
    const float v = static_cast<float>(i + 2);
    CHECK(exe.run({{"x", rt.tensor<float>({64}, std::vector<float>(64, v))}})[0]
              .to_vector<float>() == std::vector<float>(64, 3 * v));
  }
  for (int i = 0; i < 12; ++i) {
    CHECK(held[static_cast<size_t>(i)].to_vector<float>() ==
          std::vector<float>(64, static_cast<float>(100 + i)));
  }
}

TEST_CASE("Runs whose arenas alternate between two places each get their own results",
          "[graph]") {
  // A fetched tensor freed after the run freed its arena hands the next run the tensor's
  // block for its arena: the executable keeps a set of views bound to each place.
  hxrt::Runtime rt = cpu_and_gpus(0);
  const hxrt::Executable exe = tripling_graph(rt);
  const Tensor feed = rt.tensor<float>({64}, std::vector<float>(64, 1.0f));
  std::vector<Tensor> held;
  for (int run = 0; run < 8; ++run) {
    std::vector<Tensor> fetched = exe.run({{"x", feed}});
    CHECK(fetched[0].to_vector<float>() == std::vector<float>(64, 3.0f));
    // Every third run's result is kept, which moves the next arenas elsewhere again.
    if (run % 3 == 2) held.push_back(std::move(fetched[0]));
  }
  for (const Tensor& kept : held) CHECK(kept.to_vector<float>() == std::vector<float>(64, 3.0f));
}

TEST_CASE("Several threads run one executable at once, each with its own feeds", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(2, "\"random_delay_us\":300,\"random_seed\":7");
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2});
  NodeOutput left = x, right = x;
  for (int i = 0; i < 4; ++i) {
    left = builder.add("left" + std::to_string(i), "Add", {left, x}, {}, "/GPU:0");
    right = builder.add("right" + std::to_string(i), "Add", {right, x}, {}, "/GPU:1");
  }
  const NodeOutput both = builder.add("both", "Add", {left, right}, {}, "/CPU:0");
  const hxrt::Executable exe = rt.compile(builder.graph(), {both});

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 20; ++run) {
        const float v = static_cast<float>(t * 100 + run);
        const Tensor fed = rt.tensor<float>({2, 2}, {v, v, v, v}, "CPU:0");
        const std::vector<float> got = exe.run({{"x", fed}})[0].to_vector<float>();
        if (got != std::vector<float>(4, 10 * v)) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == 0);
}

TEST_CASE("A fan-out to many nodes, on the CPU and a GPU, meets in joins that each run once, "
          "after all their inputs", "[graph]") {
  // A node with many successors shares out those it makes ready in chunks, and each chunk
  // holds back its decrements of a join's count: every node must still run, and each join
  // after all its inputs, also when nodes in a chunk wait for a GPU's result.
  hxrt::Runtime rt = cpu_and_gpus(1, "\"random_delay_us\":50,\"random_seed\":3");
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {1});
  std::vector<NodeOutput> all, even;
  for (int i = 0; i < 600; ++i) {
    const NodeOutput relu = builder.add("relu" + std::to_string(i), "Relu", {x}, {},
                                        i % 50 == 0 ? "/GPU:0" : "/CPU:0");
    all.push_back(relu);
    if (i % 2 == 0) even.push_back(relu);
  }
  const NodeOutput sum_all = builder.add("sum_all", "AddN", all, {}, "/CPU:0");
  const NodeOutput sum_even = builder.add("sum_even", "AddN", even, {}, "/CPU:0");
  const NodeOutput both = builder.add("both", "Add", {sum_all, sum_even}, {}, "/CPU:0");
  const hxrt::Executable exe = rt.compile(builder.graph(), {sum_all, sum_even, both});

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 10; ++run) {
        const float v = static_cast<float>(t * 10 + run + 1);
        const std::vector<Tensor> out = exe.run({{"x", rt.tensor<float>({1}, {v}, "CPU:0")}});
        if (out[0].to_vector<float>() != std::vector<float>{600 * v} ||
            out[1].to_vector<float>() != std::vector<float>{300 * v} ||
            out[2].to_vector<float>() != std::vector<float>{900 * v}) {
          ++wrong;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == 0);
}

TEST_CASE("Feeds are checked against the inputs, naming what is wrong", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2});
  const hxrt::Executable exe = rt.compile(builder.graph(), {builder.add("y", "Relu", {x})});
  const Tensor good = rt.tensor<float>({2}, {1, 2});

  auto error = error_from([&] { exe.run(std::map<std::string, Tensor>{}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("graph input 'x' was not fed"));
  error = error_from([&] { exe.run({{"x", good}, {"z", good}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("feed 'z' is not an input"));
  error = error_from([&] { exe.run({{"x", rt.tensor<float>({3}, {1, 2, 3})}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("'x' was fed a float32[3] tensor; it was declared "
                                            "float32[2]"));
  error = error_from([&] { exe.run({{"x", rt.tensor<int32_t>({2}, {1, 2})}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("int32[2]"));
  error = error_from([&] { exe.run({{"x", Tensor()}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("empty Tensor"));
  error = error_from([&] { hxrt::Executable().run(std::vector<Tensor>{}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kFailedPrecondition);
  CHECK(exe.run({{"x", good}})[0].to_vector<float>() == std::vector<float>{1, 2});
}

TEST_CASE("A node whose kernel fails stops the run, is named with its device, and the "
          "executable runs again", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1, "", {graph_test::fixture_path("failing_kernel")});
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2});
  const NodeOutput ok = builder.add("ok", "Relu", {x}, {}, "/CPU:0");
  const NodeOutput bad = builder.add("bad", "Relu", {ok}, {}, "/FAILDEV:0");
  const NodeOutput after = builder.add("after", "Relu", {bad}, {}, "/CPU:0");
  const hxrt::Executable failing = rt.compile(builder.graph(), {after});
  const hxrt::Executable fine = rt.compile(builder.graph(), {ok});
  const Tensor fed = rt.tensor<float>({2}, {-1, 1}, "CPU:0");
  for (int run = 0; run < 3; ++run) {
    const auto error = error_from([&] { failing.run({{"x", fed}}); });
    REQUIRE(error);
    CHECK_THAT(error->what(),
               Catch::Contains("graph node 'bad' (Relu) on "
                               "/job:localhost/replica:0/task:0/device:FAILDEV:0 failed"));
    CHECK(fine.run({{"x", fed}})[0].to_vector<float>() == std::vector<float>{0, 1});
  }
}

TEST_CASE("A node whose kernel throws a C++ exception across the C ABI fails the run, naming "
          "the node and the plugin", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(
      1, "", {HXRT_TEST_FIXTURE_DIR "/throwing/libhx_fixture_throwing_kernel.so"});
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2});
  const NodeOutput bad = builder.add("bad", "Relu", {x}, {}, "/THROWDEV:0");
  const hxrt::Executable exe = rt.compile(builder.graph(), {bad});
  const Tensor fed = rt.tensor<float>({2}, {-1, 1}, "CPU:0");
  for (int run = 0; run < 2; ++run) {
    const auto error = error_from([&] { exe.run({{"x", fed}}); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInternal);
    CHECK_THAT(error->what(),
               Catch::Contains("graph node 'bad' (Relu) on "
                               "/job:localhost/replica:0/task:0/device:THROWDEV:0 failed: the "
                               "kernel of plugin 'fixture_throwing_kernel' threw a C++ "
                               "exception across the C ABI"));
  }
}

TEST_CASE("Work that fails after it was queued fails the run, naming the node, and the device "
          "goes on", "[graph]") {
  hxrt::Runtime rt = cpu_and_gpus(1, "\"fault_ops\":[\"Relu\"]");
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2});
  const auto scope = rt.device("/GPU:0");
  const NodeOutput product = builder.add("product", "MatMul", {x, x});
  const NodeOutput relu = builder.add("relu", "Relu", {product});
  const NodeOutput sum = builder.add("sum", "Add", {relu, x});
  const hxrt::Executable failing = rt.compile(builder.graph(), {sum});
  const hxrt::Executable fine = rt.compile(builder.graph(), {product});
  const Tensor fed = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "CPU:0");
  for (int run = 0; run < 2; ++run) {
    const auto error = error_from([&] { failing.run({{"x", fed}}); });
    REQUIRE(error);
    CHECK_THAT(error->what(), Catch::Contains("graph node 'relu' (Relu)"));
    CHECK_THAT(error->what(), Catch::Contains("simulated fault"));
    CHECK(fine.run({{"x", fed}})[0].to_vector<float>() == std::vector<float>{7, 10, 15, 22});
  }
}

TEST_CASE("An executable keeps its runtime's devices and kernels alive", "[graph]") {
  hxrt::Executable exe;
  Tensor fed;
  {
    hxrt::Runtime rt = cpu_and_gpus(1);
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {2});
    exe = rt.compile(builder.graph(), {builder.add("y", "Relu", {x}, {}, "/GPU:0")});
    fed = rt.tensor<float>({2}, {-3, 3});
  }
  CHECK(exe.run({{"x", fed}})[0].to_vector<float>() == std::vector<float>{0, 3});
}

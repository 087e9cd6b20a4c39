// Compile's passes (core/src/graph/optimize): Identity and Dropout bypassed, constants folded,
// Gemm and its activation fused into FusedGemm; each switchable in CompileOptions and the
// config, logged with the nodes it changed, and none changing what a run computes.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "graph_support.hpp"
#include "passes_support.hpp"
#include "temp_dir.hpp"

using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;

using passes_test::expect_close;
using passes_test::expect_unchanged;
using passes_test::logged_line;
using passes_test::op_in;
using passes_test::passes_off;
using passes_test::passes_runtime;
using passes_test::ramp_values;

TEST_CASE("Identity, and Dropout whose mask nothing reads, are bypassed at compile",
          "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 3});
  const NodeOutput id = builder.add("id", "Identity", {x});
  const NodeOutput dropped = builder.add("drop", "Dropout", {id});
  const NodeOutput relu = builder.add("relu", "Relu", {dropped});
  // A fetched Identity stays, and so does one that asks for a device its input does not.
  const NodeOutput fetched = builder.add("fetched", "Identity", {relu});
  const NodeOutput moved = builder.add("moved", "Identity", {relu}, {}, "/CPU:0");
  const hxrt::Graph graph = builder.build();
  const hxrt::Executable exe = rt.compile(graph, {fetched, moved});
  CHECK(op_in(exe, "id").empty());
  CHECK(op_in(exe, "drop").empty());
  CHECK(op_in(exe, "fetched") == "Identity");
  CHECK(op_in(exe, "moved") == "Identity");
  CHECK(logged_line(log, "Graph pass remove_identities: 2 nodes (id, drop)"));
  const hxrt::Tensor input = rt.tensor<float>({2, 3}, {-1, 2, -3, 4, -5, 6});
  const std::vector<hxrt::Tensor> out = exe.run({{"x", input}});
  CHECK(out[0].to_vector<float>() == std::vector<float>{0, 2, 0, 4, 0, 6});
  CHECK(out[1].to_vector<float>() == std::vector<float>{0, 2, 0, 4, 0, 6});

  SECTION("not when turned off, nor a Dropout whose mask is read") {
    const hxrt::Executable kept = rt.compile(graph, {fetched}, passes_off());
    CHECK(op_in(kept, "id") == "Identity");
    CHECK(op_in(kept, "drop") == "Dropout");
    GraphBuilder masked(rt);
    const NodeOutput y = masked.input("y", DType::kF32, {2});
    const NodeOutput d = masked.add("d", "Dropout", {y});
    const hxrt::Graph with_mask = masked.build();
    const hxrt::Executable mask_read = rt.compile(with_mask, {d, NodeOutput{"d", 1}});
    CHECK(op_in(mask_read, "d") == "Dropout");
  }
}

TEST_CASE("Nodes of constant inputs, and Shape and Size of known shapes, are computed at "
          "compile", "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 2});
  const NodeOutput a = builder.constant("a", rt.tensor<float>({2, 2}, {1, 2, 3, 4}));
  const NodeOutput b = builder.constant("b", rt.tensor<float>({2, 2}, {10, 20, 30, 40}));
  const NodeOutput sum = builder.add("sum", "Add", {a, b});
  const NodeOutput weights = builder.add("weights", "Transpose", {sum});
  const NodeOutput product = builder.add("product", "MatMul", {x, weights});
  const NodeOutput shape = builder.add("shape", "Shape", {product});
  const NodeOutput size = builder.add("size", "Size", {x});
  // 4 MiB from a scalar: cheaper to compute each run than to keep.
  const NodeOutput one = builder.constant("one", rt.tensor<float>({1}, {1.0f}));
  const NodeOutput wide =
      builder.add("wide", "Expand", {one}, {{"shape", std::vector<int64_t>{1024, 1024}}});
  const hxrt::Graph graph = builder.build();
  const std::vector<NodeOutput> fetches = {product, shape, size, wide};
  const hxrt::Executable exe = rt.compile(graph, fetches);
  for (const char* folded : {"weights", "shape", "size"}) {
    INFO(folded);
    CHECK(op_in(exe, folded) == "Const");
  }
  CHECK(op_in(exe, "sum").empty());  // read only by a folded node: not needed any more
  CHECK(op_in(exe, "product") == "MatMul");
  CHECK(op_in(exe, "wide") == "Expand");
  CHECK(logged_line(log, "Graph pass fold_constants: 4 nodes (sum, weights, shape, size)"));
  const std::map<std::string, hxrt::Tensor> feeds = {
      {"x", rt.tensor<float>({2, 2}, {1, 0, 0, 1})}};
  const std::vector<hxrt::Tensor> out = exe.run(feeds);
  CHECK(out[0].to_vector<float>() == std::vector<float>{11, 33, 22, 44});
  CHECK(out[1].to_vector<int64_t>() == std::vector<int64_t>{2, 2});
  CHECK(out[2].to_vector<int64_t>() == std::vector<int64_t>{4});
  const std::vector<hxrt::Tensor> unfolded =
      rt.compile(graph, fetches, passes_off()).run(feeds);
  CHECK(unfolded[0].to_vector<float>() == out[0].to_vector<float>());
  CHECK(unfolded[1].to_vector<int64_t>() == out[1].to_vector<int64_t>());
  CHECK(unfolded[3].to_vector<float>() == out[3].to_vector<float>());
}

TEST_CASE("A Gemm whose only reader is an activation runs as one FusedGemm where the plugins "
          "have it", "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // Large enough for the CPU's oneDNN path, whose post-op applies the activation.
  const int64_t m = 64, k = 96, n = 48;
  for (const char* activation : {"Relu", "LeakyRelu", "Sigmoid", "Tanh", "Gelu"}) {
    INFO(activation);
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {m, k});
    const NodeOutput w = builder.constant(
        "w", rt.tensor<float>({n, k}, ramp_values(static_cast<size_t>(n * k), 0.01f)));
    const NodeOutput bias =
        builder.constant("bias", rt.tensor<float>({n}, ramp_values(static_cast<size_t>(n), 0.1f)));
    const NodeOutput gemm = builder.add("fc/Gemm", "Gemm", {x, w, bias}, {{"transB", int64_t{1}}});
    hxrt::Attrs attrs;
    if (std::string(activation) == "LeakyRelu") attrs.set("alpha", 0.2);
    const NodeOutput act = builder.add("fc/act", activation, {gemm}, attrs);
    const hxrt::Graph graph = builder.build();
    log.lines.clear();
    const hxrt::Executable fused = rt.compile(graph, {act});
    CHECK(op_in(fused, "fc/act") == "FusedGemm");
    CHECK(op_in(fused, "fc/Gemm").empty());
    CHECK(logged_line(log, "Graph pass fuse_kernels: 1 node (fc/Gemm + fc/act)"));
    const hxrt::Tensor input =
        rt.tensor<float>({m, k}, ramp_values(static_cast<size_t>(m * k), 0.05f));
    const std::vector<float> got = fused.run({{"x", input}})[0].to_vector<float>();
    const hxrt::Executable apart = rt.compile(graph, {act}, passes_off());
    CHECK(op_in(apart, "fc/act") == activation);
    expect_close(got, apart.run({{"x", input}})[0].to_vector<float>());
  }

  SECTION("not a Gemm read twice, fetched, or given back a device of its own") {
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {4, 4});
    const NodeOutput gemm = builder.add("gemm", "Gemm", {x, x});
    const NodeOutput relu = builder.add("relu", "Relu", {gemm});
    const NodeOutput twice = builder.add("twice", "Add", {gemm, relu});
    const hxrt::Graph graph = builder.build();
    CHECK(op_in(rt.compile(graph, {twice}), "relu") == "Relu");
    CHECK(op_in(rt.compile(graph, {relu, gemm}), "relu") == "Relu");
    GraphBuilder single(rt);
    const NodeOutput y = single.input("y", DType::kF32, {4, 4});
    const NodeOutput relu_of = single.add("relu", "Relu", {single.add("gemm", "Gemm", {y, y})});
    const hxrt::Graph chain = single.build();
    hxrt::CompileOptions given;
    given.placement = {{"gemm", "/job:localhost/replica:0/task:0/device:CPU:0"}};
    CHECK(op_in(rt.compile(chain, {relu_of}, given), "relu") == "Relu");
    CHECK(op_in(rt.compile(chain, {relu_of}), "relu") == "FusedGemm");
  }
}

TEST_CASE("A MatMul whose only reader adds a row of bias runs as one MatMulBias, with the "
          "activation after it", "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // A transformer's layer: rows of [batch, sequence, K], large enough for oneDNN's matmul.
  const int64_t k = 64, n = 96;
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 16, k});
  const NodeOutput w = builder.constant(
      "w", rt.tensor<float>({k, n}, ramp_values(static_cast<size_t>(k * n), 0.01f)));
  const NodeOutput bias = builder.constant(
      "bias", rt.tensor<float>({1, n}, ramp_values(static_cast<size_t>(n), 0.1f)));
  const NodeOutput product = builder.add("fc/MatMul", "MatMul", {x, w});
  // The bias first, as some exporters write it.
  const NodeOutput sum = builder.add("fc/Add", "Add", {bias, product});
  const NodeOutput gelu = builder.add("fc/Gelu", "Gelu", {sum});
  const hxrt::Graph graph = builder.build();
  const hxrt::Executable layer = rt.compile(graph, {sum});
  CHECK(op_in(layer, "fc/Add") == "MatMulBias");
  CHECK(op_in(layer, "fc/MatMul").empty());
  CHECK(logged_line(log, "Graph pass fuse_kernels: 1 node (fc/MatMul + fc/Add)"));
  const hxrt::Tensor input =
      rt.tensor<float>({2, 16, k}, ramp_values(static_cast<size_t>(2 * 16 * k), 0.05f));
  expect_unchanged(rt, layer, graph, sum, input);
  const hxrt::Executable activated = rt.compile(graph, {gelu});
  CHECK(op_in(activated, "fc/Gelu") == "MatMulBias");
  CHECK(op_in(activated, "fc/Add").empty());
  expect_unchanged(rt, activated, graph, gelu, input);

  SECTION("in a graph of nothing else") {
    GraphBuilder alone(rt);
    const NodeOutput y = alone.input("y", DType::kF32, {3, 5, 4});
    const NodeOutput matrix =
        alone.constant("matrix", rt.tensor<float>({4, 2}, ramp_values(8, 0.1f)));
    const NodeOutput row = alone.constant("row", rt.tensor<float>({2}, ramp_values(2, 0.1f)));
    const NodeOutput sum_alone =
        alone.add("sum", "Add", {alone.add("product", "MatMul", {y, matrix}), row});
    CHECK(op_in(rt.compile(alone.build(), {sum_alone}), "sum") == "MatMulBias");
  }

  SECTION("not an Add of more than a row, a transposed MatMul, nor Gelu's tanh") {
    GraphBuilder other(rt);
    const NodeOutput y = other.input("y", DType::kF32, {4, 8});
    const NodeOutput square =
        other.constant("square", rt.tensor<float>({8, 8}, ramp_values(64, 0.1f)));
    const NodeOutput residual =
        other.add("residual", "Add", {other.add("m1", "MatMul", {y, square}), y});
    const NodeOutput row = other.constant("row", rt.tensor<float>({8}, ramp_values(8, 0.1f)));
    const NodeOutput transposed = other.add(
        "transposed", "Add",
        {other.add("m2", "MatMul", {y, square}, {{"transpose_b", true}}), row});
    const NodeOutput layer_sum =
        other.add("layer", "Add", {other.add("m4", "MatMul", {y, square}), row});
    const NodeOutput tanh_gelu =
        other.add("tanh_gelu", "Gelu", {layer_sum}, {{"approximate", std::string("tanh")}});
    const hxrt::Graph rest = other.build();
    const hxrt::Executable exe = rt.compile(rest, {residual, transposed, tanh_gelu});
    CHECK(op_in(exe, "residual") == "Add");
    CHECK(op_in(exe, "transposed") == "Add");
    CHECK(op_in(exe, "layer") == "MatMulBias");
    CHECK(op_in(exe, "tanh_gelu") == "Gelu");
  }
}

TEST_CASE("The config turns a pass off, and CompileOptions::passes overrides it",
          "[graph][passes]") {
  hxrt_test::TempDir dir("hxrt_graph_passes");
  const std::string config = (dir.path() / "config.json").string();
  std::ofstream(config) << R"({"graph": {"fuse_kernels": false}})";
  hxrt::Runtime rt = passes_runtime(config);
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {4, 4});
  const NodeOutput relu = builder.add("relu", "Relu", {builder.add("gemm", "Gemm", {x, x})});
  const hxrt::Graph graph = builder.build();
  CHECK(op_in(rt.compile(graph, {relu}), "relu") == "Relu");
  hxrt::CompileOptions on;
  on.passes.fuse_kernels = true;
  CHECK(op_in(rt.compile(graph, {relu}, on), "relu") == "FusedGemm");
}

TEST_CASE("The Div, Erf, Add, Mul, Mul chain exporters write for GELU runs as one Gelu",
          "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {4, 64});
  const auto scalar = [&](const std::string& name, float value) {
    return builder.constant(name, rt.tensor<float>({}, {value}));
  };
  const NodeOutput div = builder.add("mlp/Div", "Div", {x, scalar("sqrt2", 1.4142135f)});
  const NodeOutput erf = builder.add("mlp/Erf", "Erf", {div});
  const NodeOutput add = builder.add("mlp/Add", "Add", {erf, scalar("one", 1.0f)});
  const NodeOutput mul = builder.add("mlp/Mul", "Mul", {x, add});
  const NodeOutput half = builder.add("mlp/Mul_1", "Mul", {mul, scalar("half", 0.5f)});
  const hxrt::Graph graph = builder.build();
  const hxrt::Executable fused = rt.compile(graph, {half});
  CHECK(op_in(fused, "mlp/Mul_1") == "Gelu");
  for (const char* gone : {"mlp/Div", "mlp/Erf", "mlp/Add", "mlp/Mul"}) {
    INFO(gone);
    CHECK(op_in(fused, gone).empty());
  }
  CHECK(logged_line(log, "Graph pass fuse_kernels: 1 node (mlp/Div ... mlp/Mul_1 (Gelu))"));
  const hxrt::Tensor input = rt.tensor<float>({4, 64}, ramp_values(256, 0.37f));
  expect_unchanged(rt, fused, graph, half, input);

  SECTION("not with another constant, nor when a link of the chain is read elsewhere") {
    GraphBuilder other(rt);
    const NodeOutput y = other.input("y", DType::kF32, {4});
    const NodeOutput third = other.constant("third", rt.tensor<float>({}, {0.3f}));
    const NodeOutput two = other.constant("two", rt.tensor<float>({}, {1.4142135f}));
    const NodeOutput one = other.constant("one", rt.tensor<float>({}, {1.0f}));
    const NodeOutput e = other.add("e", "Erf", {other.add("d", "Div", {y, two})});
    const NodeOutput p = other.add("p", "Mul", {y, other.add("a", "Add", {e, one})});
    const NodeOutput out = other.add("out", "Mul", {p, third});
    const NodeOutput also = other.add("also", "Relu", {e});
    const hxrt::Graph chain = other.build();
    CHECK(op_in(rt.compile(chain, {out}), "out") == "Mul");
    CHECK(op_in(rt.compile(chain, {out, also}), "out") == "Mul");
  }
}

TEST_CASE("An inference BatchNormalization after a Conv of constant weights goes into them",
          "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  const auto channels = [&](float base) {
    std::vector<float> values(4);
    for (size_t c = 0; c < values.size(); ++c) values[c] = base + 0.25f * static_cast<float>(c);
    return hxrt::Tensor(rt.tensor<float>({4}, values));
  };
  for (int variant = 0; variant < 4; ++variant) {
    const bool conv_bias = (variant & 1) != 0;
    const bool statistics_first = (variant & 2) != 0;
    INFO("the Conv has a bias: " << conv_bias << "; statistics first: " << statistics_first);
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {2, 3, 6, 6});
    const NodeOutput w =
        builder.constant("w", rt.tensor<float>({4, 3, 3, 3}, ramp_values(108, 0.05f)));
    std::vector<NodeOutput> conv_inputs = {x, w};
    if (conv_bias) conv_inputs.push_back(builder.constant("conv_b", channels(-0.5f)));
    // Without a bias of its own, the Conv takes the BatchNormalization's B as its bias, which
    // then moves before the Conv where it was added after it.
    std::vector<NodeOutput> statistics;
    const auto add_statistics = [&] {
      statistics = {
          builder.constant("scale", channels(0.5f)), builder.constant("shift", channels(-0.25f)),
          builder.constant("mean", channels(0.1f)), builder.constant("var", channels(0.75f))};
    };
    if (statistics_first) add_statistics();
    const NodeOutput conv =
        builder.add("conv", "Conv", conv_inputs, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    if (!statistics_first) add_statistics();
    const NodeOutput norm =
        builder.add("bn", "BatchNormalization",
                    {conv, statistics[0], statistics[1], statistics[2], statistics[3]},
                    {{"epsilon", 1e-3}});
    const NodeOutput relu = builder.add("relu", "Relu", {norm});
    const hxrt::Graph graph = builder.build();
    log.lines.clear();
    hxrt::CompileOptions unfused;  // else the Conv and the Relu become one FusedConv
    unfused.passes.fuse_kernels = false;
    const hxrt::Executable folded = rt.compile(graph, {relu}, unfused);
    CHECK(op_in(folded, "bn").empty());
    CHECK(op_in(folded, "conv") == "Conv");
    CHECK(op_in(rt.compile(graph, {relu}), "relu") == "FusedConv");
    CHECK(logged_line(log, "Graph pass fold_constants: 1 node (bn into conv)"));
    const hxrt::Tensor input = rt.tensor<float>({2, 3, 6, 6}, ramp_values(216, 0.1f));
    expect_unchanged(rt, folded, graph, relu, input);
    // Fetched, it stays.
    CHECK(op_in(rt.compile(graph, {norm}), "bn") == "BatchNormalization");
  }
}

TEST_CASE("A Conv whose only reader is an activation runs as one FusedConv", "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // 16 to 16 channels: large enough for oneDNN's blocked layouts and their post-op.
  for (const char* activation : {"Relu", "LeakyRelu", "Sigmoid", "Tanh"}) {
    INFO(activation);
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {2, 16, 8, 8});
    const NodeOutput w =
        builder.constant("w", rt.tensor<float>({16, 16, 3, 3}, ramp_values(2304, 0.01f)));
    const NodeOutput b = builder.constant("b", rt.tensor<float>({16}, ramp_values(16, 0.1f)));
    const NodeOutput conv = builder.add("conv", "Conv", {x, w, b},
                                        {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    const NodeOutput act = builder.add("act", activation, {conv});
    const hxrt::Graph graph = builder.build();
    log.lines.clear();
    const hxrt::Executable fused = rt.compile(graph, {act});
    CHECK(op_in(fused, "act") == "FusedConv");
    CHECK(op_in(fused, "conv").empty());
    CHECK(logged_line(log, "Graph pass fuse_kernels: 1 node (conv + act)"));
    const hxrt::Tensor input = rt.tensor<float>({2, 16, 8, 8}, ramp_values(2048, 0.05f));
    expect_unchanged(rt, fused, graph, act, input);
  }
}

TEST_CASE("A chain fuses where it goes to a device whose plugin has the fused kernel",
          "[graph][passes]") {
  // The CPU, and a discrete accelerator UNFUSED with Gemm and Relu but no FusedGemm, which
  // the default priority prefers.
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          HXRT_TEST_FIXTURE_DIR "/placement/libhx_fixture_gemm_unfused.so"};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const auto chain = [&](const std::string& device) {
    GraphBuilder builder(rt);
    const NodeOutput x = builder.input("x", DType::kF32, {4, 4});
    const NodeOutput gemm = builder.add("gemm", "Gemm", {x, x}, {}, device);
    builder.add("relu", "Relu", {gemm}, {}, device);
    return builder.build();
  };
  hxrt::CompileOptions dynamic = graph_test::dynamic_placer();
  const NodeOutput relu{"relu", 0};
  // Unasked, the chain goes to UNFUSED, or the dynamic placer may put it there: unfused.
  const hxrt::Executable unasked = rt.compile(chain(""), {relu});
  CHECK(op_in(unasked, "relu") == "Relu");
  CHECK(graph_test::placement_of(unasked, "gemm").device == graph_test::device("UNFUSED:0"));
  CHECK(op_in(rt.compile(chain(""), {relu}, dynamic), "relu") == "Relu");
  // Asked to run on the CPU, under either placer: fused there.
  CHECK(op_in(rt.compile(chain("/CPU:0"), {relu}), "relu") == "FusedGemm");
  CHECK(op_in(rt.compile(chain("/CPU:0"), {relu}, dynamic), "relu") == "FusedGemm");
}

namespace {

// Whether the runtime's CPU has the blocked ops' kernels (the CPU plugin registers them where
// oneDNN runs AVX-512): the block_channels pass blocks nothing without them.
bool cpu_blocks_channels(const hxrt::Runtime& rt) {
  for (const hxrt::OpInfo& op : rt.ops()) {
    if (op.name != "BlockedConv") continue;
    for (const hxrt::OpKernelInfo& kernel : op.kernels) {
      if (kernel.device_type == "CPU") return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("Convolutions and pools keep what passes between them in blocks of channels",
          "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // x [2, 3, 12, 12] -> conv1 (20 channels) + Relu -> MaxPool -> conv2 (24) -> GlobalAverage
  // -> Flatten, with conv2's output fetched too. The channels are no multiple of 16.
  GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", DType::kF32, {2, 3, 12, 12});
  const auto weights = [&](const std::string& name, int64_t out, int64_t in) {
    return builder.constant(name, rt.tensor<float>({out, in, 3, 3},
                                                   ramp_values(size_t(out * in * 9), 0.02f)));
  };
  const hxrt::Attrs padded = {{"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  const NodeOutput conv1 = builder.add("conv1", "Conv", {x, weights("w1", 20, 3)}, padded);
  const NodeOutput relu1 = builder.add("relu1", "Relu", {conv1});
  const NodeOutput pool = builder.add("pool", "MaxPool", {relu1},
                                      {{"kernel_shape", std::vector<int64_t>{2, 2}},
                                       {"strides", std::vector<int64_t>{2, 2}}});
  const NodeOutput conv2 = builder.add("conv2", "Conv", {pool, weights("w2", 24, 20)}, padded);
  const NodeOutput average = builder.add("average", "GlobalAveragePool", {conv2});
  const NodeOutput flat = builder.add("flat", "Flatten", {average});
  const hxrt::Graph graph = builder.build();
  const hxrt::Executable blocked = rt.compile(graph, {flat});
  const bool blocks = cpu_blocks_channels(rt);
  if (blocks) {
    CHECK(logged_line(log, "Graph pass block_channels: 4 nodes (relu1, pool, conv2, average)"));
    CHECK(op_in(blocked, "relu1") == "BlockedConv");
    CHECK(op_in(blocked, "pool") == "BlockedMaxPool");
    CHECK(op_in(blocked, "conv2") == "BlockedConv");
    CHECK(op_in(blocked, "average") == "BlockedGlobalAveragePool");
  } else {
    WARN("this CPU has no blocked kernels (no AVX-512): checked unblocked only");
    CHECK(op_in(blocked, "relu1") == "FusedConv");
  }
  CHECK(op_in(blocked, "flat") == "Flatten");
  const hxrt::Tensor input =
      rt.tensor<float>({2, 3, 12, 12}, ramp_values(2 * 3 * 12 * 12, 0.1f));
  const std::vector<hxrt::Tensor> apart =
      rt.compile(graph, {flat, conv2}, passes_off()).run({{"x", input}});
  const std::vector<hxrt::Tensor> got = blocked.run({{"x", input}});
  CHECK(got[0].shape() == hxrt::Shape{2, 24});  // what Flatten reads comes out plain
  expect_close(got[0].to_vector<float>(), apart[0].to_vector<float>());
  // conv2 fetched: it writes plain channels, which the pool after it cannot read in blocks.
  const hxrt::Executable fetching = rt.compile(graph, {flat, conv2});
  CHECK(op_in(fetching, "average") == "GlobalAveragePool");
  const std::vector<hxrt::Tensor> both = fetching.run({{"x", input}});
  CHECK(both[1].shape() == hxrt::Shape{2, 24, 6, 6});
  expect_close(both[0].to_vector<float>(), apart[0].to_vector<float>());
  expect_close(both[1].to_vector<float>(), apart[1].to_vector<float>());

  SECTION("not where the pass is off, nor a convolution with nothing blocked around it") {
    hxrt::CompileOptions off;
    off.passes.block_channels = false;
    CHECK(op_in(rt.compile(graph, {flat}, off), "conv2") == "Conv");
    GraphBuilder alone(rt);
    const NodeOutput image = alone.input("x", DType::kF32, {1, 3, 8, 8});
    const NodeOutput w = alone.constant("w", rt.tensor<float>({4, 3, 3, 3},
                                                             ramp_values(4 * 3 * 9, 0.1f)));
    const NodeOutput conv = alone.add("conv", "Conv", {image, w});
    alone.add("relu", "Relu", {conv});
    CHECK(op_in(rt.compile(alone.build(), {{"relu", 0}}), "relu") == "FusedConv");
  }
}

TEST_CASE("LayerNormalization's chain as exporters wrote it before opset 17 runs as one node",
          "[graph][passes]") {
  hxrt::Runtime rt = passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  // mean = ReduceMean(x), d = x - mean, v = ReduceMean(d^2), d / sqrt(v + eps) * scale + bias,
  // over the last axis of [2, 3, 16].
  const auto chain = [&](GraphBuilder& builder, const std::vector<int64_t>& axes,
                         bool reuse_centred) {
    const NodeOutput x = builder.input("x", DType::kF32, {2, 3, 16});
    const auto scalar = [&](const std::string& name, float value) {
      return builder.constant(name, rt.tensor<float>({}, {value}));
    };
    const hxrt::Attrs reduce = {{"axes", axes}};
    const NodeOutput mean = builder.add("ln/ReduceMean", "ReduceMean", {x}, reduce);
    const NodeOutput centred = builder.add("ln/Sub", "Sub", {x, mean});
    const NodeOutput squared = builder.add("ln/Pow", "Pow", {centred, scalar("two", 2.0f)});
    const NodeOutput variance = builder.add("ln/ReduceMean_1", "ReduceMean", {squared}, reduce);
    const NodeOutput shifted = builder.add("ln/Add", "Add", {variance, scalar("eps", 1e-5f)});
    const NodeOutput root = builder.add("ln/Sqrt", "Sqrt", {shifted});
    const NodeOutput normal = builder.add("ln/Div", "Div", {centred, root});
    const NodeOutput scale =
        builder.constant("scale", rt.tensor<float>({16}, ramp_values(16, 0.25f)));
    const NodeOutput bias =
        builder.constant("bias", rt.tensor<float>({16}, ramp_values(16, 0.5f)));
    const NodeOutput product = builder.add("ln/Mul", "Mul", {normal, scale});
    const NodeOutput y = builder.add("ln/Add_1", "Add", {product, bias});
    if (reuse_centred) return builder.add("also", "Add", {y, centred});
    return y;
  };
  GraphBuilder builder(rt);
  const NodeOutput y = chain(builder, {-1}, false);
  const hxrt::Graph graph = builder.build();
  const hxrt::Executable fused = rt.compile(graph, {y});
  CHECK(op_in(fused, "ln/Add_1") == "LayerNormalization");
  for (const char* gone : {"ln/ReduceMean", "ln/Sub", "ln/Pow", "ln/Sqrt", "ln/Div", "ln/Mul"}) {
    INFO(gone);
    CHECK(op_in(fused, gone).empty());
  }
  CHECK(logged_line(log, "Graph pass fuse_kernels: 1 node (ln/ReduceMean ... ln/Add_1 "
                         "(LayerNormalization))"));
  const hxrt::Tensor input = rt.tensor<float>({2, 3, 16}, ramp_values(96, 0.37f));
  expect_unchanged(rt, fused, graph, y, input);

  SECTION("not over other axes than the last ones, nor with the centred x read elsewhere") {
    GraphBuilder middle(rt);
    const NodeOutput over_middle = chain(middle, {1}, false);
    CHECK(op_in(rt.compile(middle.build(), {over_middle}), "ln/Add_1") == "Add");
    GraphBuilder shared(rt);
    const NodeOutput read_twice = chain(shared, {-1}, true);
    CHECK(op_in(rt.compile(shared.build(), {read_twice}), "ln/Add_1") == "Add");
  }
}

// The fusion of the attention chain exporters write (core/src/graph/optimize/fuse_attention.cpp)
// into one MultiHeadAttention node, where the CPU plugin has its kernel: what it matches, what
// it leaves alone, and that a run computes what the chain did.
#include <catch2/catch.hpp>
#include <hxrt/hxrt.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "graph_support.hpp"
#include "passes_support.hpp"

using hxrt::DType;
using hxrt::GraphBuilder;
using hxrt::NodeOutput;
using passes_test::expect_unchanged;
using passes_test::logged_line;
using passes_test::op_in;
using passes_test::ramp_values;

namespace {

// Two heads of 8 over a batch of 2 sequences of 8 rows of 16.
constexpr int64_t kBatch = 2, kSequence = 8, kHeads = 2, kSize = 8, kRow = kHeads * kSize;

struct Chain {
  bool mask = true;
  bool scale_by_mul = false;   // Mul by 1 / sqrt(size) rather than Div by sqrt(size)
  int64_t softmax_axis = -1;
  bool fetch_query_heads = false;
};

struct Built {
  NodeOutput y;
  NodeOutput query_heads;
};

Built attention(hxrt::Runtime& rt, GraphBuilder& builder, const Chain& chain) {
  const NodeOutput x = builder.input("x", DType::kF32, {kBatch, kSequence, kRow});
  // Q, K and V: three projections of x, which the fused node reads where they lie.
  const NodeOutput key = builder.add(
      "attn/k_proj", "Mul",
      {x, builder.constant("k_weight", rt.tensor<float>({kRow}, ramp_values(kRow, 0.11f)))});
  const NodeOutput value = builder.add(
      "attn/v_proj", "Add",
      {x, builder.constant("v_bias", rt.tensor<float>({kRow}, ramp_values(kRow, 0.07f)))});
  const hxrt::Attrs split = {{"shape", std::vector<int64_t>{kBatch, kSequence, kHeads, kSize}}};
  const auto heads = [&](const std::string& name, const NodeOutput& rows,
                         const std::vector<int64_t>& perm) {
    return builder.add("attn/" + name + "_heads", "Transpose",
                       {builder.add("attn/" + name + "_split", "Reshape", {rows}, split)},
                       {{"perm", perm}});
  };
  const NodeOutput q = heads("q", x, {0, 2, 1, 3});
  const NodeOutput k = heads("k", key, {0, 2, 3, 1});
  const NodeOutput v = heads("v", value, {0, 2, 1, 3});
  NodeOutput scores = builder.add("attn/MatMul", "MatMul", {q, k});
  const float root = std::sqrt(static_cast<float>(kSize));
  scores = chain.scale_by_mul
               ? builder.add("attn/Mul", "Mul",
                             {builder.constant("inverse_root", rt.tensor<float>({}, {1 / root})),
                              scores})
               : builder.add("attn/Div", "Div",
                             {scores, builder.constant("root", rt.tensor<float>({}, {root}))});
  if (chain.mask) {
    // Key 0 of the first sequence and key 7 of the second masked out.
    std::vector<float> mask(static_cast<size_t>(kBatch * kSequence), 0.0f);
    mask[0] = -8192.0f;
    mask[static_cast<size_t>(2 * kSequence - 1)] = -8192.0f;
    scores = builder.add(
        "attn/Add", "Add",
        {scores, builder.constant("mask", rt.tensor<float>({kBatch, 1, 1, kSequence}, mask))});
  }
  const NodeOutput weights =
      builder.add("attn/Softmax", "Softmax", {scores}, {{"axis", chain.softmax_axis}});
  const NodeOutput mixed = builder.add("attn/MatMul_1", "MatMul", {weights, v});
  const NodeOutput joined =
      builder.add("attn/join", "Transpose", {mixed}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  const hxrt::Attrs rows = {{"shape", std::vector<int64_t>{kBatch, kSequence, kRow}}};
  return {builder.add("attn/out", "Reshape", {joined}, rows), q};
}

}  // namespace

TEST_CASE("The attention chain exporters write runs as one MultiHeadAttention",
          "[graph][passes]") {
  hxrt::Runtime rt = passes_test::passes_runtime();
  graph_test::LogLines log;
  rt.set_log_sink(log.sink());
  const size_t elements = static_cast<size_t>(kBatch * kSequence * kRow);
  const hxrt::Tensor input =
      rt.tensor<float>({kBatch, kSequence, kRow}, ramp_values(elements, 0.21f));
  for (const bool by_mul : {false, true}) {
    for (const bool masked : {true, false}) {
      INFO("scaled by " << (by_mul ? "Mul" : "Div") << (masked ? ", masked" : ""));
      GraphBuilder builder(rt);
      Chain chain;
      chain.mask = masked;
      chain.scale_by_mul = by_mul;
      const NodeOutput y = attention(rt, builder, chain).y;
      const hxrt::Graph graph = builder.build();
      const hxrt::Executable fused = rt.compile(graph, {y});
      CHECK(op_in(fused, "attn/out") == "MultiHeadAttention");
      for (const char* gone : {"attn/q_split", "attn/q_heads", "attn/k_heads", "attn/v_split",
                               "attn/MatMul", "attn/Softmax", "attn/MatMul_1", "attn/join"}) {
        INFO(gone);
        CHECK(op_in(fused, gone).empty());
      }
      CHECK(op_in(fused, "attn/k_proj") == "Mul");
      CHECK(logged_line(log, "Graph pass fuse_kernels: 1 node (attn/MatMul ... attn/out "
                             "(MultiHeadAttention))"));
      expect_unchanged(rt, fused, graph, y, input);
    }
  }

  SECTION("not a softmax over another axis, nor heads that something else reads") {
    GraphBuilder other_axis(rt);
    Chain over_queries;
    over_queries.softmax_axis = 2;
    const NodeOutput y = attention(rt, other_axis, over_queries).y;
    CHECK(op_in(rt.compile(other_axis.build(), {y}), "attn/out") == "Reshape");
    GraphBuilder read_elsewhere(rt);
    const Built built = attention(rt, read_elsewhere, Chain{});
    const hxrt::Executable both = rt.compile(read_elsewhere.build(), {built.y, built.query_heads});
    CHECK(op_in(both, "attn/out") == "Reshape");
    CHECK(op_in(both, "attn/q_heads") == "Transpose");
  }

  SECTION("not where the fusion pass is off") {
    GraphBuilder builder(rt);
    const NodeOutput y = attention(rt, builder, Chain{}).y;
    hxrt::CompileOptions off;
    off.passes.fuse_kernels = false;
    CHECK(op_in(rt.compile(builder.build(), {y}, off), "attn/out") == "Reshape");
  }
}

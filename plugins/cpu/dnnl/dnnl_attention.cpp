#include "dnnl/dnnl_attention.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace hxcpu {
namespace {

using Dims = dnnl::memory::dims;

// A projection [batch, sequence, heads x size] as [batch, heads, sequence, size] at its own
// strides; `transposed` swaps the last two (K read as K^T).
dnnl::memory::desc heads_desc(const hx_tensor_view& view, int64_t heads, bool transposed) {
  const int64_t size = view.shape[2] / heads;
  Dims dims = {view.shape[0], heads, view.shape[1], size};
  Dims strides = {view.strides[0], size * view.strides[2], view.strides[1], view.strides[2]};
  if (transposed) {
    std::swap(dims[2], dims[3]);
    std::swap(strides[2], strides[3]);
  }
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
}

bool reference_only(const dnnl::primitive_desc_base& primitive_desc) {
  return std::string(primitive_desc.impl_info_str()).rfind("ref", 0) == 0;
}

// A thread's buffers between its calls, grown to the largest and kept: a transformer's scores
// are 128 KiB, which malloc would map and unmap on every call.
struct AttentionBuffers {
  std::vector<float> scores;
  std::vector<unsigned char> scratchpad;
};

}  // namespace

AttentionPlan prepare_dnnl_attention(const KernelCall& call, const AttentionExtents& extents,
                                     double scale, uint32_t threads) {
  const DnnlThreads scope(threads_for(extents.scores(), threads));
  AttentionPlan plan;
  plan.q = heads_desc(call.input(0), extents.heads, false);
  plan.k_transposed = heads_desc(call.input(1), extents.heads, true);
  plan.v = heads_desc(call.input(2), extents.heads, false);
  plan.y = heads_desc(call.output(0), extents.heads, false);
  plan.dense_scores = dense_desc({extents.batch, extents.heads, extents.queries, extents.keys},
                                 dnnl::memory::data_type::f32);
  dnnl::primitive_attr scaled;
  scaled.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  scaled.set_output_scales(0, {static_cast<float>(scale)});
  const dnnl::matmul::primitive_desc scores(
      dnnl::matmul::desc(plan.q, plan.k_transposed, plan.dense_scores), scaled, cpu_engine());
  dnnl::primitive_attr plain;
  plain.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const dnnl::softmax_forward::primitive_desc softmax(
      dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, plan.dense_scores, 3),
      plain, cpu_engine());
  const dnnl::matmul::primitive_desc mix(dnnl::matmul::desc(plan.dense_scores, plan.v, plan.y),
                                         plain, cpu_engine());
  if (reference_only(scores) || reference_only(softmax) || reference_only(mix)) return plan;
  plan.scores = dnnl::matmul(scores);
  plan.softmax = dnnl::softmax_forward(softmax);
  plan.mix = dnnl::matmul(mix);
  plan.scratchpad_bytes = std::max({scores.scratchpad_desc().get_size(),
                                    softmax.scratchpad_desc().get_size(),
                                    mix.scratchpad_desc().get_size()});
  return plan;
}

hx_status* run_dnnl_attention(const KernelCall& call, const AttentionPlan& plan,
                              const AttentionExtents& extents, uint32_t threads) {
  thread_local AttentionBuffers buffers;
  float* scores = grown_to(buffers.scores, static_cast<size_t>(extents.scores()));
  const dnnl::engine& engine = cpu_engine();
  const auto data = [](const hx_tensor_view& view) {
    return const_cast<void*>(static_cast<const void*>(input_data<float>(view)));
  };
  try {
    const DnnlThreads scope(threads_for(extents.scores(), threads));
    dnnl::stream stream(engine);
    const dnnl::memory scores_memory(plan.dense_scores, engine, scores);
    const size_t scratchpad_bytes = std::max<size_t>(plan.scratchpad_bytes, 1);
    const dnnl::memory scratchpad(
        dnnl::memory::desc({static_cast<int64_t>(scratchpad_bytes)},
                           dnnl::memory::data_type::u8, dnnl::memory::format_tag::a),
        engine, grown_to(buffers.scratchpad, scratchpad_bytes));
    plan.scores.execute(stream, {{DNNL_ARG_SRC, dnnl::memory(plan.q, engine, data(call.input(0)))},
                                 {DNNL_ARG_WEIGHTS,
                                  dnnl::memory(plan.k_transposed, engine, data(call.input(1)))},
                                 {DNNL_ARG_DST, scores_memory},
                                 {DNNL_ARG_SCRATCHPAD, scratchpad}});
    stream.wait();
    add_attention_mask(call, extents, scores);
    plan.softmax.execute(stream, {{DNNL_ARG_SRC, scores_memory},
                                  {DNNL_ARG_DST, scores_memory},
                                  {DNNL_ARG_SCRATCHPAD, scratchpad}});
    plan.mix.execute(stream, {{DNNL_ARG_SRC, scores_memory},
                              {DNNL_ARG_WEIGHTS, dnnl::memory(plan.v, engine, data(call.input(2)))},
                              {DNNL_ARG_DST,
                               dnnl::memory(plan.y, engine, output_data<float>(call.output(0)))},
                              {DNNL_ARG_SCRATCHPAD, scratchpad}});
    stream.wait();
  } catch (const dnnl::error& error) {
    return dnnl_error(call, "MultiHeadAttention", error);
  }
  return nullptr;
}

}  // namespace hxcpu

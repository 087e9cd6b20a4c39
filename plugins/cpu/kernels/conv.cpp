// Conv on oneDNN's convolution (forward inference, direct algorithm), on plain row-major
// tensors: f32, bf16 natively (f32 where oneDNN has no bf16 kernel), f16 widened to f32
// (dnnl/dnnl_primitives.hpp). The attributes are read once, at create; the primitive is
// prepared per combination of shapes, in the layouts oneDNN chooses where that pays. FusedConv
// is the same kernel with an activation, which oneDNN applies as a post-op.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "dnnl/dnnl_primitives.hpp"
#include "dnnl/onnx_window.hpp"
#include "kernels/bias_fill.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/fused_activation.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct ConvInstance {
  int64_t group = 1;
  OnnxWindow window;
  FusedActivation activation;  // FusedConv's; none for Conv
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;
};

// Whether the convolution runs in the layouts oneDNN chooses (blocked channels), its input
// and output reordered around each call: its blocked kernels ran 1.2 to 2.3 times faster than
// the plain layout's im2col GEMM here, the reorders included. Weights that are a graph
// constant are reordered once (run_prepared); others on every call, which costs more than it
// saves where they outweigh the tensors: 512 to 512 channels 3x3 at 7x7, 3.26 ms against
// 2.38 (AVX-512, one thread; bench/RESULTS.md). So those only where the weights have no more
// elements than the input and output together.
constexpr int64_t kFewChannels = 8;

bool in_chosen_layouts(const KernelCall& call) {
  return call.constant_id(1) != 0 || element_count(call.input(1)) <=
                                         element_count(call.input(0)) +
                                             element_count(call.output(0));
}

Prepared prepare_conv(DataType type, const ConvInstance& conv, const KernelCall& call) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& w = call.input(1);
  const hx_tensor_view& y = call.output(0);
  const bool bias = call.num_inputs() == 3;
  const DnnlWindow window = dnnl_window(conv.window, x, y, w.shape + 2);
  std::vector<int64_t> weights = dims_of(w);
  if (conv.group > 1) {
    weights[0] /= conv.group;
    weights.insert(weights.begin(), conv.group);
  }
  Prepared prepared;
  prepared.inputs = {{DNNL_ARG_SRC, dense_desc(dims_of(x), type)},
                     {DNNL_ARG_WEIGHTS, dense_desc(weights, type)}};
  if (bias) prepared.inputs.push_back({DNNL_ARG_BIAS, dense_desc({w.shape[0]}, type)});
  prepared.output = dense_desc(dims_of(y), type);
  const dnnl::memory::desc none;
  const bool chosen = in_chosen_layouts(call);
  const auto any = [&](const dnnl::memory::desc& plain) {
    return chosen ? dnnl::memory::desc(plain.dims(), type, dnnl::memory::format_tag::any) : plain;
  };
  // A first layer's few input channels (an image's 3) are read faster as they are, by
  // oneDNN's kernel for them, than reordered: 3 to 16 channels at 32x32, 14.0 us against 18.8.
  const bool few_channels = x.shape[1] / conv.group < kFewChannels;
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  set_activation_post_op(attr, conv.activation);
  const auto primitive_for = [&](const dnnl::memory::desc& src,
                                 const dnnl::memory::desc& weights,
                                 const dnnl::memory::desc& dst) {
    return dnnl::convolution_forward::primitive_desc(
        dnnl::convolution_forward::desc(
            dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
            weights, bias ? prepared.inputs[2].second : none, dst, window.strides,
            window.dilates, window.pad_begin, window.pad_end),
        attr, cpu_engine());
  };
  const DnnlThreads scope(threads_for(element_count(call.output(0)), conv.threads));
  const dnnl::convolution_forward::primitive_desc primitive_desc = primitive_for(
      few_channels ? prepared.inputs[0].second : any(prepared.inputs[0].second),
      any(prepared.inputs[1].second), any(prepared.output));
  prepared.primitive = dnnl::convolution_forward(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  if (chosen) use_chosen_layouts(prepared, primitive_desc);
  prepared.by_image = image_by_image(primitive_desc, primitive_for);
  return prepared;
}

}  // namespace

namespace {

hx_status* create_conv(const hx_kernel_create_args* args, bool fused,
                       hx_kernel_instance** out_instance) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  auto conv = std::make_unique<ConvInstance>();
  if (fused) {
    if (hx_status* status = read_fused_activation(create, "FusedConv", &conv->activation)) {
      return status;
    }
  }
  conv->threads = plugin.intra_op_threads;
  if (hx_status* status = create.attr_int("group", &conv->group)) return status;
  if (hx_status* status = read_onnx_window(create, &conv->window)) return status;
  if (conv->group < 1) {
    return create.error(HX_INVALID_ARGUMENT, "Conv: group is %lld; it must be at least 1",
                        static_cast<long long>(conv->group));
  }
  *out_instance = hxplugin::to_instance(conv.release());
  return nullptr;
}

}  // namespace

hx_status* conv_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  return create_conv(args, false, out_instance);
}

hx_status* fused_conv_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance) {
  return create_conv(args, true, out_instance);
}

void conv_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ConvInstance>(instance, user_data);
}

hx_status* conv_check(const hx_kernel_args* args) {
  return check_spatial_rank(KernelCall(args), "Conv");
}

hx_status* conv_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const ConvInstance& conv = hxplugin::instance_of<ConvInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.output(0);
  if (x.rank < 3 || x.rank > 5 || call.input(1).rank != x.rank || y.rank != x.rank) {
    return call.error(HX_INVALID_ARGUMENT, "Conv: X, W and Y must have one rank of 3 to 5");
  }
  if (element_count(y) == 0) return nullptr;
  if (element_count(x) == 0 || element_count(call.input(1)) == 0) {
    fill_with_bias(call, conv.activation);
    return nullptr;
  }
  try {
    const auto prepare = [&](DataType type) { return prepare_conv(type, conv, call); };
    const std::shared_ptr<const Prepared> prepared = conv.primitives.get(
        shapes_key(call), [&] { return prepare_for(call.output(0).dtype, prepare); });
    return run_prepared(call, "Conv", *prepared, conv.threads);
  } catch (const dnnl::error& error) {
    return dnnl_error(call, "Conv", error);
  }
}

}  // namespace hxcpu

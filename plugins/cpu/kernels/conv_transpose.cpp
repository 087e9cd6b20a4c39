// ConvTranspose on oneDNN's deconvolution (forward inference): f32, bf16 natively (f32 where
// oneDNN has no bf16 kernel), f16 widened to f32; the primitive prepared per combination of
// shapes. ONNX's W is [C, M / group, k...]
// (input channels first); oneDNN's weights are [group, M / group, C / group, k...], which
// reads W in place at permuted strides.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include "dnnl/dnnl_primitives.hpp"
#include "dnnl/onnx_window.hpp"
#include "kernels/bias_fill.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct ConvTransposeInstance {
  int64_t group = 1;
  OnnxWindow window;
  std::vector<int64_t> output_padding;
  bool output_shape_given = false;
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;
};

// W [C, M / group, k...] as oneDNN's [group, M / group, C / group, k...] (group 1: without the
// group axis).
dnnl::memory::desc weights_desc(const hx_tensor_view& w, int64_t group, DataType type) {
  int64_t taps = 1;
  for (int32_t axis = 2; axis < w.rank; ++axis) taps *= w.shape[axis];
  const int64_t outputs = w.shape[1];  // per group
  const int64_t inputs = w.shape[0] / group;
  std::vector<int64_t> dims = {outputs, inputs};
  std::vector<int64_t> strides = {taps, outputs * taps};
  if (group > 1) {
    dims.insert(dims.begin(), group);
    strides.insert(strides.begin(), inputs * outputs * taps);
  }
  int64_t stride = taps;
  for (int32_t axis = 2; axis < w.rank; ++axis) {
    stride /= w.shape[axis];
    dims.push_back(w.shape[axis]);
    strides.push_back(stride);
  }
  return strided_desc(dims, strides, type);
}

Prepared prepare_conv_transpose(DataType type, const ConvTransposeInstance& conv,
                                const KernelCall& call) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& w = call.input(1);
  const hx_tensor_view& y = call.output(0);
  const bool bias = call.num_inputs() == 3;
  const DnnlWindow window = dnnl_transposed_window(conv.window, conv.output_shape_given,
                                                   conv.output_padding, x, y, w.shape + 2);
  Prepared prepared;
  prepared.inputs = {{DNNL_ARG_SRC, dense_desc(dims_of(x), type)},
                     {DNNL_ARG_WEIGHTS, weights_desc(w, conv.group, type)}};
  if (bias) prepared.inputs.push_back({DNNL_ARG_BIAS, dense_desc({y.shape[1]}, type)});
  prepared.output = dense_desc(dims_of(y), type);
  const dnnl::memory::desc none;
  const dnnl::deconvolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
      prepared.inputs[0].second, prepared.inputs[1].second,
      bias ? prepared.inputs[2].second : none, prepared.output, window.strides, window.dilates,
      window.pad_begin, window.pad_end);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const DnnlThreads scope(threads_for(element_count(call.output(0)), conv.threads));
  const dnnl::deconvolution_forward::primitive_desc primitive_desc(desc, attr, cpu_engine());
  prepared.primitive = dnnl::deconvolution_forward(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  return prepared;
}

}  // namespace

hx_status* conv_transpose_create(const hx_kernel_create_args* args,
                                 hx_kernel_instance** out_instance) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  auto conv = std::make_unique<ConvTransposeInstance>();
  conv->threads = plugin.intra_op_threads;
  if (hx_status* status = create.attr_int("group", &conv->group)) return status;
  if (hx_status* status = read_onnx_window(create, &conv->window)) return status;
  if (hx_status* status = read_ints(create, "output_padding", &conv->output_padding)) {
    return status;
  }
  std::vector<int64_t> output_shape;
  if (hx_status* status = read_ints(create, "output_shape", &output_shape)) return status;
  conv->output_shape_given = !output_shape.empty();
  if (conv->group < 1) {
    return create.error(HX_INVALID_ARGUMENT, "ConvTranspose: group is %lld; it must be >= 1",
                        static_cast<long long>(conv->group));
  }
  *out_instance = hxplugin::to_instance(conv.release());
  return nullptr;
}

void conv_transpose_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ConvTransposeInstance>(instance, user_data);
}

hx_status* conv_transpose_check(const hx_kernel_args* args) {
  return check_spatial_rank(KernelCall(args), "ConvTranspose");
}

hx_status* conv_transpose_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const ConvTransposeInstance& conv =
      hxplugin::instance_of<ConvTransposeInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& w = call.input(1);
  const hx_tensor_view& y = call.output(0);
  if (x.rank < 3 || x.rank > 5 || w.rank != x.rank || y.rank != x.rank ||
      w.shape[0] != x.shape[1] || x.shape[1] % conv.group != 0 ||
      y.shape[1] != w.shape[1] * conv.group) {
    return call.error(HX_INVALID_ARGUMENT,
                      "ConvTranspose: X, W and Y must have one rank of 3 to 5, W [C, M / group, "
                      "k...] and Y M channels");
  }
  if (element_count(y) == 0) return nullptr;
  if (element_count(x) == 0 || element_count(w) == 0) {
    fill_with_bias(call);
    return nullptr;
  }
  try {
    const auto prepare = [&](DataType type) { return prepare_conv_transpose(type, conv, call); };
    const std::shared_ptr<const Prepared> prepared = conv.primitives.get(
        shapes_key(call), [&] { return prepare_for(call.output(0).dtype, prepare); });
    return run_prepared(call, "ConvTranspose", *prepared, conv.threads);
  } catch (const dnnl::error& error) {
    return dnnl_error(call, "ConvTranspose", error);
  }
}

}  // namespace hxcpu

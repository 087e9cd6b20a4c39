// BlockedConv, BlockedMaxPool and BlockedGlobalAveragePool (the core's ops/channel_blocks.hpp)
// on oneDNN, whose nChw16c layout is the core's [N, C / 16, H, W, 16] for C channels: the
// primitives read and write the tensors where they are, and a chain of them reorders nothing
// between its convolutions and pools. Blocks of 16 floats only, an AVX-512 register
// (kernel_registry.cpp registers them where oneDNN runs AVX-512); f32.
#include <hxplugin/kernel_create.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include "dnnl/dnnl_primitives.hpp"
#include "dnnl/onnx_window.hpp"
#include "kernels/fused_activation.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

constexpr int64_t kBlock = 16;

struct BlockedInstance {
  const char* op = "";
  bool conv = false;
  // Conv's
  int64_t group = 1;
  FusedActivation activation;
  // The pools'
  dnnl::algorithm algorithm = dnnl::algorithm::pooling_max;
  bool global = false;
  std::vector<int64_t> kernel;
  int64_t channels = 0;
  OnnxWindow window;
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;
};

// `view` as its plain [N, C, H, W]: the shape oneDNN's descriptors and the window take.
struct PlainView {
  int64_t shape[4];
  hx_tensor_view view;
  PlainView(const hx_tensor_view& of, int64_t channels) : view(of) {
    shape[0] = of.shape[0];
    shape[1] = channels;
    shape[2] = of.shape[2];
    shape[3] = of.shape[3];
    view.rank = 4;
    view.shape = shape;
  }
};

// A tensor of `channels` channels: plain (rank 4) or in blocks of 16 (rank 5, nChw16c).
dnnl::memory::desc channel_desc(const hx_tensor_view& view, int64_t channels) {
  const dnnl::memory::dims dims = {view.shape[0], channels, view.shape[2], view.shape[3]};
  if (view.rank == 4) return dense_desc(dims, DataType::f32);
  return dnnl::memory::desc(dims, DataType::f32, dnnl::memory::format_tag::nChw16c);
}

// What the primitive is asked to write: a plain output (plain_output) in the layout it
// chooses, then reordered (run_prepared): oneDNN's pools have no fast kernel from blocks to
// plain (its reference loop took 0.63 ms for a 16x32x8x8 average, its reorder 7 us).
dnnl::memory::desc asked_output(const dnnl::memory::desc& output, const hx_tensor_view& view) {
  if (view.rank == 5) return output;
  return dnnl::memory::desc(output.dims(), DataType::f32, dnnl::memory::format_tag::any);
}

int64_t input_channels(const BlockedInstance& blocked, const KernelCall& call) {
  return blocked.conv ? call.input(1).shape[1] * blocked.group : blocked.channels;
}
int64_t output_channels(const BlockedInstance& blocked, const KernelCall& call) {
  return blocked.conv ? call.input(1).shape[0] : blocked.channels;
}

Prepared prepare_conv(const BlockedInstance& blocked, const KernelCall& call) {
  const hx_tensor_view& w = call.input(1);
  const PlainView x(call.input(0), input_channels(blocked, call));
  const PlainView y(call.output(0), output_channels(blocked, call));
  const DnnlWindow window = dnnl_window(blocked.window, x.view, y.view, w.shape + 2);
  std::vector<int64_t> weights = dims_of(w);
  if (blocked.group > 1) {
    weights[0] /= blocked.group;
    weights.insert(weights.begin(), blocked.group);
  }
  Prepared prepared;
  prepared.inputs = {{DNNL_ARG_SRC, channel_desc(call.input(0), x.shape[1])},
                     {DNNL_ARG_WEIGHTS, dense_desc(weights, DataType::f32)}};
  const bool bias = call.num_inputs() == 3;
  if (bias) prepared.inputs.push_back({DNNL_ARG_BIAS, dense_desc({w.shape[0]}, DataType::f32)});
  prepared.output = channel_desc(call.output(0), y.shape[1]);
  // The weights in the layout oneDNN chooses, reordered once where they are a graph constant.
  const dnnl::memory::desc any_weights(prepared.inputs[1].second.dims(), DataType::f32,
                                       dnnl::memory::format_tag::any);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  set_activation_post_op(attr, blocked.activation);
  const auto primitive_for = [&](const dnnl::memory::desc& src,
                                 const dnnl::memory::desc& weights,
                                 const dnnl::memory::desc& dst) {
    return dnnl::convolution_forward::primitive_desc(
        dnnl::convolution_forward::desc(
            dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
            weights, bias ? prepared.inputs[2].second : dnnl::memory::desc(), dst,
            window.strides, window.dilates, window.pad_begin, window.pad_end),
        attr, cpu_engine());
  };
  const DnnlThreads scope(threads_for(element_count(call.output(0)), blocked.threads));
  const dnnl::convolution_forward::primitive_desc primitive_desc = primitive_for(
      prepared.inputs[0].second, any_weights, asked_output(prepared.output, call.output(0)));
  prepared.primitive = dnnl::convolution_forward(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  use_chosen_layouts(prepared, primitive_desc);
  prepared.by_image = image_by_image(primitive_desc, primitive_for);
  return prepared;
}

Prepared prepare_pool(const BlockedInstance& blocked, const KernelCall& call) {
  const PlainView x(call.input(0), blocked.channels);
  const PlainView y(call.output(0), blocked.channels);
  const std::vector<int64_t> kernel =
      blocked.global ? std::vector<int64_t>{x.shape[2], x.shape[3]} : blocked.kernel;
  const DnnlWindow window = dnnl_window(blocked.window, x.view, y.view, kernel.data());
  Prepared prepared;
  prepared.inputs = {{DNNL_ARG_SRC, channel_desc(call.input(0), blocked.channels)}};
  prepared.output = channel_desc(call.output(0), blocked.channels);
  const dnnl::pooling_v2_forward::desc desc(
      dnnl::prop_kind::forward_inference, blocked.algorithm, prepared.inputs[0].second,
      asked_output(prepared.output, call.output(0)), window.strides, kernel, window.dilates,
      window.pad_begin, window.pad_end);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const DnnlThreads scope(threads_for(element_count(call.output(0)), blocked.threads));
  const dnnl::pooling_v2_forward::primitive_desc primitive_desc(desc, attr, cpu_engine());
  prepared.primitive = dnnl::pooling_v2_forward(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  use_chosen_layouts(prepared, primitive_desc);
  return prepared;
}

hx_status* create_blocked(const hx_kernel_create_args* args, hx_kernel_instance** out_instance,
                          const char* op) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  auto blocked = std::make_unique<BlockedInstance>();
  blocked->op = op;
  blocked->conv = std::strcmp(op, "BlockedConv") == 0;
  blocked->global = std::strcmp(op, "BlockedGlobalAveragePool") == 0;
  blocked->threads = plugin.intra_op_threads;
  if (blocked->conv) {
    if (hx_status* status = read_fused_activation(create, op, &blocked->activation)) {
      return status;
    }
    if (hx_status* status = create.attr_int("group", &blocked->group)) return status;
    int64_t block = kBlock;
    if (hx_status* status = create.attr_int("block", &block)) return status;
    if (block != kBlock) {
      return create.error(HX_UNIMPLEMENTED,
                          "%s on CPU: blocks of %lld channels; the CPU kernel takes 16", op,
                          static_cast<long long>(block));
    }
  } else {
    if (hx_status* status = create.attr_int("channels", &blocked->channels)) return status;
    blocked->algorithm = blocked->global ? dnnl::algorithm::pooling_avg_exclude_padding
                                         : dnnl::algorithm::pooling_max;
  }
  if (!blocked->global) {
    if (hx_status* status = read_onnx_window(create, &blocked->window)) return status;
  }
  if (std::strcmp(op, "BlockedMaxPool") == 0) {
    if (hx_status* status = read_ints(create, "kernel_shape", &blocked->kernel)) return status;
  }
  *out_instance = hxplugin::to_instance(blocked.release());
  return nullptr;
}

}  // namespace

hx_status* blocked_conv_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_blocked(args, out, "BlockedConv");
}
hx_status* blocked_max_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_blocked(args, out, "BlockedMaxPool");
}
hx_status* blocked_global_average_pool_create(const hx_kernel_create_args* args,
                                              hx_kernel_instance** out) {
  return create_blocked(args, out, "BlockedGlobalAveragePool");
}

void blocked_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<BlockedInstance>(instance, user_data);
}

// Declines blocks other than 16, and a MaxPool of ceil_mode's extended last window or a
// dilation, which the pools' plain path computes by its own loop.
hx_status* blocked_check(const hx_kernel_args* args) {
  const KernelCall call(args);
  const BlockedInstance& blocked = hxplugin::instance_of<BlockedInstance>(call.instance());
  for (const hx_tensor_view* view : {&call.input(0), &call.output(0)}) {
    if (view->rank == 5 && view->shape[4] != kBlock) {
      return call.error(HX_UNIMPLEMENTED, "%s on CPU: blocks of %lld channels; it takes 16",
                        blocked.op, static_cast<long long>(view->shape[4]));
    }
  }
  if (!blocked.conv && !blocked.global) {
    const PlainView x(call.input(0), blocked.channels);
    const PlainView y(call.output(0), blocked.channels);
    if (dnnl_window(blocked.window, x.view, y.view, blocked.kernel.data()).extended) {
      return call.error(HX_UNIMPLEMENTED,
                        "%s on CPU: a last window past the end padding (ceil_mode)", blocked.op);
    }
  }
  return nullptr;
}

hx_status* blocked_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const BlockedInstance& blocked = hxplugin::instance_of<BlockedInstance>(call.instance());
  if (element_count(call.output(0)) == 0) return nullptr;
  try {
    const std::shared_ptr<const Prepared> prepared =
        blocked.primitives.get(shapes_key(call), [&] {
          return blocked.conv ? prepare_conv(blocked, call) : prepare_pool(blocked, call);
        });
    return run_prepared(call, blocked.op, *prepared, blocked.threads);
  } catch (const dnnl::error& error) {
    return dnnl_error(call, blocked.op, error);
  }
}

}  // namespace hxcpu

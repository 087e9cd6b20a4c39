#include "dnnl/dnnl_primitives.hpp"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <unordered_map>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"

namespace hxcpu {
namespace {

template <class From, class To>
void convert_all(const From* from, int64_t count, To* to) {
  for (int64_t i = 0; i < count; ++i) to[i] = convert_element<To>(from[i]);
}

void widen(const hx_tensor_view& view, int64_t count, float* out) {
  if (view.dtype == HX_DTYPE_F16) {
    convert_all(input_data<Half>(view), count, out);
  } else {
    convert_all(input_data<BFloat16>(view), count, out);
  }
}

void narrow(const float* in, int64_t count, const hx_tensor_view& view) {
  if (view.dtype == HX_DTYPE_F16) {
    convert_all(in, count, output_data<Half>(view));
  } else {
    convert_all(in, count, output_data<BFloat16>(view));
  }
}

}  // namespace

const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

DnnlThreads::DnnlThreads(uint32_t threads) {
  if (threads == 0) return;
  previous_ = omp_get_max_threads();
  omp_set_num_threads(static_cast<int>(std::min<uint32_t>(threads, INT_MAX)));
}

DnnlThreads::~DnnlThreads() {
  if (previous_ > 0) omp_set_num_threads(previous_);
}

dnnl::memory::desc dense_desc(const std::vector<int64_t>& dims, DataType type) {
  dnnl::memory::dims strides(dims.size());
  int64_t stride = 1;
  for (size_t axis = dims.size(); axis-- > 0;) {
    strides[axis] = stride;
    stride *= std::max<int64_t>(dims[axis], 1);
  }
  return dnnl::memory::desc(dims, type, strides);
}

dnnl::memory::desc strided_desc(const std::vector<int64_t>& dims,
                                const std::vector<int64_t>& strides, DataType type) {
  return dnnl::memory::desc(dims, type, strides);
}

std::vector<int64_t> dims_of(const hx_tensor_view& view) {
  return std::vector<int64_t>(view.shape, view.shape + view.rank);
}

std::vector<int64_t> shapes_key(const KernelCall& call) {
  std::vector<int64_t> key;
  const auto add = [&key](const hx_tensor_view& view) {
    key.push_back(view.rank);
    key.insert(key.end(), view.shape, view.shape + view.rank);
    key.insert(key.end(), view.strides, view.strides + view.rank);
  };
  for (size_t i = 0; i < call.num_inputs(); ++i) add(call.input(i));
  for (size_t i = 0; i < call.num_outputs(); ++i) add(call.output(i));
  return key;
}

hx_status* dnnl_error(const KernelCall& call, const char* op, const dnnl::error& error) {
  return call.error(HX_INTERNAL, "%s on CPU: oneDNN: %s (status %d)", op, error.what(),
                    static_cast<int>(error.status));
}

void set_activation_post_op(dnnl::primitive_attr& attr, const FusedActivation& activation) {
  using Kind = FusedActivation::Kind;
  if (activation.kind == Kind::kNone) return;
  // Relu's alpha is LeakyRelu's slope.
  const dnnl::algorithm algorithm =
      activation.kind == Kind::kSigmoid ? dnnl::algorithm::eltwise_logistic
      : activation.kind == Kind::kTanh  ? dnnl::algorithm::eltwise_tanh
                                        : dnnl::algorithm::eltwise_relu;
  const float alpha =
      activation.kind == Kind::kLeakyRelu ? static_cast<float>(activation.alpha) : 0.0f;
  dnnl::post_ops post_ops;
  post_ops.append_eltwise(1.0f, algorithm, alpha, 0.0f);
  attr.set_post_ops(post_ops);
}

void use_chosen_layouts(Prepared& prepared, const dnnl::primitive_desc_base& primitive_desc) {
  const dnnl::engine& engine = cpu_engine();
  const auto relayout = [&](const dnnl::memory::desc& plain, const dnnl::memory::desc& chosen,
                            bool into) {
    Prepared::Relayout entry;
    if (chosen == plain) return entry;
    entry.layout = chosen;
    entry.reorder = into ? dnnl::reorder(dnnl::reorder::primitive_desc(engine, plain, engine,
                                                                       chosen))
                         : dnnl::reorder(dnnl::reorder::primitive_desc(engine, chosen, engine,
                                                                       plain));
    return entry;
  };
  prepared.input_layouts.clear();
  for (const auto& [arg, plain] : prepared.inputs) {
    prepared.input_layouts.push_back(relayout(plain, primitive_desc.query_md(
                                                         dnnl::query::exec_arg_md, arg), true));
  }
  prepared.output_layout = relayout(
      prepared.output, primitive_desc.query_md(dnnl::query::exec_arg_md, DNNL_ARG_DST), false);
}

hx_status* run_prepared(const KernelCall& call, const char* op, const Prepared& prepared,
                        uint32_t threads) {
  const hx_tensor_view& out = call.output(0);
  const int32_t dtype = out.dtype;
  if (dtype != HX_DTYPE_F32 && dtype != HX_DTYPE_F16 && dtype != HX_DTYPE_BF16) {
    return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                      hx_dtype_name(dtype));
  }
  const bool wide = dtype == HX_DTYPE_F32 || prepared.native;
  std::vector<std::vector<float>> widened(prepared.inputs.size());
  // Inputs and output in the primitive's own layouts, where it chose some.
  std::vector<std::vector<unsigned char>> laid_out(prepared.inputs.size() + 1);
  std::unordered_map<int, dnnl::memory> args;
  const dnnl::engine& engine = cpu_engine();
  const DnnlThreads scope(threads);
  dnnl::stream stream(engine);
  const auto in_layout = [&](const Prepared::Relayout& relayout, size_t slot) {
    laid_out[slot].resize(relayout.layout.get_size());
    return dnnl::memory(relayout.layout, engine, laid_out[slot].data());
  };
  for (size_t i = 0; i < prepared.inputs.size(); ++i) {
    const hx_tensor_view& input = call.input(i);
    if (input.dtype != dtype || (!prepared.native && !hxplugin::is_dense(input))) {
      return call.error(HX_INVALID_ARGUMENT,
                        "%s: input %zu is %s%s; the CPU kernel takes dense inputs of the "
                        "output's dtype %s",
                        op, i, hx_dtype_name(input.dtype),
                        hxplugin::is_dense(input) ? "" : " and not dense", hx_dtype_name(dtype));
    }
    float* data = const_cast<float*>(input_data<float>(input));
    if (!wide) {
      widened[i].resize(static_cast<size_t>(element_count(input)));
      widen(input, element_count(input), widened[i].data());
      data = widened[i].data();
    }
    dnnl::memory plain(prepared.inputs[i].second, engine, data);
    const Prepared::Relayout* relayout =
        i < prepared.input_layouts.size() && prepared.input_layouts[i].reorder
            ? &prepared.input_layouts[i]
            : nullptr;
    if (relayout == nullptr) {
      args.emplace(prepared.inputs[i].first, plain);
      continue;
    }
    dnnl::memory chosen = in_layout(*relayout, i);
    try {
      relayout->reorder.execute(stream, plain, chosen);
    } catch (const dnnl::error& error) {
      return dnnl_error(call, op, error);
    }
    args.emplace(prepared.inputs[i].first, chosen);
  }
  const int64_t out_count = element_count(out);
  std::vector<float> wide_out(wide ? 0 : static_cast<size_t>(out_count));
  dnnl::memory plain_out(prepared.output, engine,
                               wide ? output_data<float>(out) : wide_out.data());
  const bool out_relaid = static_cast<bool>(prepared.output_layout.reorder);
  dnnl::memory chosen_out =
      out_relaid ? in_layout(prepared.output_layout, prepared.inputs.size())
                 : plain_out;
  args.emplace(DNNL_ARG_DST, chosen_out);
  std::vector<unsigned char> scratchpad(prepared.scratchpad.get_size());
  args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(prepared.scratchpad, engine, scratchpad.data()));
  try {
    prepared.primitive.execute(stream, args);
    if (out_relaid) prepared.output_layout.reorder.execute(stream, chosen_out, plain_out);
    stream.wait();
  } catch (const dnnl::error& error) {
    return dnnl_error(call, op, error);
  }
  if (!wide) narrow(wide_out.data(), out_count, out);
  return nullptr;
}

}  // namespace hxcpu

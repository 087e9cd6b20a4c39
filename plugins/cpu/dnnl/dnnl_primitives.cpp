#include "dnnl/dnnl_primitives.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
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
  // A primitive may read a graph constant in a layout of its own, which a call of other
  // inputs would reorder every time.
  for (size_t i = 0; i < call.num_inputs(); ++i) key.push_back(call.constant_id(i) != 0);
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
      : activation.kind == Kind::kGelu  ? dnnl::algorithm::eltwise_gelu_erf
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

namespace {

// A thread's buffers for the calls it runs, one at a time: the primitive's scratchpad, inputs
// and output in its own layouts, f16 and bf16 widened to f32. Grown to the largest call's and
// kept, so that a call neither allocates nor zeroes them (a conv's scratchpad zeroed on every
// call cost microseconds).
struct ThreadBuffers {
  std::vector<unsigned char> scratch;
  std::vector<std::vector<unsigned char>> laid_out;  // by input, then the output
  std::vector<std::vector<float>> widened;           // by input, then the output
};

// One prepared primitive's memory objects, kept by a thread between its calls: making a oneDNN
// memory object costs about 150 ns (a softmax of ten elements runs in 330), pointing one at a
// call's buffer (set_data_handle) a fraction of that. The entry holds the primitive, so no
// other primitive can take its address while the entry lives.
struct Bound {
  dnnl::primitive primitive;
  std::vector<dnnl::memory> plain_inputs;   // by input: the call's buffer, or its widened copy
  std::vector<dnnl::memory> chosen_inputs;  // by input: in the primitive's layout, or empty
  dnnl::memory plain_output;
  dnnl::memory chosen_output;               // empty when the primitive writes plain_output
  dnnl::memory scratchpad;
  std::unordered_map<int, dnnl::memory> args;
};

Bound make_bound(const Prepared& prepared) {
  const dnnl::engine& engine = cpu_engine();
  Bound bound;
  bound.primitive = prepared.primitive;
  for (size_t i = 0; i < prepared.inputs.size(); ++i) {
    bound.plain_inputs.emplace_back(prepared.inputs[i].second, engine, nullptr);
    const bool relaid = i < prepared.input_layouts.size() && prepared.input_layouts[i].reorder;
    bound.chosen_inputs.push_back(
        relaid ? dnnl::memory(prepared.input_layouts[i].layout, engine, nullptr)
               : dnnl::memory());
    bound.args.emplace(prepared.inputs[i].first,
                       relaid ? bound.chosen_inputs[i] : bound.plain_inputs[i]);
  }
  bound.plain_output = dnnl::memory(prepared.output, engine, nullptr);
  if (prepared.output_layout.reorder) {
    bound.chosen_output = dnnl::memory(prepared.output_layout.layout, engine, nullptr);
  }
  bound.args.emplace(DNNL_ARG_DST,
                     bound.chosen_output ? bound.chosen_output : bound.plain_output);
  bound.scratchpad = dnnl::memory(prepared.scratchpad, engine, nullptr);
  bound.args.emplace(DNNL_ARG_SCRATCHPAD, bound.scratchpad);
  return bound;
}

// This thread's entry for `prepared`, made on its first call here; the latest kBoundKept
// primitives a thread ran keep theirs.
constexpr size_t kBoundKept = 32;
Bound& bound_for(const Prepared& prepared) {
  thread_local std::vector<Bound> kept;
  thread_local size_t next = 0;
  for (Bound& bound : kept) {
    if (bound.primitive.get() == prepared.primitive.get()) return bound;
  }
  if (kept.size() < kBoundKept) {
    kept.push_back(make_bound(prepared));
    return kept.back();
  }
  Bound& slot = kept[next];
  next = (next + 1) % kBoundKept;
  slot = make_bound(prepared);
  return slot;
}

// The primitive on the whole batch, or image by image where that was timed faster.
void execute_faster_way(const Prepared& prepared, dnnl::stream& stream,
                        const std::unordered_map<int, dnnl::memory>& args, uint32_t threads) {
  if (!prepared.by_image) {
    prepared.primitive.execute(stream, args);
    return;
  }
  FasterWay& way = prepared.by_image->way;
  bool timed = false;
  const bool by_image = way.next_by_image(&timed);
  const auto start = timed ? std::chrono::steady_clock::now()
                           : std::chrono::steady_clock::time_point();
  if (by_image) {
    run_by_image(*prepared.by_image, args, threads);
  } else {
    prepared.primitive.execute(stream, args);
    if (timed) stream.wait();
  }
  if (timed) way.record(by_image, std::chrono::steady_clock::now() - start);
}

}  // namespace

hx_status* run_prepared(const KernelCall& call, const char* op, const Prepared& prepared,
                        uint32_t threads) {
  const hx_tensor_view& out = call.output(0);
  const int32_t dtype = out.dtype;
  if (dtype != HX_DTYPE_F32 && dtype != HX_DTYPE_F16 && dtype != HX_DTYPE_BF16) {
    return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                      hx_dtype_name(dtype));
  }
  for (size_t i = 0; i < prepared.inputs.size(); ++i) {
    const hx_tensor_view& input = call.input(i);
    if (input.dtype != dtype || (!prepared.native && !hxplugin::is_dense(input))) {
      return call.error(HX_INVALID_ARGUMENT,
                        "%s: input %zu is %s%s; the CPU kernel takes dense inputs of the "
                        "output's dtype %s",
                        op, i, hx_dtype_name(input.dtype),
                        hxplugin::is_dense(input) ? "" : " and not dense", hx_dtype_name(dtype));
    }
  }
  // A native primitive reads the call's own dtype; otherwise f16 and bf16 go through f32.
  const bool wide = dtype == HX_DTYPE_F32 || prepared.native;
  thread_local ThreadBuffers buffers;
  const size_t inputs = prepared.inputs.size();
  if (buffers.laid_out.size() < inputs + 1) buffers.laid_out.resize(inputs + 1);
  if (buffers.widened.size() < inputs + 1) buffers.widened.resize(inputs + 1);
  const auto float_count = [](const dnnl::memory::desc& desc) {
    return desc.get_size() / sizeof(float);
  };
  try {
    const DnnlThreads scope(threads_for(element_count(out), threads));
    Bound& bound = bound_for(prepared);
    dnnl::stream stream(cpu_engine());
    for (size_t i = 0; i < inputs; ++i) {
      const hx_tensor_view& input = call.input(i);
      const auto plain = [&] {
        float* data = const_cast<float*>(input_data<float>(input));
        if (!wide) {
          data = grown_to(buffers.widened[i], float_count(prepared.inputs[i].second));
          widen(input, element_count(input), data);
        }
        bound.plain_inputs[i].set_data_handle(data);
      };
      if (!bound.chosen_inputs[i]) {
        plain();
        continue;
      }
      const Prepared::Relayout& relayout = prepared.input_layouts[i];
      const auto reorder_into = [&](void* laid_out) {
        plain();
        bound.chosen_inputs[i].set_data_handle(laid_out);
        relayout.reorder.execute(stream, bound.plain_inputs[i], bound.chosen_inputs[i]);
      };
      // A graph constant is reordered once, under its id, and read from there on.
      if (const uint64_t id = call.constant_id(i)) {
        bound.chosen_inputs[i].set_data_handle(
            call.plugin().constant_layouts.find_or_make(id, relayout.layout, [&](void* kept) {
              reorder_into(kept);
              stream.wait();
            }));
      } else {
        reorder_into(grown_to(buffers.laid_out[i], relayout.layout.get_size()));
      }
    }
    float* output = wide ? output_data<float>(out)
                         : grown_to(buffers.widened[inputs], float_count(prepared.output));
    bound.plain_output.set_data_handle(output);
    if (bound.chosen_output) {
      bound.chosen_output.set_data_handle(
          grown_to(buffers.laid_out[inputs], prepared.output_layout.layout.get_size()));
    }
    bound.scratchpad.set_data_handle(grown_to(buffers.scratch, prepared.scratchpad.get_size()));
    execute_faster_way(prepared, stream, bound.args, threads);
    if (bound.chosen_output) {
      prepared.output_layout.reorder.execute(stream, bound.chosen_output, bound.plain_output);
    }
    stream.wait();
    if (!wide) narrow(output, element_count(out), out);
  } catch (const dnnl::error& error) {
    return dnnl_error(call, op, error);
  }
  return nullptr;
}

}  // namespace hxcpu

// The pools on oneDNN's pooling (pooling_v2, which has dilations), forward inference, on plain
// row-major tensors: f32, bf16 natively (f32 where oneDNN has no bf16 kernel), f16 widened to
// f32. The global pools are pools whose window is the whole spatial extent. Attributes are
// read once, at create; the primitive is prepared per combination of shapes.
//
// count_include_pad: oneDNN's avg_include_padding divides by the whole window, which is ONNX's
// divisor while every window lies inside the padded input; a ceil_mode window reaching past the
// end padding (whose extra taps ONNX does not count) runs the direct loop of direct_pool.hpp
// instead, as does a MaxPool asked for its Indices, which oneDNN does not give.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "dnnl/dnnl_primitives.hpp"
#include "dnnl/onnx_window.hpp"
#include "kernels/direct_pool.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct PoolInstance {
  const char* op = "";
  dnnl::algorithm algorithm = dnnl::algorithm::pooling_max;
  bool global = false;
  std::vector<int64_t> kernel;  // kernel_shape (global: the input's spatial extents)
  OnnxWindow window;
  bool count_include_pad = false;
  bool column_major = false;  // storage_order 1
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;
};

std::vector<int64_t> kernel_of(const PoolInstance& pool, const hx_tensor_view& x) {
  if (!pool.global) return pool.kernel;
  return std::vector<int64_t>(x.shape + 2, x.shape + x.rank);
}

Prepared prepare_pool(DataType type, const PoolInstance& pool, const KernelCall& call) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.output(0);
  const std::vector<int64_t> kernel = kernel_of(pool, x);
  const DnnlWindow window = dnnl_window(pool.window, x, y, kernel.data());
  Prepared prepared;
  prepared.inputs = {{DNNL_ARG_SRC, dense_desc(dims_of(x), type)}};
  prepared.output = dense_desc(dims_of(y), type);
  const dnnl::pooling_v2_forward::desc desc(
      dnnl::prop_kind::forward_inference, pool.algorithm, prepared.inputs[0].second,
      prepared.output, window.strides, kernel, window.dilates, window.pad_begin,
      window.pad_end);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  const DnnlThreads scope(threads_for(element_count(call.output(0)), pool.threads));
  const dnnl::pooling_v2_forward::primitive_desc primitive_desc(desc, attr, cpu_engine());
  prepared.primitive = dnnl::pooling_v2_forward(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  return prepared;
}

hx_status* create_pool(const hx_kernel_create_args* args, hx_kernel_instance** out_instance,
                       const char* op, dnnl::algorithm algorithm, bool global) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  auto pool = std::make_unique<PoolInstance>();
  pool->op = op;
  pool->algorithm = algorithm;
  pool->global = global;
  pool->threads = plugin.intra_op_threads;
  if (!global) {
    if (hx_status* status = read_ints(create, "kernel_shape", &pool->kernel)) return status;
    if (hx_status* status = read_onnx_window(create, &pool->window)) return status;
  }
  if (algorithm != dnnl::algorithm::pooling_max) {
    int64_t count_include_pad = 0;
    if (hx_status* status = create.attr_int("count_include_pad", &count_include_pad)) {
      return status;
    }
    pool->count_include_pad = count_include_pad != 0;
    if (pool->count_include_pad) pool->algorithm = dnnl::algorithm::pooling_avg_include_padding;
  } else if (!global) {
    int64_t storage_order = 0;
    if (hx_status* status = create.attr_int("storage_order", &storage_order)) return status;
    pool->column_major = storage_order == 1;
  }
  *out_instance = hxplugin::to_instance(pool.release());
  return nullptr;
}

// The call as direct_pool walks it, when oneDNN's pooling cannot give what it asks; nullopt
// when oneDNN can.
std::optional<DirectPoolWindow> direct_window(const PoolInstance& pool, const KernelCall& call) {
  // Most calls need none of these: they go to oneDNN without working out the window here.
  const bool indices = call.num_outputs() == 2;
  const bool integer = is_integer_dtype(call.input(0).dtype);  // MaxPool's int8 and uint8
  if (!indices && !integer && !pool.count_include_pad) return std::nullopt;
  const hx_tensor_view& x = call.input(0);
  const std::vector<int64_t> kernel = kernel_of(pool, x);
  const DnnlWindow dnnl = dnnl_window(pool.window, x, call.output(0), kernel.data());
  if (!indices && !integer && !dnnl.extended) return std::nullopt;
  DirectPoolWindow window;
  window.kernel = kernel;
  window.strides = dnnl.strides;
  for (const int64_t dilate : dnnl.dilates) window.dilations.push_back(dilate + 1);
  window.pad_begin = dnnl.pad_begin;
  window.pad_end = dnnl.given_pad_end;
  window.average = pool.algorithm != dnnl::algorithm::pooling_max;
  window.count_include_pad = pool.count_include_pad;
  window.column_major = pool.column_major;
  return window;
}

}  // namespace

hx_status* max_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_pool(args, out, "MaxPool", dnnl::algorithm::pooling_max, false);
}

hx_status* average_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_pool(args, out, "AveragePool", dnnl::algorithm::pooling_avg_exclude_padding,
                     false);
}

hx_status* global_max_pool_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_pool(args, out, "GlobalMaxPool", dnnl::algorithm::pooling_max, true);
}

hx_status* global_average_pool_create(const hx_kernel_create_args* args,
                                      hx_kernel_instance** out) {
  return create_pool(args, out, "GlobalAveragePool",
                     dnnl::algorithm::pooling_avg_exclude_padding, true);
}

void pool_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<PoolInstance>(instance, user_data);
}

hx_status* pool_check(const hx_kernel_args* args) {
  const KernelCall call(args);
  const PoolInstance& pool = hxplugin::instance_of<PoolInstance>(call.instance());
  return check_spatial_rank(call, pool.op);
}


hx_status* pool_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const PoolInstance& pool = hxplugin::instance_of<PoolInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.output(0);
  if (x.rank < 3 || x.rank > 5 || y.rank != x.rank ||
      (!pool.global && pool.kernel.size() != static_cast<size_t>(x.rank - 2))) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: X and Y must have one rank of 3 to 5, with a kernel extent for each "
                      "spatial axis",
                      pool.op);
  }
  const hx_tensor_view* indices = call.num_outputs() == 2 ? &call.output(1) : nullptr;
  if (indices != nullptr &&
      (indices->dtype != HX_DTYPE_I64 || indices->rank != y.rank ||
       !std::equal(y.shape, y.shape + y.rank, indices->shape))) {
    return call.error(HX_INVALID_ARGUMENT, "%s: Indices must be int64 of Y's shape", pool.op);
  }
  if (element_count(y) == 0) return nullptr;
  if (const std::optional<DirectPoolWindow> window = direct_window(pool, call)) {
    return direct_pool(call, *window, pool.op);
  }
  try {
    const auto prepare = [&](DataType type) { return prepare_pool(type, pool, call); };
    const std::shared_ptr<const Prepared> prepared = pool.primitives.get(
        shapes_key(call), [&] { return prepare_for(call.output(0).dtype, prepare); });
    return run_prepared(call, pool.op, *prepared, pool.threads);
  } catch (const dnnl::error& error) {
    return dnnl_error(call, pool.op, error);
  }
}

}  // namespace hxcpu

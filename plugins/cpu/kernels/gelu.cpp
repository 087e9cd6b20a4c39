// Gelu, exact (erf) or with approximate = "tanh". f32, f16 and bf16 on oneDNN's eltwise
// primitive (gelu_erf, gelu_tanh: vectorised; bf16 natively where the CPU has its kernels, f16
// widened to f32); f64, calls of few elements, and a call oneDNN refuses, element by element
// in the element's type (float for f16 and bf16). The fusion pass (graph/optimize) turns the
// Div, Erf, Add, Mul, Mul chain exporters write for GELU into this op.
#include <hxplugin/kernel_create.hpp>

#include <cmath>
#include <cstring>
#include <memory>

#include "dnnl/dnnl_primitives.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/one_input.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct GeluInstance {
  bool tanh_form = false;  // approximate = "tanh"
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;
};

Prepared prepare_gelu(DataType type, const hx_tensor_view& x, const GeluInstance& gelu) {
  const dnnl::algorithm algorithm =
      gelu.tanh_form ? dnnl::algorithm::eltwise_gelu_tanh : dnnl::algorithm::eltwise_gelu_erf;
  return prepare_one_to_one<dnnl::eltwise_forward>(
      type, x, gelu.threads, [&](const dnnl::memory::desc& data) {
        return dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, algorithm, data);
      });
}

template <class V>
V gelu(V v, bool tanh_form) {
  if (tanh_form) {
    const V scale = static_cast<V>(0.7978845608028654);  // sqrt(2 / pi)
    return V(0.5) * v * (V(1) + std::tanh(scale * (v + V(0.044715) * v * v * v)));
  }
  return V(0.5) * v * (V(1) + std::erf(v * static_cast<V>(0.7071067811865476)));
}

}  // namespace

hx_status* gelu_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  auto instance = std::make_unique<GeluInstance>();
  instance->threads = plugin.intra_op_threads;
  const char* approximate = "none";
  if (hx_status* status = create.attr_string("approximate", &approximate)) return status;
  instance->tanh_form = std::strcmp(approximate, "tanh") == 0;
  if (!instance->tanh_form && std::strcmp(approximate, "none") != 0) {
    return create.error(HX_INVALID_ARGUMENT,
                        "Gelu: approximate is \"%s\"; expected \"none\" or \"tanh\"",
                        approximate);
  }
  *out_instance = hxplugin::to_instance(instance.release());
  return nullptr;
}

void gelu_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<GeluInstance>(instance, user_data);
}

hx_status* gelu_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const GeluInstance& instance = hxplugin::instance_of<GeluInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  if (x.dtype != HX_DTYPE_F64 && element_count(x) >= kOneDnnLeastElements &&
      hxplugin::is_dense(x)) {
    try {
      const auto prepare = [&](DataType type) { return prepare_gelu(type, x, instance); };
      const std::shared_ptr<const Prepared> prepared = instance.primitives.get(
          shapes_key(call), [&] { return prepare_for(x.dtype, prepare); });
      return run_prepared(call, "Gelu", *prepared, instance.threads);
    } catch (const dnnl::error&) {
      // no primitive for the call: element by element below
    }
  }
  return one_input_kernel<false>(call, "Gelu", [&](auto tag, int64_t count) {
    using T = typename decltype(tag)::type;
    const T* in = input_data<T>(call.input(0));
    T* out = output_data<T>(call.output(0));
    const bool tanh_form = instance.tanh_form;
    for (int64_t i = 0; i < count; ++i) {
      out[i] = compute_in_float<T>([tanh_form](auto v) { return gelu(v, tanh_form); }, in[i]);
    }
  });
}

}  // namespace hxcpu

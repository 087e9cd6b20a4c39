// LeakyRelu, HardSigmoid, HardSwish and Clip: element-wise functions of x and the op's
// attributes, which their create functions read once into an ActivationAttrs. float and double
// compute in their own type, f16 and bf16 in float; Clip also runs on the integer types.
#include <hxplugin/kernel_create.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/one_input.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

// Every attribute of the family; each op reads its own and leaves the rest.
struct ActivationAttrs {
  double alpha = 0;
  double beta = 0;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

using AttrsReader = hx_status* (*)(const hxplugin::KernelCreate& create, ActivationAttrs* attrs);

hx_status* create_with(const hx_kernel_create_args* args, hx_kernel_instance** out_instance,
                       AttrsReader read) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  ActivationAttrs attrs;
  if (hx_status* status = read(create, &attrs)) return status;
  *out_instance = hxplugin::to_instance(new ActivationAttrs(attrs));
  return nullptr;
}

// `function(x, attrs)` (generic over x's type) of each element, for the call's dtype:
// the floating ones, and the integer ones when kIntegers.
template <bool kIntegers, class Function>
hx_status* activation_kernel(const hx_kernel_args* args, const char* op, Function function) {
  const KernelCall call(args);
  const ActivationAttrs* attrs =
      call.instance() != nullptr ? &hxplugin::instance_of<ActivationAttrs>(call.instance())
                                 : nullptr;
  return one_input_kernel<kIntegers>(call, op, [&](auto tag, int64_t count) {
    using T = typename decltype(tag)::type;
    function(tag, attrs, input_data<T>(call.input(0)), output_data<T>(call.output(0)), count);
  });
}

// `element(x)` of each element, in T or, for f16 and bf16, in float.
template <class T, class Element>
void map_elements(Element element, const T* __restrict__ x, T* __restrict__ y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = compute_in_float<T>(element, x[i]);
}

template <class V>
V hard_sigmoid(V x, V alpha, V beta) {
  const V linear = alpha * x + beta;
  // NaN fails both tests and stays NaN.
  return linear < V(0) ? V(0) : linear > V(1) ? V(1) : linear;
}

constexpr bool kFloatingOnly = false;
constexpr bool kWithIntegers = true;

}  // namespace

hx_status* leaky_relu_create(const hx_kernel_create_args* args, hx_kernel_instance** instance) {
  return create_with(args, instance, [](const hxplugin::KernelCreate& create,
                                        ActivationAttrs* attrs) {
    attrs->alpha = 0.01;
    return create.attr_float("alpha", &attrs->alpha);
  });
}

hx_status* hard_sigmoid_create(const hx_kernel_create_args* args,
                               hx_kernel_instance** instance) {
  return create_with(args, instance, [](const hxplugin::KernelCreate& create,
                                        ActivationAttrs* attrs) -> hx_status* {
    attrs->alpha = 0.2;
    attrs->beta = 0.5;
    if (hx_status* status = create.attr_float("alpha", &attrs->alpha)) return status;
    return create.attr_float("beta", &attrs->beta);
  });
}

hx_status* clip_create(const hx_kernel_create_args* args, hx_kernel_instance** instance) {
  return create_with(args, instance, [](const hxplugin::KernelCreate& create,
                                        ActivationAttrs* attrs) -> hx_status* {
    if (hx_status* status = create.attr_float("min", &attrs->min)) return status;
    return create.attr_float("max", &attrs->max);
  });
}

void activation_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ActivationAttrs>(instance, user_data);
}

hx_status* leaky_relu_kernel(const hx_kernel_args* args) {
  return activation_kernel<kFloatingOnly>(
      args, "LeakyRelu", [](auto tag, const ActivationAttrs* attrs, auto x, auto y, int64_t n) {
        using T = typename decltype(tag)::type;
        const auto leaky = [alpha = attrs->alpha](auto v) {
          using V = decltype(v);
          return v < V(0) ? static_cast<V>(alpha) * v : v;
        };
        map_elements<T>(leaky, x, y, n);
      });
}

hx_status* hard_sigmoid_kernel(const hx_kernel_args* args) {
  return activation_kernel<kFloatingOnly>(
      args, "HardSigmoid", [](auto tag, const ActivationAttrs* attrs, auto x, auto y, int64_t n) {
        using T = typename decltype(tag)::type;
        const auto element = [alpha = attrs->alpha, beta = attrs->beta](auto v) {
          using V = decltype(v);
          return hard_sigmoid(v, static_cast<V>(alpha), static_cast<V>(beta));
        };
        map_elements<T>(element, x, y, n);
      });
}

hx_status* hard_swish_kernel(const hx_kernel_args* args) {
  return activation_kernel<kFloatingOnly>(
      args, "HardSwish", [](auto tag, const ActivationAttrs*, auto x, auto y, int64_t n) {
        using T = typename decltype(tag)::type;
        const auto element = [](auto v) {
          using V = decltype(v);
          return v * hard_sigmoid(v, V(1) / V(6), V(0.5));
        };
        map_elements<T>(element, x, y, n);
      });
}

hx_status* clip_kernel(const hx_kernel_args* args) {
  return activation_kernel<kWithIntegers>(
      args, "Clip", [](auto tag, const ActivationAttrs* attrs, auto x, auto y, int64_t n) {
        using T = typename decltype(tag)::type;
        // The bounds in T: an integer dtype takes min rounded up and max down, so that no
        // integer outside [min, max] passes; conversion saturates beyond T's range.
        constexpr bool integer = std::is_integral_v<T>;
        const T low = convert_element<T>(integer ? std::ceil(attrs->min) : attrs->min);
        const T high = convert_element<T>(integer ? std::floor(attrs->max) : attrs->max);
        // min > max gives max, as NumPy's clip; NaN fails both tests and stays NaN.
        const auto clamp = [](auto v, auto lowest, auto highest) {
          const auto raised = v < lowest ? lowest : v;
          return raised > highest ? highest : raised;
        };
        for (int64_t i = 0; i < n; ++i) y[i] = compute_in_float<T>(clamp, x[i], low, high);
      });
}

}  // namespace hxcpu

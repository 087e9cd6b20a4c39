// The unary element-wise kernels (Exp ... Sign, as the core's unary family defines them), one
// function of one element per op. float and double compute in their own type; f16 and bf16
// widen to float, which holds each of their values exactly, and round once to their dtype;
// Neg, Abs and Sign also compute on i32 and i64.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/one_input.hpp"

namespace hxcpu {
namespace {

// exp of a non-positive number only, so that no intermediate overflows: for x < 0 the
// logistic function is e / (1 + e) with e = exp(x) in (0, 1].
template <class T>
T logistic(T x) {
  if (x >= T(0)) return T(1) / (T(1) + std::exp(-x));
  const T e = std::exp(x);  // NaN fails both tests and comes out here as NaN
  return e / (T(1) + e);
}

// Integers negate as unsigned, which wraps: the minimum gives itself, not undefined behaviour.
template <class T>
T negate(T x) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(-static_cast<std::make_unsigned_t<T>>(x));
  } else {
    return -x;
  }
}

template <class T>
T absolute(T x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x;
  } else if constexpr (std::is_integral_v<T>) {
    return x < 0 ? negate(x) : x;
  } else {
    return std::fabs(x);  // also makes -0 into 0
  }
}

// Both tests fail for 0 and NaN, which come out as they are.
template <class T>
T sign(T x) {
  if constexpr (std::is_unsigned_v<T>) {
    return x > T(0) ? T(1) : x;
  } else {
    return x > T(0) ? T(1) : x < T(0) ? T(-1) : x;
  }
}

template <class T, class Function>
void apply_all(Function function, const T* __restrict__ x, T* __restrict__ y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = compute_in_float<T>(function, x[i]);
}

// Whether an op has variants of the integer types besides the four floating ones.
constexpr bool kFloatingOnly = false;
constexpr bool kWithIntegers = true;

// `function` (a generic lambda) of each element of the one input, for the call's dtype.
template <bool kIntegers, class Function>
hx_status* unary_kernel(const hx_kernel_args* args, const char* op, Function function) {
  const KernelCall call(args);
  return one_input_kernel<kIntegers>(call, op, [&](auto tag, int64_t count) {
    using T = typename decltype(tag)::type;
    apply_all(function, input_data<T>(call.input(0)), output_data<T>(call.output(0)), count);
  });
}

}  // namespace

hx_status* exp_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Exp", [](auto x) { return std::exp(x); });
}
hx_status* log_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Log", [](auto x) { return std::log(x); });
}
hx_status* sqrt_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Sqrt", [](auto x) { return std::sqrt(x); });
}
hx_status* reciprocal_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Reciprocal",
                                     [](auto x) { return decltype(x)(1) / x; });
}
hx_status* erf_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Erf", [](auto x) { return std::erf(x); });
}
hx_status* tanh_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Tanh", [](auto x) { return std::tanh(x); });
}
hx_status* sigmoid_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Sigmoid", [](auto x) { return logistic(x); });
}
hx_status* floor_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Floor", [](auto x) { return std::floor(x); });
}
hx_status* ceil_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Ceil", [](auto x) { return std::ceil(x); });
}
// nearbyint rounds in the current mode, the default to-nearest-even (halves to the even
// neighbour), as Round is defined; std::round would take halves away from zero.
hx_status* round_kernel(const hx_kernel_args* args) {
  return unary_kernel<kFloatingOnly>(args, "Round", [](auto x) { return std::nearbyint(x); });
}
hx_status* neg_kernel(const hx_kernel_args* args) {
  return unary_kernel<kWithIntegers>(args, "Neg", [](auto x) { return negate(x); });
}
hx_status* abs_kernel(const hx_kernel_args* args) {
  return unary_kernel<kWithIntegers>(args, "Abs", [](auto x) { return absolute(x); });
}
hx_status* sign_kernel(const hx_kernel_args* args) {
  return unary_kernel<kWithIntegers>(args, "Sign", [](auto x) { return sign(x); });
}

}  // namespace hxcpu

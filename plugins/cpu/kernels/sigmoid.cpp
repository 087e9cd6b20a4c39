// Sigmoid: 1 / (1 + exp(-x)), for f32 and f64.
#include <cmath>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

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

}  // namespace

hx_status* sigmoid_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Sigmoid", count, out.dtype)) return status;
  const auto run = [&](auto tag) -> hx_status* {
    using T = typename decltype(tag)::type;
    const T* __restrict__ x = input_data<T>(call.input(0));
    T* __restrict__ y = output_data<T>(out);
    for (int64_t i = 0; i < count; ++i) y[i] = logistic(x[i]);
    return nullptr;
  };
  switch (out.dtype) {
    case HX_DTYPE_F32: return run(TypeTag<float>{});
    case HX_DTYPE_F64: return run(TypeTag<double>{});
    default:
      return call.error(HX_INVALID_ARGUMENT, "Sigmoid: the CPU kernel has no %s variant",
                        hx_dtype_name(out.dtype));
  }
}

}  // namespace hxcpu

// Add, Sub, Mul and Div: same-shape operands, or one operand with a single element broadcast
// against the other. The loops are plain so that the compiler vectorises them.
#include <limits>
#include <type_traits>

#include "kernels/arithmetic.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {
namespace {

struct AddOp {
  static constexpr const char* kName = "Add";
  template <class T>
  static T apply(T x, T y) {
    return wrapping_add(x, y);
  }
};
struct SubOp {
  static constexpr const char* kName = "Sub";
  template <class T>
  static T apply(T x, T y) {
    return wrapping_sub(x, y);
  }
};
struct MulOp {
  static constexpr const char* kName = "Mul";
  template <class T>
  static T apply(T x, T y) {
    return wrapping_mul(x, y);
  }
};
// Floating-point only: integer division goes through integer_divide, which checks divisors.
struct DivOp {
  static constexpr const char* kName = "Div";
  template <class T>
  static T apply(T x, T y) {
    return x / y;
  }
};

// Which operand, if any, is broadcast.
enum class Layout { kSameShape, kBroadcastX, kBroadcastY };

template <class Op, class T>
void apply_binary(Layout layout, const T* __restrict__ x, const T* __restrict__ y,
                  T* __restrict__ out, int64_t count) {
  switch (layout) {
    case Layout::kSameShape:
      for (int64_t i = 0; i < count; ++i) out[i] = Op::apply(x[i], y[i]);
      return;
    case Layout::kBroadcastX: {
      const T scalar = x[0];
      for (int64_t i = 0; i < count; ++i) out[i] = Op::apply(scalar, y[i]);
      return;
    }
    case Layout::kBroadcastY: {
      const T scalar = y[0];
      for (int64_t i = 0; i < count; ++i) out[i] = Op::apply(x[i], scalar);
      return;
    }
  }
}

// Truncating division. A zero divisor, or the one quotient that does not fit (min / -1), is an
// error rather than the SIGFPE the hardware would raise.
template <class T>
hx_status* integer_divide(const KernelCall& call, Layout layout, const T* x, const T* y, T* out,
                          int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    const T dividend = layout == Layout::kBroadcastX ? x[0] : x[i];
    const T divisor = layout == Layout::kBroadcastY ? y[0] : y[i];
    if (divisor == 0) return call.error(HX_INVALID_ARGUMENT, "Div: integer division by zero");
    if (divisor == -1 && dividend == std::numeric_limits<T>::min()) {
      return call.error(HX_INVALID_ARGUMENT,
                        "Div: integer overflow: %lld / -1 does not fit in %d bits",
                        static_cast<long long>(dividend), static_cast<int>(sizeof(T) * 8));
    }
    out[i] = dividend / divisor;
  }
  return nullptr;
}

template <class Op>
hx_status* binary_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  const int64_t x_count = element_count(x);
  const int64_t y_count = element_count(y);
  Layout layout;
  if (x_count == count && y_count == count) {
    layout = Layout::kSameShape;
  } else if (x_count == 1 && y_count == count) {
    layout = Layout::kBroadcastX;
  } else if (y_count == 1 && x_count == count) {
    layout = Layout::kBroadcastY;
  } else {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: operands of %lld and %lld elements cannot make an output of %lld",
                      Op::kName, static_cast<long long>(x_count),
                      static_cast<long long>(y_count), static_cast<long long>(count));
  }
  if (x.dtype != y.dtype || x.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "%s: dtypes %s, %s -> %s differ", Op::kName,
                      dtype_name(x.dtype), dtype_name(y.dtype), dtype_name(out.dtype));
  }
  return visit_arithmetic(
      x.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T* x_data = input_data<T>(x);
        const T* y_data = input_data<T>(y);
        T* out_data = output_data<T>(out);
        if constexpr (std::is_same_v<Op, DivOp> && std::is_integral_v<T>) {
          return integer_divide(call, layout, x_data, y_data, out_data, count);
        } else {
          apply_binary<Op>(layout, x_data, y_data, out_data, count);
          return nullptr;
        }
      },
      [&] {
        return call.error(HX_UNIMPLEMENTED, "%s: the CPU kernel has no %s variant", Op::kName,
                          dtype_name(x.dtype));
      });
}

}  // namespace

hx_status* add_kernel(const hx_kernel_args* args) { return binary_kernel<AddOp>(args); }
hx_status* sub_kernel(const hx_kernel_args* args) { return binary_kernel<SubOp>(args); }
hx_status* mul_kernel(const hx_kernel_args* args) { return binary_kernel<MulOp>(args); }
hx_status* div_kernel(const hx_kernel_args* args) { return binary_kernel<DivOp>(args); }

}  // namespace hxcpu

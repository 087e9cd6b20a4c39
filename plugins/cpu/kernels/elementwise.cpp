// Add, Sub, Mul, Div and Pow, with NumPy broadcasting: the core hands the inputs over at the
// output's shape with stride 0 where they repeat, and hxplugin::BinaryRows turns that into rows.
// The loops are plain so that the compiler vectorises them; f16 and bf16 compute in float.
#include <hxplugin/broadcast.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/arithmetic.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {
namespace {

struct AddOp {
  static constexpr const char* kName = "Add";
  static constexpr bool kCheckedIntegers = false;
  template <class T>
  static T apply(T x, T y) {
    return wrapping_add(x, y);
  }
};
struct SubOp {
  static constexpr const char* kName = "Sub";
  static constexpr bool kCheckedIntegers = false;
  template <class T>
  static T apply(T x, T y) {
    return wrapping_sub(x, y);
  }
};
struct MulOp {
  static constexpr const char* kName = "Mul";
  static constexpr bool kCheckedIntegers = false;
  template <class T>
  static T apply(T x, T y) {
    return wrapping_mul(x, y);
  }
};
// Ops with kCheckedIntegers compute integers through checked(), which fails the call where
// the result is undefined, instead of the SIGFPE or wrong value the hardware would give.
struct DivOp {
  static constexpr const char* kName = "Div";
  static constexpr bool kCheckedIntegers = true;
  template <class T>
  static T apply(T x, T y) {
    return x / y;
  }
  // Truncating division; a zero divisor and the one quotient that does not fit (min / -1)
  // fail the call.
  template <class T>
  static hx_status* checked(const KernelCall& call, T x, T y, T* out) {
    if (y == 0) return call.error(HX_INVALID_ARGUMENT, "Div: integer division by zero");
    if constexpr (std::is_signed_v<T>) {
      if (y == -1 && x == std::numeric_limits<T>::min()) {
        return call.error(HX_INVALID_ARGUMENT,
                          "Div: integer overflow: %lld / -1 does not fit in %d bits",
                          static_cast<long long>(x), static_cast<int>(sizeof(T) * 8));
      }
    }
    *out = static_cast<T>(x / y);
    return nullptr;
  }
};
struct PowOp {
  static constexpr const char* kName = "Pow";
  static constexpr bool kCheckedIntegers = true;
  template <class T>
  static T apply(T x, T y) {
    return std::pow(x, y);
  }
  // The real power truncated toward zero: a negative exponent leaves only the bases 1 and -1
  // nonzero, and 0 to a negative power is a division by zero.
  template <class T>
  static hx_status* checked(const KernelCall& call, T x, T y, T* out) {
    if constexpr (std::is_signed_v<T>) {
      if (y < 0) return negative_power(call, x, static_cast<int64_t>(y), out);
    }
    *out = wrapping_power(x, y);
    return nullptr;
  }
  template <class T>
  static hx_status* negative_power(const KernelCall& call, T x, int64_t y, T* out) {
    if (x == 0) {
      return call.error(HX_INVALID_ARGUMENT,
                        "Pow: 0 to the negative integer power %lld (a division by zero)",
                        static_cast<long long>(y));
    }
    if constexpr (std::is_signed_v<T>) {
      if (x == -1) {
        *out = y % 2 == 0 ? T(1) : T(-1);
        return nullptr;
      }
    }
    *out = x == 1 ? T(1) : T(0);
    return nullptr;
  }
};

template <class Op, class T>
T apply(T x, T y) {
  return compute_in_float<T>([](auto a, auto b) { return Op::apply(a, b); }, x, y);
}

// One row of out = op(x, y): x and y advance by their steps (1 along a dense row, 0 where the
// input repeats). Each common case gets a loop of its own, so that the compiler vectorises the
// flat same-shape loop of the dense case exactly as before broadcasting existed.
template <class Op, class T>
void apply_row(const T* __restrict__ x, int64_t x_step, const T* __restrict__ y, int64_t y_step,
               T* __restrict__ out, int64_t length) {
  if (x_step == 1 && y_step == 1) {
    for (int64_t i = 0; i < length; ++i) out[i] = apply<Op>(x[i], y[i]);
  } else if (x_step == 0 && y_step == 1) {
    const T scalar = x[0];
    for (int64_t i = 0; i < length; ++i) out[i] = apply<Op>(scalar, y[i]);
  } else if (x_step == 1 && y_step == 0) {
    const T scalar = y[0];
    for (int64_t i = 0; i < length; ++i) out[i] = apply<Op>(x[i], scalar);
  } else {
    for (int64_t i = 0; i < length; ++i) out[i] = apply<Op>(x[i * x_step], y[i * y_step]);
  }
}

template <class Op, class T>
hx_status* checked_row(const KernelCall& call, const T* x, int64_t x_step, const T* y,
                       int64_t y_step, T* out, int64_t length) {
  for (int64_t i = 0; i < length; ++i) {
    if (hx_status* failure = Op::checked(call, x[i * x_step], y[i * y_step], out + i)) {
      return failure;
    }
  }
  return nullptr;
}

// Whether `input` is laid out as the (dense) output: same shape and strides, nothing
// broadcast. Then the whole op is one flat loop, without planning rows.
bool laid_out_as(const hx_tensor_view& input, const hx_tensor_view& out) {
  if (input.rank != out.rank) return false;
  for (int32_t axis = 0; axis < out.rank; ++axis) {
    if (input.shape[axis] != out.shape[axis] || input.strides[axis] != out.strides[axis]) {
      return false;
    }
  }
  return true;
}

// Calls row(out_offset, x_offset, x_step, y_offset, y_step, length) over the whole output: one
// flat row when both operands are laid out as the output, else the rows `rows` planned.
template <class Row>
void for_each_binary_row(bool flat, const hxplugin::BinaryRows& rows, const hx_tensor_view& out,
                         Row&& row) {
  if (flat) {
    row(0, 0, 1, 0, 1, element_count(out));
    return;
  }
  rows.for_each_row([&](int64_t out_offset, int64_t x_offset, int64_t y_offset) {
    row(out_offset, x_offset, rows.x_step, y_offset, rows.y_step, rows.row_length);
  });
}

// Element `index` of a numeric tensor of `dtype` at `data`, as a double (exact for every
// value of f32, f16, bf16 and i32, and for i64's of magnitude up to 2^53).
double element_as_double(const void* data, int32_t dtype, int64_t index) {
  double value = 0;
  visit_numeric(
      dtype,
      [&](auto tag) -> hx_status* {
        using E = typename decltype(tag)::type;
        value = convert_element<double>(static_cast<const E*>(data)[index]);
        return nullptr;
      },
      [] { return static_cast<hx_status*>(nullptr); });
  return value;
}

// x^y for an exponent whose dtype is not the base's (ONNX's T1): an integer exponent of an
// integer base as PowOp takes it (a positive one up to the base's largest value); any other
// power in double, converted to the base's dtype as Cast converts (rounded once; for an
// integer base truncated toward zero and saturated, NaN as 0).
template <class T>
hx_status* mixed_power(const KernelCall& call, T x, double y, bool integer_exponent, T* out) {
  if constexpr (std::is_integral_v<T>) {
    if (integer_exponent) {
      if (y < 0) return PowOp::negative_power(call, x, static_cast<int64_t>(y), out);
      // From max + 1 on (a power of two; a 64-bit max already rounds to it in double) no
      // exponent converts to T.
      if (y >= static_cast<double>(std::numeric_limits<T>::max()) + 1.0) {
        return call.error(HX_INVALID_ARGUMENT,
                          "Pow: the exponent %.0f does not fit the base's dtype %s", y,
                          hx_dtype_name(call.output(0).dtype));
      }
      return PowOp::checked(call, x, static_cast<T>(y), out);
    }
  }
  *out = convert_element<T>(std::pow(convert_element<double>(x), y));
  return nullptr;
}

// Pow whose exponent has a dtype of its own. Rare in models (an exponent written as an integer
// constant), so the exponent is read through a switch on its dtype per element rather than
// with a loop compiled for each pair of dtypes.
hx_status* mixed_pow_kernel(const KernelCall& call, bool flat, const hxplugin::BinaryRows& rows) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const bool integer_exponent = is_integer_dtype(y.dtype);
  const void* y_data = input_data<char>(y);
  return visit_numeric(
      x.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T* x_data = input_data<T>(x);
        T* out_data = output_data<T>(out);
        hx_status* failure = nullptr;
        const auto row = [&](int64_t out_offset, int64_t x_offset, int64_t x_step, int64_t y_offset,
                             int64_t y_step, int64_t length) {
          for (int64_t i = 0; i < length && failure == nullptr; ++i) {
            const double exponent = element_as_double(y_data, y.dtype, y_offset + i * y_step);
            failure = mixed_power(call, x_data[x_offset + i * x_step], exponent, integer_exponent,
                                  out_data + out_offset + i);
          }
        };
        for_each_binary_row(flat, rows, out, row);
        return failure;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "Pow: the CPU kernel has no %s variant",
                          hx_dtype_name(x.dtype));
      });
}

template <class Op>
hx_status* binary_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.input(1);
  const hx_tensor_view& out = call.output(0);
  hxplugin::BinaryRows rows;
  // Operands laid out as the output: one flat row, without the rows' odometer.
  const bool flat = laid_out_as(x, out) && laid_out_as(y, out);
  if (!flat && !hxplugin::plan_binary_rows(x, y, out, &rows)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: inputs of ranks %d and %d do not arrive broadcast to the output's "
                      "rank %d and shape",
                      Op::kName, static_cast<int>(x.rank), static_cast<int>(y.rank),
                      static_cast<int>(out.rank));
  }
  if constexpr (std::is_same_v<Op, PowOp>) {
    if (x.dtype != y.dtype && x.dtype == out.dtype && hx_dtype_is_valid(y.dtype) &&
        y.dtype != HX_DTYPE_BOOL) {
      return mixed_pow_kernel(call, flat, rows);
    }
  }
  if (x.dtype != y.dtype || x.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "%s: dtypes %s, %s -> %s differ", Op::kName,
                      hx_dtype_name(x.dtype), hx_dtype_name(y.dtype), hx_dtype_name(out.dtype));
  }
  return visit_numeric(
      x.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T* x_data = input_data<T>(x);
        const T* y_data = input_data<T>(y);
        T* out_data = output_data<T>(out);
        hx_status* failure = nullptr;
        const auto row = [&](int64_t out_offset, int64_t x_offset, int64_t x_step,
                             int64_t y_offset, int64_t y_step, int64_t length) {
          if constexpr (Op::kCheckedIntegers && std::is_integral_v<T>) {
            if (failure == nullptr) {
              failure = checked_row<Op>(call, x_data + x_offset, x_step, y_data + y_offset,
                                        y_step, out_data + out_offset, length);
            }
          } else {
            apply_row<Op>(x_data + x_offset, x_step, y_data + y_offset, y_step,
                          out_data + out_offset, length);
          }
        };
        for_each_binary_row(flat, rows, out, row);
        return failure;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", Op::kName,
                          hx_dtype_name(x.dtype));
      });
}

}  // namespace

hx_status* add_kernel(const hx_kernel_args* args) { return binary_kernel<AddOp>(args); }
hx_status* sub_kernel(const hx_kernel_args* args) { return binary_kernel<SubOp>(args); }
hx_status* mul_kernel(const hx_kernel_args* args) { return binary_kernel<MulOp>(args); }
hx_status* div_kernel(const hx_kernel_args* args) { return binary_kernel<DivOp>(args); }
hx_status* pow_kernel(const hx_kernel_args* args) { return binary_kernel<PowOp>(args); }

}  // namespace hxcpu

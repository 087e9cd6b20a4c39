// Min, Max and Where: each output element picked from the inputs, which the core hands over
// broadcast to the output's shape (stride 0 where they repeat). Min and Max fold the inputs
// into the output one at a time with hxplugin::BinaryRows; Where walks its three operands row
// by row along the last axis.
#include <hxplugin/broadcast.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/value_types.hpp"

namespace hxcpu {
namespace {

// A NaN `a` wins, and a NaN `b` fails the comparison and wins: NaN in any input gives NaN.
struct MinPick {
  static constexpr const char* kName = "Min";
  template <class T>
  static T pick(T a, T b) {
    return a < b || is_nan(a) ? a : b;
  }
};
struct MaxPick {
  static constexpr const char* kName = "Max";
  template <class T>
  static T pick(T a, T b) {
    return a > b || is_nan(a) ? a : b;
  }
};

// out = pick(so_far, input) along one row; so_far is the first input itself for the first
// (pick(x, x) is x), then the output, read at the element it is about to write.
template <class Pick, class T>
void pick_row(const T* so_far, int64_t so_far_step, const T* input, int64_t input_step, T* out,
              int64_t length) {
  const auto pick = [](auto a, auto b) { return Pick::pick(a, b); };
  for (int64_t i = 0; i < length; ++i) {
    out[i] = compute_in_float<T>(pick, so_far[i * so_far_step], input[i * input_step]);
  }
}

template <class Pick>
hx_status* extremum_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    if (call.input(i).dtype != out.dtype) {
      return call.error(HX_INVALID_ARGUMENT, "%s: input %zu is %s but the output is %s",
                        Pick::kName, i, hx_dtype_name(call.input(i).dtype),
                        hx_dtype_name(out.dtype));
    }
  }
  return visit_numeric(
      out.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        T* out_data = output_data<T>(out);
        for (size_t i = 0; i < call.num_inputs(); ++i) {
          const hx_tensor_view& input = call.input(i);
          const hx_tensor_view& so_far = i == 0 ? input : out;
          hxplugin::BinaryRows rows;
          if (!hxplugin::plan_binary_rows(so_far, input, out, &rows)) {
            return call.error(HX_INVALID_ARGUMENT,
                              "%s: input %zu of rank %d does not arrive broadcast to the "
                              "output's rank %d and shape",
                              Pick::kName, i, static_cast<int>(input.rank),
                              static_cast<int>(out.rank));
          }
          const T* so_far_data = i == 0 ? input_data<T>(input) : out_data;
          const T* in_data = input_data<T>(input);
          rows.for_each_row([&](int64_t out_offset, int64_t so_far_offset, int64_t offset) {
            pick_row<Pick>(so_far_data + so_far_offset, rows.x_step, in_data + offset,
                           rows.y_step, out_data + out_offset, rows.row_length);
          });
        }
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant",
                          Pick::kName, hx_dtype_name(out.dtype));
      });
}

// Whether `input` has the output's rank and shape and no negative stride: how the core hands
// over the operands of an op that broadcasts.
bool at_output_shape(const hx_tensor_view& input, const hx_tensor_view& out) {
  if (input.rank != out.rank) return false;
  for (int32_t axis = 0; axis < out.rank; ++axis) {
    if (input.shape[axis] != out.shape[axis] || input.strides[axis] < 0) return false;
  }
  return true;
}

template <class T>
void where_rows(const hx_tensor_view& condition, const hx_tensor_view& x,
                const hx_tensor_view& y, const hx_tensor_view& out) {
  const int32_t rank = out.rank;
  const int64_t count = element_count(out);
  if (count == 0) return;
  const hx_tensor_view* inputs[3] = {&condition, &x, &y};
  // Rows along the last axis (one element for rank 0), the outer axes walked as an odometer.
  const int64_t row = rank == 0 ? 1 : out.shape[rank - 1];
  int64_t step[3] = {};
  int64_t offset[3] = {};
  for (int k = 0; k < 3; ++k) step[k] = rank == 0 ? 0 : inputs[k]->strides[rank - 1];
  const BoolByte* c = input_data<BoolByte>(condition);
  const T* x_data = input_data<T>(x);
  const T* y_data = input_data<T>(y);
  T* o = output_data<T>(out);
  int64_t index[HX_MAX_RANK] = {};
  for (int64_t base = 0; base < count; base += row) {
    for (int64_t i = 0; i < row; ++i) {
      const bool take_x = c[offset[0] + i * step[0]].byte != 0;
      o[base + i] = take_x ? x_data[offset[1] + i * step[1]] : y_data[offset[2] + i * step[2]];
    }
    for (int32_t axis = rank - 2; axis >= 0; --axis) {
      for (int k = 0; k < 3; ++k) offset[k] += inputs[k]->strides[axis];
      if (++index[axis] < out.shape[axis]) break;
      for (int k = 0; k < 3; ++k) offset[k] -= inputs[k]->strides[axis] * out.shape[axis];
      index[axis] = 0;
    }
  }
}

}  // namespace

hx_status* min_kernel(const hx_kernel_args* args) { return extremum_kernel<MinPick>(args); }
hx_status* max_kernel(const hx_kernel_args* args) { return extremum_kernel<MaxPick>(args); }

hx_status* where_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& condition = call.input(0);
  const hx_tensor_view& x = call.input(1);
  const hx_tensor_view& y = call.input(2);
  const hx_tensor_view& out = call.output(0);
  if (!at_output_shape(condition, out) || !at_output_shape(x, out) ||
      !at_output_shape(y, out)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Where: inputs of ranks %d, %d and %d do not arrive broadcast to the "
                      "output's rank %d and shape",
                      static_cast<int>(condition.rank), static_cast<int>(x.rank),
                      static_cast<int>(y.rank), static_cast<int>(out.rank));
  }
  if (condition.dtype != HX_DTYPE_BOOL || x.dtype != out.dtype || y.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Where: dtypes %s, %s, %s -> %s; expected bool, T, T -> T",
                      hx_dtype_name(condition.dtype), hx_dtype_name(x.dtype),
                      hx_dtype_name(y.dtype), hx_dtype_name(out.dtype));
  }
  return visit_any(
      out.dtype,
      [&](auto tag) -> hx_status* {
        where_rows<typename decltype(tag)::type>(condition, x, y, out);
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "Where: the CPU kernel has no %s variant",
                          hx_dtype_name(out.dtype));
      });
}

}  // namespace hxcpu

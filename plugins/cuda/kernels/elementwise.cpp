// The binary element-wise ops (Add, Sub, Mul, Div, Pow, Min, Max and the comparisons) and
// Relu: operand checks on the host, the arithmetic in elementwise.cu.
#include <hxplugin/broadcast.hpp>

#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// The launch that fits the operands' layout: the plain element-by-element kernel when both are
// dense or one is a single repeated element (the common cases, and the benchmark's), the
// strided one otherwise ([2,3] + [3], [2,1] + [1,3]).
cudaError_t launch(BinaryOp op, int32_t dtype, const hxplugin::BinaryRows& rows, const void* x,
                   const void* y, void* out, int64_t count, cudaStream_t stream) {
  // One row covering the output: each operand is read element by element (step 1) or is one
  // element repeated (step 0). A single element is the first of every case.
  const auto dense_or_repeated = [](int64_t step) { return step == 0 || step == 1; };
  if (count == 1) return launch_binary(op, dtype, Broadcast::kNone, x, y, out, count, stream);
  if (rows.outer_rank == 0 && dense_or_repeated(rows.x_step) && dense_or_repeated(rows.y_step)) {
    const Broadcast broadcast = rows.x_step == 0   ? Broadcast::kX
                                : rows.y_step == 0 ? Broadcast::kY
                                                   : Broadcast::kNone;
    return launch_binary(op, dtype, broadcast, x, y, out, count, stream);
  }
  BinaryLayout layout;
  layout.row_length = rows.row_length;
  layout.x_step = rows.x_step;
  layout.y_step = rows.y_step;
  layout.outer_rank = rows.outer_rank;
  for (int axis = 0; axis < rows.outer_rank; ++axis) {
    layout.outer_shape[axis] = rows.outer_shape[axis];
    layout.x_outer_stride[axis] = rows.x_outer_stride[axis];
    layout.y_outer_stride[axis] = rows.y_outer_stride[axis];
  }
  return launch_binary_strided(op, dtype, layout, x, y, out, count, stream);
}

// The core hands both inputs over at the output's shape, with stride 0 where one repeats
// (NumPy's broadcasting, worked out by the core). The output has the inputs' dtype, or bool
// for a comparison.
hx_status* binary_kernel(const GpuKernelCall& call, BinaryOp op, const char* name) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.input(1);
  const hx_tensor_view& out = call.output(0);
  if (x.dtype != y.dtype || out.dtype != (is_comparison(op) ? HX_DTYPE_BOOL : x.dtype)) {
    return call.error(HX_INVALID_ARGUMENT, "%s: dtypes %s, %s -> %s differ", name,
                      hx_dtype_name(x.dtype), hx_dtype_name(y.dtype), hx_dtype_name(out.dtype));
  }
  hxplugin::BinaryRows rows;
  if (!hxplugin::plan_binary_rows(x, y, out, &rows)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: inputs of ranks %d and %d are not views of the output's shape (rank "
                      "%d) with non-negative strides",
                      name, static_cast<int>(x.rank), static_cast<int>(y.rank),
                      static_cast<int>(out.rank));
  }
  return call.cuda_status(launch(op, x.dtype, rows, hxplugin::element_address(x),
                                 hxplugin::element_address(y), hxplugin::element_address(out),
                                 element_count(out), call.stream()),
                          name);
}

}  // namespace

hx_status* add_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kAdd, "Add");
}
hx_status* sub_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kSub, "Sub");
}
hx_status* mul_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kMul, "Mul");
}
hx_status* div_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kDiv, "Div");
}

hx_status* pow_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kPow, "Pow");
}
hx_status* min_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kMin, "Min");
}
hx_status* max_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kMax, "Max");
}
hx_status* equal_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kEqual, "Equal");
}
hx_status* less_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kLess, "Less");
}
hx_status* greater_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kGreater, "Greater");
}
hx_status* less_or_equal_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kLessOrEqual, "LessOrEqual");
}
hx_status* greater_or_equal_kernel(const GpuKernelCall& call) {
  return binary_kernel(call, BinaryOp::kGreaterOrEqual, "GreaterOrEqual");
}

hx_status* two_inputs_check(const hxplugin::KernelCall& call) {
  if (call.num_inputs() == 2) return nullptr;
  return call.error(HX_UNIMPLEMENTED, "CUDA's kernel takes two inputs; this call has %zu",
                    call.num_inputs());
}

hx_status* same_dtypes_check(const hxplugin::KernelCall& call) {
  const int32_t base = call.input(0).dtype;
  const int32_t exponent = call.input(1).dtype;
  if (exponent == base) return nullptr;
  return call.error(HX_UNIMPLEMENTED,
                    "CUDA's kernel takes an exponent of the base's dtype %s; this call's is %s",
                    hx_dtype_name(base), hx_dtype_name(exponent));
}

hx_status* relu_kernel(const GpuKernelCall& call) {
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Relu", count, out.dtype)) return status;
  return call.cuda_status(launch_relu(out.dtype, hxplugin::element_address(call.input(0)),
                                      hxplugin::element_address(out), count, call.stream()),
                          "Relu");
}

}  // namespace hxcuda::kernels

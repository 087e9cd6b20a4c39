// Add, Sub, Mul, Div and Relu: operand checks on the host, the arithmetic in elementwise.cu.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// The core's shape rule for these ops: equal element counts, or one operand with a single
// element broadcast against the other.
hx_status* binary_kernel(const GpuKernelCall& call, BinaryOp op, const char* name) {
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  const int64_t x_count = element_count(x);
  const int64_t y_count = element_count(y);
  Broadcast broadcast;
  if (x_count == count && y_count == count) {
    broadcast = Broadcast::kNone;
  } else if (x_count == 1 && y_count == count) {
    broadcast = Broadcast::kX;
  } else if (y_count == 1 && x_count == count) {
    broadcast = Broadcast::kY;
  } else {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: operands of %lld and %lld elements cannot make an output of %lld", name,
                      static_cast<long long>(x_count), static_cast<long long>(y_count),
                      static_cast<long long>(count));
  }
  if (x.dtype != y.dtype || x.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "%s: dtypes %s, %s -> %s differ", name,
                      dtype_name(x.dtype), dtype_name(y.dtype), dtype_name(out.dtype));
  }
  if (!is_elementwise_dtype(x.dtype)) return call.no_variant(name, x.dtype);
  return call.cuda_status(
      launch_binary(op, x.dtype, broadcast, x.data, y.data, out.data, count, call.stream()), name);
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

hx_status* relu_kernel(const GpuKernelCall& call) {
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Relu", count, out.dtype)) return status;
  if (!is_elementwise_dtype(out.dtype)) return call.no_variant("Relu", out.dtype);
  return call.cuda_status(
      launch_relu(out.dtype, call.input(0).data, out.data, count, call.stream()), "Relu");
}

}  // namespace hxcuda::kernels

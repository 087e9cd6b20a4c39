// Add and Mul: same-shape operands, or one operand with a single element broadcast against
// the other (the core's shape inference has already decided the output shape).
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {
namespace {

struct AddOp {
  static constexpr const char* kName = "Add";
  static float apply(float x, float y) { return x + y; }
};
struct MulOp {
  static constexpr const char* kName = "Mul";
  static float apply(float x, float y) { return x * y; }
};

template <class Op>
hx_status* binary_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  if (hx_status* status = call.check_operands(Op::kName)) return status;
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  const int64_t x_count = element_count(x);
  const int64_t y_count = element_count(y);
  // A one-element operand is read at index 0 throughout; the other at each index.
  const bool x_broadcast = x_count == 1 && x_count != count;
  const bool y_broadcast = y_count == 1 && y_count != count;
  if ((x_count != count && !x_broadcast) || (y_count != count && !y_broadcast)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: operands of %lld and %lld elements cannot make an output of %lld",
                      Op::kName, static_cast<long long>(x_count), static_cast<long long>(y_count),
                      static_cast<long long>(count));
  }
  const float* x_data = input_data<float>(x);
  const float* y_data = input_data<float>(y);
  float* out_data = output_data<float>(out);
  for (int64_t i = 0; i < count; ++i) {
    out_data[i] = Op::apply(x_data[x_broadcast ? 0 : i], y_data[y_broadcast ? 0 : i]);
  }
  return nullptr;
}

}  // namespace

hx_status* add_kernel(const hx_kernel_args* args) { return binary_kernel<AddOp>(args); }
hx_status* mul_kernel(const hx_kernel_args* args) { return binary_kernel<MulOp>(args); }

}  // namespace hxsim

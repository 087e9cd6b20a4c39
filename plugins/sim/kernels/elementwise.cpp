// Add and Mul, with NumPy broadcasting: the core hands the inputs over at the output's shape
// with stride 0 where they repeat, and hxplugin::BinaryRows walks them.
#include <hxplugin/broadcast.hpp>

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
  KernelCall call(args);
  if (hx_status* status = call.check_operands(Op::kName, KernelCall::Inputs::kBroadcast)) {
    return status;
  }
  hxplugin::BinaryRows rows;
  if (!hxplugin::plan_binary_rows(call.input(0), call.input(1), call.output(0), &rows)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: the inputs do not arrive broadcast to the output's rank and shape",
                      Op::kName);
  }
  const float* x = call.in(0);
  const float* y = call.in(1);
  float* out = call.out(0);
  return call.launch(call.modelled_time(), [rows, x, y, out] {
    rows.for_each_row([&](int64_t out_offset, int64_t x_offset, int64_t y_offset) {
      for (int64_t i = 0; i < rows.row_length; ++i) {
        out[out_offset + i] =
            Op::apply(x[x_offset + i * rows.x_step], y[y_offset + i * rows.y_step]);
      }
    });
  });
}

}  // namespace

hx_status* add_kernel(const hx_kernel_args* args) { return binary_kernel<AddOp>(args); }
hx_status* mul_kernel(const hx_kernel_args* args) { return binary_kernel<MulOp>(args); }

}  // namespace hxsim

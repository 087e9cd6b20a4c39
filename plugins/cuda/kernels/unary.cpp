// The unary element-wise ops (Exp ... Gelu): their attributes read once at create, the
// arithmetic in unary.cu. LeakyRelu's alpha and HardSigmoid's alpha and beta take ONNX's
// defaults when absent, and Gelu's `approximate` picks the form.
#include <cstring>

#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

hx_status* read_attributes(const hxplugin::KernelCreate& create, UnaryState* out) {
  double alpha = 0;
  double beta = 0;
  if (out->op == UnaryOp::kLeakyRelu) {
    alpha = 0.01;
    if (hx_status* status = create.attr_float("alpha", &alpha)) return status;
  } else if (out->op == UnaryOp::kHardSigmoid) {
    alpha = 0.2;
    beta = 0.5;
    if (hx_status* status = create.attr_float("alpha", &alpha)) return status;
    if (hx_status* status = create.attr_float("beta", &beta)) return status;
  } else if (out->op == UnaryOp::kGelu) {
    const char* approximate = "none";
    if (hx_status* status = create.attr_string("approximate", &approximate)) return status;
    if (std::strcmp(approximate, "tanh") == 0) {
      out->op = UnaryOp::kGeluTanh;
    } else if (std::strcmp(approximate, "none") != 0) {
      return create.error(HX_INVALID_ARGUMENT,
                          "Gelu: approximate is \"%s\"; expected \"none\" or \"tanh\"",
                          approximate);
    }
  }
  out->alpha = static_cast<float>(alpha);
  out->beta = static_cast<float>(beta);
  return nullptr;
}

}  // namespace

hx_status* unary_create(const hxplugin::KernelCreate& create, UnaryOp op, UnaryState* out) {
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)",
                        op_name(create.args().user_data), hx_dtype_name(dtype));
  }
  out->op = op;
  return read_attributes(create, out);
}

hx_status* unary_kernel(const GpuKernelCall& call, const UnaryState& state) {
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(call.op(), count, out.dtype)) return status;
  return call.cuda_status(launch_unary(state.op, out.dtype, state.alpha, state.beta,
                                       hxplugin::element_address(call.input(0)),
                                       hxplugin::element_address(out), count, call.stream()),
                          call.op());
}

}  // namespace hxcuda::kernels

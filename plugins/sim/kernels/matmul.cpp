// MatMul with plain loops: a simulated device needs correct results, not speed. It also shows
// both ways a kernel declines: create declines transpose_a (the simulated hardware reads a
// only row by row), check declines operands that are not matrices.
#include <hxplugin/kernel_create.hpp>
#include <hxplugin/matmul_dims.hpp>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

struct MatMulInstance {
  bool transpose_b;
};

}  // namespace

hx_status* matmul_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const SimPlugin& plugin = *static_cast<const SimPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  bool transpose_a = false;
  bool transpose_b = false;
  if (hx_status* status = hxplugin::matmul_transposes(create, &transpose_a, &transpose_b)) {
    return status;
  }
  if (transpose_a) {
    return create.error(HX_UNIMPLEMENTED,
                        "MatMul on the sim plugin: transpose_a is not supported (transpose_b "
                        "is)");
  }
  *out_instance = hxplugin::to_instance(new MatMulInstance{transpose_b});
  return nullptr;
}

void matmul_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<MatMulInstance>(instance, user_data);
}

hx_status* matmul_check(const hx_kernel_args* args) {
  return hxplugin::matmul_matrices_only(KernelCall(args), "MatMul on the sim plugin");
}

hx_status* matmul_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("MatMul")) return status;
  const bool transpose_b = hxplugin::instance_of<MatMulInstance>(call.instance()).transpose_b;

  const hx_tensor_view& b = call.input(1);
  hxplugin::MatMulDims dims{};
  if (hx_status* status = hxplugin::matmul_dims(call, false, transpose_b, &dims)) {
    return status;
  }
  const int64_t m = dims.m;
  const int64_t n = dims.n;
  const int64_t k = dims.k;

  const float* a_data = call.in(0);
  const float* b_data = call.in(1);
  float* c_data = call.out(0);
  const int64_t b_columns = b.shape[1];
  const double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  return call.launch(call.modelled_time(flops), [=] {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;  // k = 0 leaves it 0: an empty sum
        for (int64_t p = 0; p < k; ++p) {
          const float b_element =
              transpose_b ? b_data[j * b_columns + p] : b_data[p * b_columns + j];
          sum += a_data[i * k + p] * b_element;
        }
        c_data[i * n + j] = sum;
      }
    }
  });
}

}  // namespace hxsim

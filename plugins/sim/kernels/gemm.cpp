// Gemm with plain loops, Y = alpha * op(A) x op(B) + beta * C: the layers of networks (an
// MLP's, a CNN's classifier) on a simulated device, so that a placer can be tried on whole
// networks. C arrives as given (Gemm does not broadcast its inputs in the core), rank 2 at
// most, and is read at step 0 along the axes where it repeats.
#include <hxplugin/kernel_create.hpp>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

struct GemmInstance {
  bool trans_a = false;
  bool trans_b = false;
  double alpha = 1;
  double beta = 1;
};

}  // namespace

hx_status* gemm_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const SimPlugin& plugin = *static_cast<const SimPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  GemmInstance gemm;
  int64_t trans_a = 0;
  int64_t trans_b = 0;
  if (hx_status* status = create.attr_int("transA", &trans_a)) return status;
  if (hx_status* status = create.attr_int("transB", &trans_b)) return status;
  if (hx_status* status = create.attr_float("alpha", &gemm.alpha)) return status;
  if (hx_status* status = create.attr_float("beta", &gemm.beta)) return status;
  gemm.trans_a = trans_a != 0;
  gemm.trans_b = trans_b != 0;
  *out_instance = hxplugin::to_instance(new GemmInstance(gemm));
  return nullptr;
}

void gemm_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<GemmInstance>(instance, user_data);
}

hx_status* gemm_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("Gemm")) return status;
  const GemmInstance gemm = hxplugin::instance_of<GemmInstance>(call.instance());
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& y = call.output(0);
  if (a.rank != 2 || call.input(1).rank != 2 || y.rank != 2) {
    return call.error(HX_INVALID_ARGUMENT, "Gemm on the sim plugin: A, B and Y are matrices");
  }
  const int64_t m = y.shape[0];
  const int64_t n = y.shape[1];
  const int64_t k = a.shape[gemm.trans_a ? 0 : 1];
  const int64_t a_columns = a.shape[1];
  const int64_t b_columns = call.input(1).shape[1];
  // C's steps along Y's rows and columns: 0 where it repeats, as its shape says.
  int64_t c_row_step = 0;
  int64_t c_column_step = 0;
  const float* c = nullptr;
  if (call.num_inputs() == 3 && gemm.beta != 0) {
    const hx_tensor_view& c_view = call.input(2);
    c = call.in(2);
    if (c_view.rank >= 1 && c_view.shape[c_view.rank - 1] == n) c_column_step = 1;
    if (c_view.rank == 2 && c_view.shape[0] == m) c_row_step = c_view.shape[1];
  }
  const float* a_data = call.in(0);
  const float* b_data = call.in(1);
  float* y_data = call.out(0);
  const double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) *
                       static_cast<double>(k);
  return call.launch(call.modelled_time(flops), [=] {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          const float a_element =
              gemm.trans_a ? a_data[p * a_columns + i] : a_data[i * a_columns + p];
          const float b_element =
              gemm.trans_b ? b_data[j * b_columns + p] : b_data[p * b_columns + j];
          sum += a_element * b_element;
        }
        float value = static_cast<float>(gemm.alpha) * sum;
        if (c != nullptr) {
          value += static_cast<float>(gemm.beta) * c[i * c_row_step + j * c_column_step];
        }
        y_data[i * n + j] = value;
      }
    }
  });
}

}  // namespace hxsim

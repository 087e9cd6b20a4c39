// MatMul with plain loops: a simulated device needs correct results, not speed.
#include <hxplugin/matmul_dims.hpp>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {

hx_status* matmul_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  if (hx_status* status = call.check_operands("MatMul")) return status;
  bool transpose_a = false;
  bool transpose_b = false;
  if (hx_status* status = hxplugin::matmul_transposes(call, &transpose_a, &transpose_b)) {
    return status;
  }

  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  if (a.rank != 2 || b.rank != 2 || c.rank != 2) {
    return call.error(HX_INVALID_ARGUMENT,
                      "MatMul: expected three rank-2 tensors, got ranks %d, %d -> %d", a.rank,
                      b.rank, c.rank);
  }
  hxplugin::MatMulDims dims{};
  if (hx_status* status = hxplugin::matmul_dims(call, transpose_a, transpose_b, &dims)) {
    return status;
  }
  const int64_t m = dims.m;
  const int64_t n = dims.n;
  const int64_t k = dims.k;

  // Element (row, col) of a matrix stored row-major with `columns` columns, read as its
  // transpose when `transposed`.
  const auto at = [](const float* data, int64_t columns, bool transposed, int64_t row,
                     int64_t col) {
    return transposed ? data[col * columns + row] : data[row * columns + col];
  };
  const float* a_data = input_data<float>(a);
  const float* b_data = input_data<float>(b);
  float* c_data = output_data<float>(c);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0;  // k = 0 leaves it 0: an empty sum
      for (int64_t p = 0; p < k; ++p) {
        sum +=
            at(a_data, a.shape[1], transpose_a, i, p) * at(b_data, b.shape[1], transpose_b, p, j);
      }
      c_data[i * n + j] = sum;
    }
  }
  return nullptr;
}

}  // namespace hxsim

#include "hxplugin/matmul_dims.hpp"

namespace hxplugin {

hx_status* matmul_transposes(const KernelCreate& create, bool* transpose_a, bool* transpose_b) {
  *transpose_a = false;
  *transpose_b = false;
  if (hx_status* status = create.attr_bool("transpose_a", transpose_a)) return status;
  return create.attr_bool("transpose_b", transpose_b);
}

hx_status* matmul_dims(const KernelCall& call, bool transpose_a, bool transpose_b,
                       MatMulDims* out) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  const int64_t m = transpose_a ? a.shape[1] : a.shape[0];
  const int64_t k = transpose_a ? a.shape[0] : a.shape[1];
  const int64_t b_rows = transpose_b ? b.shape[1] : b.shape[0];
  const int64_t n = transpose_b ? b.shape[0] : b.shape[1];
  if (b_rows != k || c.shape[0] != m || c.shape[1] != n) {
    return call.error(HX_INVALID_ARGUMENT,
                      "MatMul: shapes [%lld, %lld] x [%lld, %lld] -> [%lld, %lld] do not agree "
                      "(transpose_a=%s, transpose_b=%s)",
                      static_cast<long long>(a.shape[0]), static_cast<long long>(a.shape[1]),
                      static_cast<long long>(b.shape[0]), static_cast<long long>(b.shape[1]),
                      static_cast<long long>(c.shape[0]), static_cast<long long>(c.shape[1]),
                      transpose_a ? "true" : "false", transpose_b ? "true" : "false");
  }
  *out = {m, n, k};
  return nullptr;
}

}  // namespace hxplugin

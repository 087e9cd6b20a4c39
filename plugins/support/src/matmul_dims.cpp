#include "hxplugin/matmul_dims.hpp"

namespace hxplugin {

hx_status* matmul_transposes(const KernelCreate& create, bool* transpose_a, bool* transpose_b) {
  *transpose_a = false;
  *transpose_b = false;
  if (hx_status* status = create.attr_bool("transpose_a", transpose_a)) return status;
  return create.attr_bool("transpose_b", transpose_b);
}

hx_status* matmul_dims_error(const KernelCall& call, bool transpose_a, bool transpose_b) {
  const int64_t* a = call.input(0).shape;
  const int64_t* b = call.input(1).shape;
  const int64_t* c = call.output(0).shape;
  return call.error(HX_INVALID_ARGUMENT,
                    "MatMul: shapes [%lld, %lld] x [%lld, %lld] -> [%lld, %lld] do not agree "
                    "(transpose_a=%s, transpose_b=%s)",
                    static_cast<long long>(a[0]), static_cast<long long>(a[1]),
                    static_cast<long long>(b[0]), static_cast<long long>(b[1]),
                    static_cast<long long>(c[0]), static_cast<long long>(c[1]),
                    transpose_a ? "true" : "false", transpose_b ? "true" : "false");
}

}  // namespace hxplugin

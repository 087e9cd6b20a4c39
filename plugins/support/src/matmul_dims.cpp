#include "hxplugin/matmul_dims.hpp"

#include <hxrt/plugin_vocabulary.h>

namespace hxplugin {

hx_status* matmul_transposes(const KernelCreate& create, bool* transpose_a, bool* transpose_b) {
  *transpose_a = false;
  *transpose_b = false;
  if (hx_status* status = create.attr_bool("transpose_a", transpose_a)) return status;
  return create.attr_bool("transpose_b", transpose_b);
}

hx_status* matmul_matrices_only(const KernelCall& call, const char* kernel) {
  const int32_t ranks[] = {call.input(0).rank, call.input(1).rank, call.output(0).rank};
  for (const int32_t rank : ranks) {
    if (rank != 2) {
      return call.error(HX_UNIMPLEMENTED,
                        "%s: only matrices (rank 2) are supported, got ranks %d, %d -> %d",
                        kernel, static_cast<int>(ranks[0]), static_cast<int>(ranks[1]),
                        static_cast<int>(ranks[2]));
    }
  }
  return nullptr;
}

hx_status* matmul_operands_error(const KernelCall& call) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  return call.error(HX_INVALID_ARGUMENT,
                    "MatMul: expected three rank-2 tensors of one dtype, got ranks %d, %d -> %d "
                    "and dtypes %s, %s -> %s",
                    static_cast<int>(a.rank), static_cast<int>(b.rank), static_cast<int>(c.rank),
                    hx_dtype_name(a.dtype), hx_dtype_name(b.dtype), hx_dtype_name(c.dtype));
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

// MatMul's operands as stacks of row-major matrices (NumPy's matmul): one GEMM shape for every
// product of a call, and where each product's a, b and c start. A vector a is one row and a
// vector b one column; batch axes where an operand has extent 1 repeat it (stride 0). A stack
// of a times one matrix b becomes a single GEMM when a's and c's matrices follow one another in
// memory (as in a dense tensor), which is the common case of a linear layer over a batch.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/plugin_vocabulary.h>

#include <cstdint>

#include "blas/gemm.hpp"
#include "kernels/kernel_call.hpp"

namespace hxcpu {

struct MatMulBatches {
  GemmShape gemm{};  // one product; lda, ldb and ldc are the views' row strides
  // The batch axes with more than one product, outermost first, and each operand's step in
  // elements along them (0 where it repeats): entries [0, rank) only. Left unset, not zeroed:
  // a tiny product of two matrices (rank 0) would pay for clearing them on every call.
  int rank = 0;
  int64_t shape[HX_MAX_RANK];
  int64_t a_step[HX_MAX_RANK];
  int64_t b_step[HX_MAX_RANK];
  int64_t c_step[HX_MAX_RANK];
  int64_t count = 1;  // products; 0 for an empty batch

  // Calls product(a_offset, b_offset, c_offset), offsets in elements from each view's first
  // element, for each of the `count` products.
  template <class Product>
  void for_each(Product&& product) const {
    if (rank == 0) {  // one product, or one folded stack
      if (count > 0) product(0, 0, 0);
      return;
    }
    int64_t index[HX_MAX_RANK] = {};
    int64_t a = 0, b = 0, c = 0;
    for (int64_t done = 0; done < count; ++done) {
      product(a, b, c);
      for (int axis = rank - 1; axis >= 0; --axis) {  // advance like an odometer
        a += a_step[axis];
        b += b_step[axis];
        c += c_step[axis];
        if (++index[axis] < shape[axis]) break;
        a -= a_step[axis] * shape[axis];
        b -= b_step[axis] * shape[axis];
        c -= c_step[axis] * shape[axis];
        index[axis] = 0;
      }
    }
  }
};

// Reads the call's a, b and c: inputs 0 and 1 and output 0 (transposes as the instance has
// them; a vector's is ignored). INVALID_ARGUMENT, naming `op` and the operand, for shapes
// that do not multiply to c, dtypes that differ, and matrices whose rows are not contiguous
// or overlap (what GEMM reads).
hx_status* plan_matmul(const KernelCall& call, const char* op, bool transpose_a, bool transpose_b,
                       MatMulBatches* out);

}  // namespace hxcpu

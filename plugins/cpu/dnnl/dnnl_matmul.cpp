#include "dnnl/dnnl_matmul.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace hxcpu {
namespace {

using Dims = dnnl::memory::dims;

dnnl::memory::data_type dnnl_type(int32_t dtype) {
  return dtype == HX_DTYPE_BF16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32;
}

// A missing batch axis is one element; its stride is never followed but must be valid.
void fill_missing_strides(const Dims& dims, Dims& strides, int first_set) {
  for (int axis = first_set - 1; axis >= 0; --axis) {
    strides[axis] = std::max<int64_t>(strides[axis + 1] * dims[axis + 1], 1);
  }
}

// One operand as a [batch..., rows, columns] matrix stack of `rank` axes.
dnnl::memory::desc operand(const hx_tensor_view& view, int rank, bool vector_is_row,
                           bool transpose) {
  Dims dims(static_cast<size_t>(rank), 1);
  Dims strides(static_cast<size_t>(rank), 1);
  const int row = rank - 2;
  const int column = rank - 1;
  if (view.rank == 1) {
    const int along = vector_is_row ? column : row;
    dims[along] = view.shape[0];
    strides[along] = view.strides[0];
    strides[vector_is_row ? row : column] = std::max<int64_t>(view.shape[0] * view.strides[0], 1);
    fill_missing_strides(dims, strides, row);
  } else {
    const int own_rows = view.rank - 2;
    dims[row] = view.shape[own_rows];
    dims[column] = view.shape[own_rows + 1];
    strides[row] = view.strides[own_rows];
    strides[column] = view.strides[own_rows + 1];
    if (transpose) {
      std::swap(dims[row], dims[column]);
      std::swap(strides[row], strides[column]);
    }
    const int offset = row - own_rows;
    for (int axis = 0; axis < own_rows; ++axis) {
      dims[offset + axis] = view.shape[axis];
      strides[offset + axis] = view.strides[axis];
    }
    fill_missing_strides(dims, strides, offset);
  }
  return dnnl::memory::desc(dims, dnnl_type(view.dtype), strides);
}

// c as [batch..., m, n]: c has every batch axis; a vector a or b left out an axis of 1.
dnnl::memory::desc product(const hx_tensor_view& c, int rank, bool a_vector, bool b_vector) {
  Dims dims(static_cast<size_t>(rank), 1);
  Dims strides(static_cast<size_t>(rank), 1);
  for (int axis = 0; axis < rank - 2; ++axis) {
    dims[axis] = c.shape[axis];
    strides[axis] = c.strides[axis];
  }
  if (!b_vector) {
    dims[rank - 1] = c.shape[c.rank - 1];
    strides[rank - 1] = c.strides[c.rank - 1];
  }
  if (a_vector) {
    strides[rank - 2] = std::max<int64_t>(dims[rank - 1] * strides[rank - 1], 1);
  } else {
    dims[rank - 2] = c.shape[rank - 2];
    strides[rank - 2] = c.strides[rank - 2];
  }
  return dnnl::memory::desc(dims, dnnl_type(c.dtype), strides);
}

// A bias of rank 2 at most as [rows, columns] of c's: its axes aligned at the end, an absent
// one of extent 1.
dnnl::memory::desc bias_of(const hx_tensor_view& bias) {
  Dims dims = {1, 1};
  Dims strides = {1, 1};
  for (int axis = 0; axis < bias.rank; ++axis) {
    const size_t at = static_cast<size_t>(2 - bias.rank + axis);
    dims[at] = bias.shape[axis];
    strides[at] = bias.strides[axis];
  }
  strides[0] = dims[0] == 1 ? std::max<int64_t>(dims[1] * strides[1], 1) : strides[0];
  return dnnl::memory::desc(dims, dnnl_type(bias.dtype), strides);
}

}  // namespace

Prepared prepare_dnnl_matmul(const KernelCall& call, bool transpose_a, bool transpose_b,
                             uint32_t threads, bool with_bias,
                             const FusedActivation& activation) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  const bool a_vector = a.rank == 1;
  const bool b_vector = b.rank == 1;
  const int batch_rank = c.rank - (a_vector ? 0 : 1) - (b_vector ? 0 : 1);
  const int rank = batch_rank + 2;
  Prepared prepared;
  prepared.native = true;
  prepared.inputs = {{DNNL_ARG_SRC, operand(a, rank, true, transpose_a && !a_vector)},
                     {DNNL_ARG_WEIGHTS, operand(b, rank, false, transpose_b && !b_vector)}};
  prepared.output = product(c, rank, a_vector, b_vector);
  if (with_bias) prepared.inputs.emplace_back(DNNL_ARG_BIAS, bias_of(call.input(2)));
  // Weights that are a graph constant in the layout oneDNN packs them in, reordered once
  // (run_prepared): otherwise its kernels copy them into it on every call.
  const bool packed_b = call.constant_id(1) != 0;
  const dnnl::memory::desc weights =
      packed_b ? dnnl::memory::desc(prepared.inputs[1].second.dims(),
                                    prepared.inputs[1].second.data_type(),
                                    dnnl::memory::format_tag::any)
               : prepared.inputs[1].second;
  const dnnl::matmul::desc desc =
      with_bias ? dnnl::matmul::desc(prepared.inputs[0].second, weights,
                                     prepared.inputs[2].second, prepared.output)
                : dnnl::matmul::desc(prepared.inputs[0].second, weights, prepared.output);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  set_activation_post_op(attr, activation);
  const DnnlThreads scope(threads_for(element_count(c), threads));
  const dnnl::matmul::primitive_desc primitive_desc(desc, attr, cpu_engine());
  // oneDNN's reference loops (a transposed A, some bias layouts) are far slower than the
  // BLAS path the caller falls back to.
  if (std::string(primitive_desc.impl_info_str()).rfind("ref", 0) == 0) {
    throw dnnl::error(dnnl_unimplemented, "oneDNN has only its reference matmul for this call");
  }
  prepared.primitive = dnnl::matmul(primitive_desc);
  prepared.scratchpad = primitive_desc.scratchpad_desc();
  if (packed_b) use_chosen_layouts(prepared, primitive_desc);
  return prepared;
}

std::shared_ptr<const Prepared> cached_dnnl_matmul(PrimitiveCache& cache, const KernelCall& call,
                                                   bool transpose_a, bool transpose_b,
                                                   uint32_t threads, bool with_bias,
                                                   const FusedActivation& activation) {
  return cache.get(shapes_key(call), [&] {
    try {
      return prepare_dnnl_matmul(call, transpose_a, transpose_b, threads, with_bias,
                                 activation);
    } catch (const dnnl::error& error) {
      if (error.status != dnnl_unimplemented) throw;
      return Prepared{};
    }
  });
}

}  // namespace hxcpu

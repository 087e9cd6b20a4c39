#include "kernels/matmul_batches.hpp"

#include <climits>
#include <string>

namespace hxcpu {
namespace {

// One operand's matrices as stored (before a transpose).
struct StoredMatrix {
  int64_t rows, columns, row_stride, column_stride;
  int matrix_axes;  // the trailing axes the matrix takes: 0 (c of two vectors), 1 or 2
};

// The matrix in the trailing axes of `view`: `row_axis` and `column_axis` say which of the two
// the view has (a vector a lacks the row axis, a vector b the column axis).
StoredMatrix stored_matrix(const hx_tensor_view& view, bool row_axis, bool column_axis) {
  StoredMatrix matrix{1, 1, 1, 1, static_cast<int>(row_axis) + static_cast<int>(column_axis)};
  const int32_t rank = view.rank;
  if (column_axis) {
    matrix.columns = view.shape[rank - 1];
    matrix.column_stride = view.strides[rank - 1];
  }
  if (row_axis) {
    const int32_t axis = rank - (column_axis ? 2 : 1);
    matrix.rows = view.shape[axis];
    matrix.row_stride = view.strides[axis];
  }
  // A stride along an axis of one element is never followed; BLAS still wants a row stride of
  // at least the row's length.
  if (matrix.columns <= 1) matrix.column_stride = 1;
  if (matrix.rows <= 1) matrix.row_stride = matrix.columns;
  return matrix;
}

// What GEMM reads: contiguous rows that do not overlap.
bool has_separate_rows(const StoredMatrix& matrix) {
  return matrix.column_stride == 1 && matrix.row_stride >= matrix.columns;
}

std::string dims_text(const int64_t* dims, int32_t rank) {
  std::string text = "[";
  for (int32_t i = 0; i < rank; ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

__attribute__((noinline, cold)) hx_status* rows_error(const KernelCall& call,
                                                      const char* op,
                                                      const hx_tensor_view& view,
                                                      const char* name) {
  return call.error(HX_INVALID_ARGUMENT,
                    "%s: %s has strides %s for shape %s; the CPU kernel needs rows of "
                    "contiguous elements that do not overlap",
                    op, name, dims_text(view.strides, view.rank).c_str(),
                    dims_text(view.shape, view.rank).c_str());
}

__attribute__((noinline, cold)) hx_status* shapes_error(const KernelCall& call, const char* op,
                                                        bool transpose_a, bool transpose_b) {
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& c = call.output(0);
  return call.error(HX_INVALID_ARGUMENT,
                    "%s: shapes %s x %s -> %s (%s, %s, %s) do not agree (transpose_a=%s, "
                    "transpose_b=%s)",
                    op,
                    dims_text(a.shape, a.rank).c_str(), dims_text(b.shape, b.rank).c_str(),
                    dims_text(c.shape, c.rank).c_str(), hx_dtype_name(a.dtype),
                    hx_dtype_name(b.dtype), hx_dtype_name(c.dtype),
                    transpose_a ? "true" : "false", transpose_b ? "true" : "false");
}

// The step of `view` along output batch axis `axis` of `rank` batch axes: 0 where the view
// repeats, -1 where its extent neither matches nor is 1.
int64_t batch_step(const hx_tensor_view& view, int batch_rank, int rank, int axis,
                   int64_t extent) {
  const int own = axis - (rank - batch_rank);
  if (own < 0 || view.shape[own] == 1) return 0;
  return view.shape[own] == extent ? view.strides[own] : -1;
}

// True when the matrices of one operand along the batch axes follow one another at the
// matrix's own row stride: the stack is then a single matrix of count * rows rows.
bool rows_continue(const MatMulBatches& plan, const int64_t* step, const StoredMatrix& matrix) {
  int64_t next = matrix.rows * matrix.row_stride;
  for (int axis = plan.rank - 1; axis >= 0; --axis) {
    if (step[axis] != next) return false;
    next *= plan.shape[axis];
  }
  return true;
}

// A stack of a times one matrix b, a not transposed: one GEMM of count * m rows, when that
// stays within BLAS's int.
void fold_batches(MatMulBatches& plan, const StoredMatrix& a, const StoredMatrix& c) {
  for (int axis = 0; axis < plan.rank; ++axis) {
    if (plan.b_step[axis] != 0) return;
  }
  if (plan.gemm.transpose_a || !rows_continue(plan, plan.a_step, a) ||
      !rows_continue(plan, plan.c_step, c) || plan.gemm.m * plan.count > INT_MAX) {
    return;
  }
  plan.gemm.m *= plan.count;
  plan.rank = 0;
  plan.count = 1;
}

}  // namespace

hx_status* plan_matmul(const KernelCall& call, const char* op, bool transpose_a, bool transpose_b,
                       MatMulBatches* out) {
  const hx_tensor_view& a_view = call.input(0);
  const hx_tensor_view& b_view = call.input(1);
  const hx_tensor_view& c_view = call.output(0);
  if (a_view.rank < 1 || b_view.rank < 1 || a_view.dtype != b_view.dtype ||
      a_view.dtype != c_view.dtype) {
    return shapes_error(call, op, transpose_a, transpose_b);
  }
  const bool a_vector = a_view.rank == 1;
  const bool b_vector = b_view.rank == 1;
  const StoredMatrix a = stored_matrix(a_view, !a_vector, true);
  const StoredMatrix b = stored_matrix(b_view, true, !b_vector);
  const StoredMatrix c = stored_matrix(c_view, !a_vector, !b_vector);
  if (!has_separate_rows(a)) return rows_error(call, op, a_view, "input a");
  if (!has_separate_rows(b)) return rows_error(call, op, b_view, "input b");
  if (!has_separate_rows(c)) return rows_error(call, op, c_view, "the output");

  MatMulBatches& plan = *out;  // written in place: the caller's plan is on its hot path
  plan.rank = 0;
  plan.count = 1;
  GemmShape& gemm = plan.gemm;
  gemm.transpose_a = transpose_a && !a_vector;
  gemm.transpose_b = transpose_b && !b_vector;
  gemm.m = gemm.transpose_a ? a.columns : a.rows;
  gemm.k = gemm.transpose_a ? a.rows : a.columns;
  gemm.n = gemm.transpose_b ? b.rows : b.columns;
  gemm.lda = a.row_stride;
  gemm.ldb = b.row_stride;
  gemm.ldc = c.row_stride;
  const int64_t k_of_b = gemm.transpose_b ? b.columns : b.rows;
  const int a_batch = a_view.rank - a.matrix_axes;
  const int b_batch = b_view.rank - b.matrix_axes;
  const int rank = c_view.rank - c.matrix_axes;
  if (k_of_b != gemm.k || c.rows != gemm.m || c.columns != gemm.n || rank < 0 ||
      rank != (a_batch > b_batch ? a_batch : b_batch)) {
    return shapes_error(call, op, transpose_a, transpose_b);
  }
  for (int axis = 0; axis < rank; ++axis) {
    const int64_t extent = c_view.shape[axis];
    const int64_t a_step = batch_step(a_view, a_batch, rank, axis, extent);
    const int64_t b_step = batch_step(b_view, b_batch, rank, axis, extent);
    if (a_step < 0 || b_step < 0) return shapes_error(call, op, transpose_a, transpose_b);
    plan.count *= extent;
    if (extent == 1) continue;  // one product along it: no step to take
    plan.shape[plan.rank] = extent;
    plan.a_step[plan.rank] = a_step;
    plan.b_step[plan.rank] = b_step;
    plan.c_step[plan.rank] = c_view.strides[axis];
    ++plan.rank;
  }
  if (plan.count > 1) fold_batches(plan, a, c);
  return nullptr;
}

}  // namespace hxcpu

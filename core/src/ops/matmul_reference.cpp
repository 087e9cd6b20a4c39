// Reference cases of MatMul: op(a) x op(b) as NumPy's matmul, where op transposes the last two
// axes when transpose_a / transpose_b is true, the products summed in double.
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct MatMulCall {
  Shape a, b;  // as stored, before the transposes
  // Absent attributes exercise the op's defaults (false).
  std::optional<bool> transpose_a, transpose_b;
};

// A stack of matrices as stored: a vector is one row (a) or one column (b).
struct Stack {
  Shape batch;
  int64_t rows, columns;
};

Stack stack_of(const Shape& shape, bool is_a) {
  const int rank = shape.rank();
  if (rank == 1) return is_a ? Stack{Shape{}, 1, shape[0]} : Stack{Shape{}, shape[0], 1};
  return {Shape(shape.data(), rank - 2), shape[rank - 2], shape[rank - 1]};
}

// Element (row, col) of op(matrix) for the matrix that starts at `base` of `values`.
double at(const ReferenceTensor& tensor, int64_t base, const Stack& stack, bool transposed,
          int64_t row, int64_t col) {
  const int64_t index = transposed ? col * stack.columns + row : row * stack.columns + col;
  return tensor.values[static_cast<size_t>(base + index)];
}

ReferenceTensor matmul_reference(const ReferenceTensor& a, const ReferenceTensor& b,
                                 bool transpose_a, bool transpose_b) {
  const bool a_vector = a.shape.rank() == 1;
  const bool b_vector = b.shape.rank() == 1;
  const Stack sa = stack_of(a.shape, true);
  const Stack sb = stack_of(b.shape, false);
  // Transposing a vector changes nothing: it stays a row (a) or a column (b).
  const bool ta = transpose_a && !a_vector;
  const bool tb = transpose_b && !b_vector;
  const int64_t m = ta ? sa.columns : sa.rows;
  const int64_t k = ta ? sa.rows : sa.columns;
  const int64_t n = tb ? sb.rows : sb.columns;
  const Shape batch = broadcast_shape(sa.batch, sb.batch);
  const Strides a_strides = broadcast_strides(sa.batch, batch);
  const Strides b_strides = broadcast_strides(sb.batch, batch);
  Shape out_shape = batch;
  if (!a_vector) out_shape.push_back(m);
  if (!b_vector) out_shape.push_back(n);
  ReferenceTensor out = empty_reference(a.dtype, out_shape);
  for (int64_t index = 0; index < batch.num_elements(); ++index) {
    const int64_t a_base = strided_offset(index, batch, a_strides) * sa.rows * sa.columns;
    const int64_t b_base = strided_offset(index, batch, b_strides) * sb.rows * sb.columns;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          sum += at(a, a_base, sa, ta, i, p) * at(b, b_base, sb, tb, p, j);
        }
        out.values.push_back(sum);
      }
    }
  }
  return out;
}

int64_t inner_extent(const MatMulCall& call) {
  const Shape& a = call.a;
  if (a.rank() == 1) return a[0];
  return call.transpose_a.value_or(false) ? a[a.rank() - 2] : a[a.rank() - 1];
}

}  // namespace

std::vector<ReferenceCase> matmul_cases(DType type, DType, RandomValues& random) {
  const std::vector<MatMulCall> calls = {
      // Matrices, every transpose, thin, empty and larger than the small GEMM path takes.
      {{3, 4}, {4, 5}, false, false},
      {{4, 3}, {4, 5}, true, false},
      {{3, 4}, {5, 4}, false, true},
      {{4, 3}, {5, 4}, true, true},
      {{2, 7}, {7, 3}, {}, {}},
      {{1, 1}, {1, 1}, {}, {}},
      {{1, 6}, {1, 6}, {}, true},
      {{1, 5}, {1, 4}, true, {}},
      {{0, 3}, {3, 4}, {}, {}},
      {{3, 0}, {0, 4}, {}, {}},
      {{4, 3}, {3, 0}, false, false},
      {{65, 33}, {33, 17}, {}, {}},
      {{33, 17}, {65, 33}, true, true},
      // Vectors: the added axis is dropped; a transpose leaves a vector as it is.
      {{4}, {4, 5}, {}, {}},
      {{3, 4}, {4}, {}, {}},
      {{6}, {6}, {}, {}},
      {{4}, {5, 4}, true, true},
      {{0}, {0, 3}, {}, {}},
      {{4}, {2, 4, 3}, {}, {}},
      {{2, 3, 4}, {4}, {}, {}},
      // Stacks: the same batch, one side a single matrix, broadcast batch axes, transposes.
      {{2, 3, 4}, {2, 4, 5}, {}, {}},
      {{2, 3, 4}, {4, 5}, {}, {}},
      {{3, 4}, {2, 4, 5}, {}, {}},
      {{2, 4, 3}, {5, 4}, true, true},
      {{2, 1, 3, 4}, {3, 4, 2}, false, false},
      {{1, 3, 4}, {2, 1, 5, 4}, false, true},
      {{2, 3, 4, 3}, {2, 3, 4, 2}, true, false},
      {{0, 3, 4}, {4, 2}, {}, {}},
      {{2, 3, 0}, {2, 0, 4}, {}, {}},
      {{3, 20, 33}, {33, 18}, {}, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const MatMulCall& call : calls) {
    ReferenceCase matmul;
    matmul.inputs = {random.tensor(type, call.a), random.tensor(type, call.b)};
    if (call.transpose_a) matmul.attrs.set("transpose_a", *call.transpose_a);
    if (call.transpose_b) matmul.attrs.set("transpose_b", *call.transpose_b);
    matmul.expected = matmul_reference(matmul.inputs[0], matmul.inputs[1],
                                       call.transpose_a.value_or(false),
                                       call.transpose_b.value_or(false));
    matmul.tolerance = reduction_tolerance(type, inner_extent(call));
    cases.push_back(std::move(matmul));
  }
  return cases;
}

}  // namespace hxrt::detail

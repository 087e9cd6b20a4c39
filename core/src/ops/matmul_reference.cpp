// Reference cases of MatMul: op(a) [m, k] times op(b) [k, n], where op transposes when the
// attribute transpose_a / transpose_b is true, the products summed in double.
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct MatMulCall {
  int64_t m, k, n;
  // Absent attributes exercise the op's defaults (false).
  std::optional<bool> transpose_a, transpose_b;
};

// Element (row, col) of op(matrix), where `matrix` is stored row-major.
double at(const ReferenceTensor& matrix, bool transposed, int64_t row, int64_t col) {
  const int64_t columns = matrix.shape[1];
  const int64_t index = transposed ? col * columns + row : row * columns + col;
  return matrix.values[static_cast<size_t>(index)];
}

ReferenceTensor matmul_reference(const ReferenceTensor& a, const ReferenceTensor& b,
                                 bool transpose_a, bool transpose_b) {
  const int64_t m = a.shape[transpose_a ? 1 : 0];
  const int64_t k = a.shape[transpose_a ? 0 : 1];
  const int64_t n = b.shape[transpose_b ? 0 : 1];
  ReferenceTensor out = empty_reference(a.dtype, {m, n});
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += at(a, transpose_a, i, p) * at(b, transpose_b, p, j);
      out.values.push_back(sum);
    }
  }
  return out;
}

}  // namespace

std::vector<ReferenceCase> matmul_cases(DType type, DType, RandomValues& random) {
  const std::vector<MatMulCall> calls = {
      {3, 4, 5, false, false},  {3, 4, 5, true, false},  {3, 4, 5, false, true},
      {3, 4, 5, true, true},    {2, 7, 3, {}, {}},       {1, 1, 1, {}, {}},
      {1, 6, 1, {}, true},      {5, 1, 4, true, {}},     {0, 3, 4, {}, {}},
      {3, 0, 4, {}, {}},        {4, 3, 0, false, false}, {65, 33, 17, {}, {}},
      {17, 33, 65, true, true},
  };
  std::vector<ReferenceCase> cases;
  for (const MatMulCall& call : calls) {
    const bool transpose_a = call.transpose_a.value_or(false);
    const bool transpose_b = call.transpose_b.value_or(false);
    ReferenceCase matmul;
    matmul.inputs = {
        random.tensor(type, transpose_a ? Shape{call.k, call.m} : Shape{call.m, call.k}),
        random.tensor(type, transpose_b ? Shape{call.n, call.k} : Shape{call.k, call.n})};
    if (call.transpose_a) matmul.attrs.set("transpose_a", *call.transpose_a);
    if (call.transpose_b) matmul.attrs.set("transpose_b", *call.transpose_b);
    matmul.expected =
        matmul_reference(matmul.inputs[0], matmul.inputs[1], transpose_a, transpose_b);
    matmul.tolerance = reduction_tolerance(type, call.k);
    cases.push_back(std::move(matmul));
  }
  return cases;
}

}  // namespace hxrt::detail

// Reference cases of Gemm: alpha * op(A) x op(B) + beta * C in double, C broadcast to [M, N];
// and of FusedGemm: Gemm's cases with each activation applied.
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/fused_activation.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct GemmCall {
  int64_t m, k, n;
  bool trans_a, trans_b;
  std::optional<Shape> c;  // absent: no C
  std::optional<double> alpha, beta;
};

double element(const ReferenceTensor& matrix, bool transposed, int64_t row, int64_t col) {
  const int64_t columns = matrix.shape[1];
  return matrix.values[static_cast<size_t>(transposed ? col * columns + row
                                                      : row * columns + col)];
}

ReferenceTensor gemm_reference(const ReferenceCase& gemm, const GemmCall& call) {
  const double alpha = call.alpha.value_or(1.0);
  const double beta = call.beta.value_or(1.0);
  const Shape y_shape{call.m, call.n};
  ReferenceTensor y = empty_reference(gemm.inputs[0].dtype, y_shape);
  Strides c_strides;
  if (call.c) c_strides = broadcast_strides(*call.c, y_shape);
  for (int64_t i = 0; i < call.m; ++i) {
    for (int64_t j = 0; j < call.n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < call.k; ++p) {
        sum += element(gemm.inputs[0], call.trans_a, i, p) *
               element(gemm.inputs[1], call.trans_b, p, j);
      }
      double value = alpha * sum;
      if (call.c) {
        const int64_t offset = strided_offset(i * call.n + j, y_shape, c_strides);
        value += beta * gemm.inputs[2].values[static_cast<size_t>(offset)];
      }
      y.values.push_back(value);
    }
  }
  return y;
}

}  // namespace

std::vector<ReferenceCase> gemm_cases(DType type, DType, RandomValues& random) {
  const std::vector<GemmCall> calls = {
      {3, 4, 5, false, false, Shape{3, 5}, {}, {}},
      {3, 4, 5, true, false, Shape{5}, 0.5, 2.0},
      {3, 4, 5, false, true, Shape{3, 1}, -1.0, {}},
      {3, 4, 5, true, true, Shape{}, {}, 0.25},
      {3, 4, 5, false, false, Shape{1, 5}, {}, 0.0},
      {3, 4, 5, false, false, Shape{1, 1}, 2.0, -1.0},
      {2, 7, 3, false, false, {}, 1.5, {}},
      {1, 1, 1, false, false, Shape{1}, {}, {}},
      {0, 3, 4, false, false, Shape{4}, {}, {}},
      {3, 0, 4, false, false, Shape{3, 4}, {}, 3.0},
      {4, 3, 0, true, false, {}, {}, {}},
      {65, 33, 17, false, true, Shape{17}, 0.5, 0.5},
  };
  std::vector<ReferenceCase> cases;
  for (const GemmCall& call : calls) {
    ReferenceCase gemm;
    gemm.inputs = {
        random.tensor(type, call.trans_a ? Shape{call.k, call.m} : Shape{call.m, call.k}),
        random.tensor(type, call.trans_b ? Shape{call.n, call.k} : Shape{call.k, call.n})};
    if (call.c) gemm.inputs.push_back(random.tensor(type, *call.c));
    if (call.trans_a) gemm.attrs.set("transA", int64_t{1});
    if (call.trans_b) gemm.attrs.set("transB", int64_t{1});
    if (call.alpha) gemm.attrs.set("alpha", *call.alpha);
    if (call.beta) gemm.attrs.set("beta", *call.beta);
    gemm.expected = gemm_reference(gemm, call);
    gemm.tolerance = reduction_tolerance(type, call.k + 2);
    cases.push_back(std::move(gemm));
  }
  return cases;
}

std::vector<ReferenceCase> fused_gemm_cases(DType type, DType output_type,
                                            RandomValues& random) {
  return with_each_activation(gemm_cases, type, output_type, random);
}

}  // namespace hxrt::detail

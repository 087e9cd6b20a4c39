#include "reference/matmul.hpp"

namespace hxrt_conformance {
namespace {

// Element (row, col) of op(matrix), where `matrix` is stored row-major.
double at(const HostTensor& matrix, bool transposed, int64_t row, int64_t col) {
  const int64_t columns = matrix.spec.shape[1];
  const int64_t index = transposed ? col * columns + row : row * columns + col;
  return matrix.values[static_cast<size_t>(index)];
}

}  // namespace

HostTensor matmul_reference(const HostTensor& a, const HostTensor& b, bool transpose_a,
                            bool transpose_b) {
  const int64_t m = a.spec.shape[transpose_a ? 1 : 0];
  const int64_t k = a.spec.shape[transpose_a ? 0 : 1];
  const int64_t n = b.spec.shape[transpose_b ? 0 : 1];
  HostTensor out{{a.spec.dtype, {m, n}}, {}};
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += at(a, transpose_a, i, p) * at(b, transpose_b, p, j);
      out.values.push_back(sum);
    }
  }
  return out;
}

}  // namespace hxrt_conformance

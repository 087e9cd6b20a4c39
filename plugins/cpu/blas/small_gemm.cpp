// The small path of gemm.hpp: register-blocked loops on the compiler's 16-byte vector type
// (SSE2, which every x86-64 CPU has and the plugin is compiled for; NEON on arm64). A block of
// MR rows by NV vectors of C lives in registers while the k loop runs, so that each element of
// B is loaded once per MR rows and the MR * NV accumulators are independent chains; plain
// loops left to the auto-vectoriser spilled their accumulators and ran 3 to 4 times slower
// (measured while writing this; see the task's results). A transposed B is first copied into
// row-major scratch on the stack, so that the loops always read rows of B.
#include <cstddef>
#include <cstring>
#include <memory>

#include "blas/gemm.hpp"

namespace hxcpu {
namespace {

template <class T>
struct Simd {
  typedef T Vector __attribute__((vector_size(16)));
  static constexpr int kLanes = 16 / sizeof(T);
};

// op(A) read at any strides: element (row, p) is data[row * row_step + p * inner_step], which
// covers A as stored (row_step = lda, inner_step = 1) and transposed (1, lda).
template <class T>
struct Rows {
  const T* data;
  int64_t row_step;
  int64_t inner_step;
  T at(int64_t row, int64_t p) const { return data[row * row_step + p * inner_step]; }
};

// C[0 .. MR) x [0 .. NV * lanes) of the block that starts at row `a.data`'s row 0 and at
// column 0 of `b` and `c` (both row-major, k rows of b).
template <class T, int MR, int NV>
inline __attribute__((always_inline)) void vector_block(int64_t k, Rows<T> a, const T* b,
                                                        int64_t ldb, T* c, int64_t ldc) {
  using Vector = typename Simd<T>::Vector;
  constexpr int kLanes = Simd<T>::kLanes;
  Vector sum[MR][NV] = {};
  for (int64_t p = 0; p < k; ++p) {
    Vector b_row[NV];
    for (int v = 0; v < NV; ++v) std::memcpy(&b_row[v], b + p * ldb + v * kLanes, sizeof(Vector));
    for (int r = 0; r < MR; ++r) {
      const Vector a_value = Vector{} + a.at(r, p);  // broadcast
      for (int v = 0; v < NV; ++v) sum[r][v] += a_value * b_row[v];
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int v = 0; v < NV; ++v) std::memcpy(c + r * ldc + v * kLanes, &sum[r][v], sizeof(Vector));
  }
}

// One column of C over MR rows: the columns left over after the whole vectors.
template <class T, int MR>
inline __attribute__((always_inline)) void column_block(int64_t k, Rows<T> a, const T* b,
                                                        int64_t ldb, T* c, int64_t ldc) {
  T sum[MR] = {};
  for (int64_t p = 0; p < k; ++p) {
    const T b_value = b[p * ldb];
    for (int r = 0; r < MR; ++r) sum[r] += a.at(r, p) * b_value;
  }
  for (int r = 0; r < MR; ++r) c[r * ldc] = sum[r];
}

// MR rows of C, all n columns: two vectors at a time, then one, then single columns.
template <class T, int MR>
inline __attribute__((always_inline)) void row_block(int64_t n, int64_t k, Rows<T> a,
                                                     const T* b, int64_t ldb, T* c,
                                                     int64_t ldc) {
  constexpr int kLanes = Simd<T>::kLanes;
  int64_t j = 0;
  for (; j + 2 * kLanes <= n; j += 2 * kLanes) {
    vector_block<T, MR, 2>(k, a, b + j, ldb, c + j, ldc);
  }
  if (j + kLanes <= n) {
    vector_block<T, MR, 1>(k, a, b + j, ldb, c + j, ldc);
    j += kLanes;
  }
  for (; j < n; ++j) column_block<T, MR>(k, a, b + j, ldb, c + j, ldc);
}

// A fully unrolled product for one fixed shape, its transposes known too: with each operand's
// unit step a constant, an element's address is one multiply-add, not two. Every sum is made
// before C is written, so that the compiler need not order loads after stores that might
// alias them (it then tested the pointers' overlap on every call).
template <class T, int M, int N, int K, bool kTransposeA, bool kTransposeB>
inline void fixed_gemm(const T* a, int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc) {
  T sum[M][N] = {};
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      for (int p = 0; p < K; ++p) {
        const T a_value = kTransposeA ? a[p * lda + i] : a[i * lda + p];
        const T b_value = kTransposeB ? b[j * ldb + p] : b[p * ldb + j];
        sum[i][j] += a_value * b_value;
      }
    }
  }
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) c[i * ldc + j] = sum[i][j];
  }
}

template <class T, int M, int N, int K>
void fixed_gemm(const GemmShape& shape, const T* a, const T* b, T* c) {
  const int transposes = (shape.transpose_a ? 2 : 0) + (shape.transpose_b ? 1 : 0);
  switch (transposes) {
    case 0: return fixed_gemm<T, M, N, K, false, false>(a, shape.lda, b, shape.ldb, c, shape.ldc);
    case 1: return fixed_gemm<T, M, N, K, false, true>(a, shape.lda, b, shape.ldb, c, shape.ldc);
    case 2: return fixed_gemm<T, M, N, K, true, false>(a, shape.lda, b, shape.ldb, c, shape.ldc);
    default: return fixed_gemm<T, M, N, K, true, true>(a, shape.lda, b, shape.ldb, c, shape.ldc);
  }
}

template <class T>
Rows<T> rows_of_a(const GemmShape& shape, const T* a) {
  return shape.transpose_a ? Rows<T>{a, 1, shape.lda} : Rows<T>{a, shape.lda, 1};
}

// Any shape. Out of line: its frame holds the scratch for a transposed B, which the fixed
// shape does without. The scratch is on the stack for every shape gemm() sends here (k * n <=
// m * n * k <= kSmallGemmMaxWork) and on the heap for the larger ones tests and bench/ may.
template <class T>
__attribute__((noinline)) void blocked_gemm(const GemmShape& shape, const T* a_data,
                                            const T* b_data, T* c) {
  const Rows<T> a = rows_of_a(shape, a_data);
  const T* b = b_data;
  int64_t ldb = shape.ldb;
  T on_stack[kSmallGemmMaxWork];
  std::unique_ptr<T[]> on_heap;
  if (shape.transpose_b) {
    T* row_major_b = on_stack;
    if (shape.k * shape.n > kSmallGemmMaxWork) {
      on_heap.reset(new T[static_cast<size_t>(shape.k * shape.n)]);
      row_major_b = on_heap.get();
    }
    for (int64_t p = 0; p < shape.k; ++p) {
      for (int64_t j = 0; j < shape.n; ++j) row_major_b[p * shape.n + j] = b_data[j * ldb + p];
    }
    b = row_major_b;
    ldb = shape.n;
  }
  auto rows_from = [&a](int64_t row) {
    return Rows<T>{a.data + row * a.row_step, a.row_step, a.inner_step};
  };
  int64_t i = 0;
  for (; i + 4 <= shape.m; i += 4) {
    row_block<T, 4>(shape.n, shape.k, rows_from(i), b, ldb, c + i * shape.ldc, shape.ldc);
  }
  if (i + 2 <= shape.m) {
    row_block<T, 2>(shape.n, shape.k, rows_from(i), b, ldb, c + i * shape.ldc, shape.ldc);
    i += 2;
  }
  if (i < shape.m) {
    row_block<T, 1>(shape.n, shape.k, rows_from(i), b, ldb, c + i * shape.ldc, shape.ldc);
  }
}

template <class T>
void small_gemm_of(const GemmShape& shape, const T* a, const T* b, T* c) {
  if (shape.m == 2 && shape.n == 2 && shape.k == 2) return fixed_gemm<T, 2, 2, 2>(shape, a, b, c);
  blocked_gemm(shape, a, b, c);
}

}  // namespace

void small_gemm(const GemmShape& shape, const float* a, const float* b, float* c) {
  small_gemm_of(shape, a, b, c);
}

void small_gemm(const GemmShape& shape, const double* a, const double* b, double* c) {
  small_gemm_of(shape, a, b, c);
}

}  // namespace hxcpu

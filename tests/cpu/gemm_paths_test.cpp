// The CPU plugin's two GEMM paths (plugins/cpu/blas/gemm.hpp), each forced on random shapes
// around the size threshold, for both dtypes and every transpose, against a triple loop in
// long double and against each other; row strides wider than the rows; and the threshold rule
// itself.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "blas/gemm.hpp"

namespace {

using hxcpu::GemmShape;

// A shape with row strides `pad` elements wider than the rows, as a view may have.
GemmShape make_shape(int64_t m, int64_t n, int64_t k, bool transpose_a, bool transpose_b,
                     int64_t pad) {
  const int64_t a_row = transpose_a ? m : k;
  const int64_t b_row = transpose_b ? k : n;
  return {m, n, k, a_row + pad, b_row + pad, n + pad, transpose_a, transpose_b};
}

int64_t rows_of_a(const GemmShape& s) { return s.transpose_a ? s.k : s.m; }
int64_t rows_of_b(const GemmShape& s) { return s.transpose_b ? s.n : s.k; }

template <class T>
std::vector<T> random_values(size_t count, std::mt19937& engine) {
  std::uniform_real_distribution<double> uniform(-4, 4);
  std::vector<T> values(count);
  for (T& value : values) value = static_cast<T>(uniform(engine));
  return values;
}

// op(A) op(B) in long double, and per element the sum of |products| that bounds the rounding
// error of any summation order.
template <class T>
void reference(const GemmShape& s, const std::vector<T>& a, const std::vector<T>& b,
               std::vector<long double>& c, std::vector<long double>& magnitude) {
  c.assign(static_cast<size_t>(s.m * s.n), 0);
  magnitude.assign(c.size(), 0);
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      for (int64_t p = 0; p < s.k; ++p) {
        const long double x = a[static_cast<size_t>(s.transpose_a ? p * s.lda + i : i * s.lda + p)];
        const long double y = b[static_cast<size_t>(s.transpose_b ? j * s.ldb + p : p * s.ldb + j)];
        c[static_cast<size_t>(i * s.n + j)] += x * y;
        magnitude[static_cast<size_t>(i * s.n + j)] += std::fabs(x * y);
      }
    }
  }
}

// What a path wrote: the m x n elements at stride ldc; the padding must stay as it was.
template <class T>
std::vector<T> result_of(const GemmShape& s, const std::vector<T>& c, T padding) {
  std::vector<T> values;
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.ldc; ++j) {
      const T value = c[static_cast<size_t>(i * s.ldc + j)];
      if (j < s.n) {
        values.push_back(value);
      } else {
        REQUIRE(value == padding);
      }
    }
  }
  return values;
}

template <class T>
double unit_roundoff() {
  return std::ldexp(1.0, -std::numeric_limits<T>::digits);
}

// Runs the small path, the BLAS path and gemm() on one random instance of `s`, checking each
// against the reference and the two paths against each other.
template <class T>
void check_paths(const GemmShape& s, std::mt19937& engine) {
  CAPTURE(s.m, s.n, s.k, s.lda, s.ldb, s.ldc, s.transpose_a, s.transpose_b);
  const std::vector<T> a = random_values<T>(static_cast<size_t>(rows_of_a(s) * s.lda), engine);
  const std::vector<T> b = random_values<T>(static_cast<size_t>(rows_of_b(s) * s.ldb), engine);
  std::vector<long double> expected, magnitude;
  reference(s, a, b, expected, magnitude);

  const T padding = static_cast<T>(-77);
  const auto run = [&](auto path) {
    std::vector<T> c(static_cast<size_t>(s.m * s.ldc), padding);
    path(s, a.data(), b.data(), c.data());
    return result_of(s, c, padding);
  };
  const std::vector<T> small = run([](const GemmShape& shape, const T* x, const T* y, T* z) {
    hxcpu::small_gemm(shape, x, y, z);
  });
  const std::vector<T> blas = run([](const GemmShape& shape, const T* x, const T* y, T* z) {
    hxcpu::blas_gemm(shape, x, y, z);
  });
  const std::vector<T> chosen = run([](const GemmShape& shape, const T* x, const T* y, T* z) {
    hxcpu::gemm(shape, x, y, z);
  });
  // Any order of k products and sums is within k units of roundoff of their magnitudes.
  const double bound_factor = 2 * static_cast<double>(s.k + 1) * unit_roundoff<T>();
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    const double bound = bound_factor * static_cast<double>(magnitude[i]) + 1e-30;
    CHECK(std::fabs(static_cast<double>(small[i] - expected[i])) <= bound);
    CHECK(std::fabs(static_cast<double>(blas[i] - expected[i])) <= bound);
    CHECK(std::fabs(static_cast<double>(small[i]) - static_cast<double>(blas[i])) <= 2 * bound);
    CHECK(chosen[i] == (hxcpu::takes_small_path(s) ? small[i] : blas[i]));
  }
}

}  // namespace

TEST_CASE("The small path takes exactly the products at or under both bounds", "[cpu][gemm]") {
  using hxcpu::kSmallGemmMaxExtent;
  using hxcpu::kSmallGemmMaxWork;
  const auto shape = [](int64_t m, int64_t n, int64_t k) { return make_shape(m, n, k, false, false, 0); };
  CHECK(hxcpu::takes_small_path(shape(2, 2, 2)));
  CHECK(hxcpu::takes_small_path(shape(1, 1, 1)));
  // The work bound: 128 = 4 x 4 x 8 takes it, 5 x 5 x 6 = 150 does not.
  REQUIRE(kSmallGemmMaxWork == 128);
  CHECK(hxcpu::takes_small_path(shape(4, 4, 8)));
  CHECK(hxcpu::takes_small_path(shape(8, 16, 1)));
  CHECK_FALSE(hxcpu::takes_small_path(shape(5, 5, 6)));
  CHECK_FALSE(hxcpu::takes_small_path(shape(6, 6, 6)));
  // The extent bound: a product of little work but one long extent goes to BLAS.
  REQUIRE(kSmallGemmMaxExtent == 16);
  CHECK(hxcpu::takes_small_path(shape(1, 1, 16)));
  CHECK_FALSE(hxcpu::takes_small_path(shape(1, 1, 17)));
  CHECK_FALSE(hxcpu::takes_small_path(shape(17, 1, 1)));
  CHECK_FALSE(hxcpu::takes_small_path(shape(1, 10000, 1)));
}

TEMPLATE_TEST_CASE("Both GEMM paths match a triple loop and each other around the threshold",
                   "[cpu][gemm]", float, double) {
  const bool transpose_a = GENERATE(false, true);
  const bool transpose_b = GENERATE(false, true);
  std::mt19937 engine(transpose_a * 2 + transpose_b + 7);
  // Every extent from 1 to 20 appears, on both sides of both bounds (work 128, extent 16).
  std::uniform_int_distribution<int64_t> extent(1, 20);
  for (int trial = 0; trial < 150; ++trial) {
    const int64_t pad = trial % 3 == 0 ? 3 : 0;
    check_paths<TestType>(
        make_shape(extent(engine), extent(engine), extent(engine), transpose_a, transpose_b, pad),
        engine);
  }
  // The shapes with special code: the unrolled 2x2x2, and every row and column tail of the
  // blocked loops (rows in fours, twos, ones; columns in two vectors, one, singles).
  for (const int64_t m : {1, 2, 3, 4, 5, 6, 7, 8}) {
    for (const int64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16}) {
      check_paths<TestType>(make_shape(m, n, 2, transpose_a, transpose_b, 0), engine);
      check_paths<TestType>(make_shape(m, n, 3, transpose_a, transpose_b, 1), engine);
    }
  }
}

TEMPLATE_TEST_CASE("A product of one row or one column is a matrix-vector product that "
                   "overwrites what C held",
                   "[cpu][gemm]", float, double) {
  // A layer at batch 1 (1 x 784 by 784 x 512) takes BLAS's GEMV, which reads the matrix once,
  // where its GEMM packs all of it; C's memory may hold a NaN from earlier use.
  const bool transpose_a = GENERATE(false, true);
  const bool transpose_b = GENERATE(false, true);
  std::mt19937 engine(transpose_a * 2 + transpose_b + 11);
  const int64_t shapes[][3] = {{1, 512, 784}, {1, 10, 512}, {300, 1, 64}, {1, 1, 1000}};
  for (const auto& [m, n, k] : shapes) {
    for (const int64_t pad : {0, 2}) {
      const GemmShape s = make_shape(m, n, k, transpose_a, transpose_b, pad);
      CAPTURE(m, n, k, pad);
      const std::vector<TestType> a =
          random_values<TestType>(static_cast<size_t>(rows_of_a(s) * s.lda), engine);
      const std::vector<TestType> b =
          random_values<TestType>(static_cast<size_t>(rows_of_b(s) * s.ldb), engine);
      std::vector<long double> expected, magnitude;
      reference(s, a, b, expected, magnitude);
      std::vector<TestType> c(static_cast<size_t>(s.m * s.ldc),
                              std::numeric_limits<TestType>::quiet_NaN());
      hxcpu::blas_gemm(s, a.data(), b.data(), c.data());
      const double bound_factor = 2 * static_cast<double>(s.k + 1) * unit_roundoff<TestType>();
      for (int64_t i = 0; i < s.m; ++i) {
        for (int64_t j = 0; j < s.n; ++j) {
          const auto at = static_cast<size_t>(i * s.n + j);
          const double got = static_cast<double>(c[static_cast<size_t>(i * s.ldc + j)]);
          CHECK(std::fabs(got - static_cast<double>(expected[at])) <=
                bound_factor * static_cast<double>(magnitude[at]) + 1e-30);
        }
      }
    }
  }
}

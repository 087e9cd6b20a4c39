// MatMul on the CPU plugin against a triple loop, for every transpose combination, on shapes
// of either GEMM path (the small loops take m * n * k <= 128 with every extent <= 16; see
// plugins/cpu/blas/gemm.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

struct GemmCase {
  int64_t m, k, n;
};

// c[i][j] = sum_p a'[i][p] * b'[p][j], with a' and b' the (optionally transposed) operands as
// stored row-major. Also returns, per element, the sum of |products| for the tolerance.
template <class T>
void reference_matmul(const std::vector<T>& a, const std::vector<T>& b, const GemmCase& shape,
                      bool transpose_a, bool transpose_b, std::vector<double>& c,
                      std::vector<double>& magnitude) {
  c.assign(static_cast<size_t>(shape.m * shape.n), 0.0);
  magnitude.assign(c.size(), 0.0);
  for (int64_t i = 0; i < shape.m; ++i) {
    for (int64_t j = 0; j < shape.n; ++j) {
      for (int64_t p = 0; p < shape.k; ++p) {
        const double x = a[static_cast<size_t>(transpose_a ? p * shape.m + i : i * shape.k + p)];
        const double y = b[static_cast<size_t>(transpose_b ? j * shape.k + p : p * shape.n + j)];
        c[static_cast<size_t>(i * shape.n + j)] += x * y;
        magnitude[static_cast<size_t>(i * shape.n + j)] += std::fabs(x * y);
      }
    }
  }
}

template <class T>
double relative_epsilon();
template <>
double relative_epsilon<float>() {
  return 1e-6;
}
template <>
double relative_epsilon<double>() {
  return 1e-14;
}

}  // namespace

TEMPLATE_TEST_CASE("MatMul matches a triple loop for every shape and transpose", "[cpu][matmul]",
                   float, double) {
  using T = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const GemmCase shape = GENERATE(GemmCase{1, 1, 1}, GemmCase{2, 2, 2}, GemmCase{2, 3, 4},
                                  GemmCase{5, 1, 7}, GemmCase{17, 33, 9}, GemmCase{64, 48, 80},
                                  GemmCase{4, 8, 4}, GemmCase{5, 6, 5}, GemmCase{16, 1, 8},
                                  GemmCase{1, 1, 17}, GemmCase{0, 3, 2}, GemmCase{3, 2, 0},
                                  GemmCase{3, 0, 2});
  const bool transpose_a = GENERATE(false, true);
  const bool transpose_b = GENERATE(false, true);
  CAPTURE(shape.m, shape.k, shape.n, transpose_a, transpose_b);

  const std::vector<T> a = cpu_test::random_values<T>(static_cast<size_t>(shape.m * shape.k), 1);
  const std::vector<T> b = cpu_test::random_values<T>(static_cast<size_t>(shape.k * shape.n), 2);
  const hxrt::Shape a_shape = transpose_a ? hxrt::Shape{shape.k, shape.m}
                                          : hxrt::Shape{shape.m, shape.k};
  const hxrt::Shape b_shape = transpose_b ? hxrt::Shape{shape.n, shape.k}
                                          : hxrt::Shape{shape.k, shape.n};
  const hxrt::Tensor c =
      rt.execute("MatMul", {rt.tensor<T>(a_shape, a), rt.tensor<T>(b_shape, b)},
                 {{"transpose_a", transpose_a}, {"transpose_b", transpose_b}});

  REQUIRE(c.dtype() == hxrt::dtype_of<T>());
  REQUIRE(c.shape() == hxrt::Shape{shape.m, shape.n});
  std::vector<double> expected;
  std::vector<double> magnitude;
  reference_matmul(a, b, shape, transpose_a, transpose_b, expected, magnitude);
  const std::vector<T> actual = c.to_vector<T>();
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    REQUIRE(std::fabs(actual[i] - expected[i]) <=
            relative_epsilon<T>() * (magnitude[i] + 1) * static_cast<double>(shape.k + 1));
  }
}

TEST_CASE("MatMul with an empty inner dimension writes zeros", "[cpu][matmul]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor c = rt.execute(
      "MatMul", {rt.tensor<float>({3, 0}, {}), rt.tensor<float>({0, 2}, {})});
  REQUIRE(c.shape() == hxrt::Shape{3, 2});
  REQUIRE(c.to_vector<float>() == std::vector<float>(6, 0.0f));
}

TEST_CASE("MatMul of the guide's 2x3 by 3x2 example", "[cpu][matmul]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor c = rt.execute("MatMul", {rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
                                               rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6})});
  REQUIRE(c.to_vector<float>() == std::vector<float>{22, 28, 49, 64});
}

// Stacks large enough for oneDNN's matmul (plugins/cpu/dnnl/dnnl_matmul.hpp), with batch axes
// that broadcast, against a loop over the batches.
TEST_CASE("MatMul of stacks with broadcast batch axes matches a loop per batch",
          "[cpu][matmul]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  struct Stack {
    hxrt::Shape a, b, c;
  };
  const std::vector<Stack> stacks = {
      {{2, 3, 20, 30}, {3, 30, 40}, {2, 3, 20, 40}},
      {{5, 20, 30}, {30, 24}, {5, 20, 24}},
      {{1, 20, 30}, {4, 30, 32}, {4, 20, 32}},
      {{4, 1, 20, 30}, {1, 2, 30, 16}, {4, 2, 20, 16}},
  };
  for (const Stack& stack : stacks) {
    CAPTURE(stack.a.to_string(), stack.b.to_string());
    const std::vector<float> a =
        cpu_test::random_values<float>(static_cast<size_t>(stack.a.num_elements()), 3);
    const std::vector<float> b =
        cpu_test::random_values<float>(static_cast<size_t>(stack.b.num_elements()), 4);
    const hxrt::Tensor c =
        rt.execute("MatMul", {rt.tensor<float>(stack.a, a), rt.tensor<float>(stack.b, b)});
    REQUIRE(c.shape() == stack.c);
    const std::vector<float> got = c.to_vector<float>();
    const int rank = stack.c.rank();
    const int64_t m = stack.c[rank - 2];
    const int64_t n = stack.c[rank - 1];
    const int64_t k = stack.a[stack.a.rank() - 1];
    // The batch index of c, and each operand's batch at it (an extent of 1 repeats).
    const auto batch_of = [&](const hxrt::Shape& operand, int64_t c_batch) {
      int64_t index = 0;
      int64_t rest = c_batch;
      int64_t stride = 1;
      for (int axis = rank - 3; axis >= 0; --axis) {
        const int64_t at = rest % stack.c[axis];
        rest /= stack.c[axis];
        const int own = axis - (rank - operand.rank());
        if (own < 0) continue;
        index += (operand[own] == 1 ? 0 : at) * stride;
        stride *= operand[own];
      }
      return index;
    };
    const int64_t batches = stack.c.num_elements() / (m * n);
    for (int64_t batch = 0; batch < batches; ++batch) {
      const float* a_matrix = a.data() + batch_of(stack.a, batch) * m * k;
      const float* b_matrix = b.data() + batch_of(stack.b, batch) * k * n;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          double magnitude = 0;
          for (int64_t p = 0; p < k; ++p) {
            const double product = static_cast<double>(a_matrix[i * k + p]) * b_matrix[p * n + j];
            sum += product;
            magnitude += std::fabs(product);
          }
          const float value = got[static_cast<size_t>((batch * m + i) * n + j)];
          REQUIRE(std::fabs(value - sum) <= 1e-6 * (magnitude + 1) * static_cast<double>(k + 1));
        }
      }
    }
  }
}

// The CPU plugin's Einsum off the GEMM path (one operand, diagonals, a letter summed within one
// operand, the ellipsis) against values worked by hand; the reference cases check the rest.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

hxrt::Attrs einsum_equation(const char* text) { return {{"equation", std::string(text)}}; }

}  // namespace

TEST_CASE("Einsum of one operand transposes, sums and takes diagonals on the CPU", "[cpu]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(rt.execute("Einsum", {x}, einsum_equation("ij->ji")).to_vector<float>() ==
        std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(rt.execute("Einsum", {x}, einsum_equation("ij->i")).to_vector<float>() ==
        std::vector<float>{6, 15});
  CHECK(rt.execute("Einsum", {x}, einsum_equation("ij->j")).to_vector<float>() ==
        std::vector<float>{5, 7, 9});
  CHECK(rt.execute("Einsum", {x}, einsum_equation("ij->")).to_vector<float>() ==
        std::vector<float>{21});
  const hxrt::Tensor square = rt.tensor<double>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(rt.execute("Einsum", {square}, einsum_equation("ii->i")).to_vector<double>() ==
        std::vector<double>{1, 5, 9});
  CHECK(rt.execute("Einsum", {square}, einsum_equation("ii")).to_vector<double>() ==
        std::vector<double>{15});
  // ONNX's test_einsum_batch_diagonal's form: each matrix's diagonal.
  const hxrt::Tensor stack = rt.tensor<float>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(rt.execute("Einsum", {stack}, einsum_equation("...ii ->...i")).to_vector<float>() ==
        std::vector<float>{1, 4, 5, 8});
}

TEST_CASE("Einsum of two operands off the GEMM path on the CPU", "[cpu]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4});
  const hxrt::Tensor b = rt.tensor<float>({2, 2}, {5, 6, 7, 8});
  // k is in b only and summed: y[i] = sum_j a[i][j] * (b[j][0] + b[j][1]).
  CHECK(rt.execute("Einsum", {a, b}, einsum_equation("ij,jk->i")).to_vector<float>() ==
        std::vector<float>{1 * 11 + 2 * 15, 3 * 11 + 4 * 15});
  // Element-wise: i and j in all three terms.
  CHECK(rt.execute("Einsum", {a, b}, einsum_equation("ij,ij->ij")).to_vector<float>() ==
        std::vector<float>{5, 12, 21, 32});
  // The GEMM path, through an ellipsis.
  CHECK(rt.execute("Einsum", {a, b}, einsum_equation("...j,jk->...k")).to_vector<float>() ==
        std::vector<float>{19, 22, 43, 50});
}

// Cases of MatMul.
#include <optional>

#include "reference/case_builders.hpp"
#include "reference/matmul.hpp"

namespace hxrt_conformance {
namespace {

struct MatMulCall {
  int64_t m, k, n;
  // Absent attributes exercise the op's defaults (false).
  std::optional<bool> transpose_a, transpose_b;
};

}  // namespace

std::vector<KernelCase> matmul_cases(hx_dtype dtype, RandomInputs& random) {
  const std::vector<MatMulCall> calls = {
      {3, 4, 5, false, false},  {3, 4, 5, true, false},  {3, 4, 5, false, true},
      {3, 4, 5, true, true},    {2, 7, 3, {}, {}},       {1, 1, 1, {}, {}},
      {1, 6, 1, {}, true},      {5, 1, 4, true, {}},     {0, 3, 4, {}, {}},
      {3, 0, 4, {}, {}},        {4, 3, 0, false, false}, {65, 33, 17, {}, {}},
      {17, 33, 65, true, true},
  };
  std::vector<KernelCase> cases;
  for (const MatMulCall& call : calls) {
    const bool transpose_a = call.transpose_a.value_or(false);
    const bool transpose_b = call.transpose_b.value_or(false);
    HostTensor a =
        random.tensor(dtype, transpose_a ? Shape{call.k, call.m} : Shape{call.m, call.k});
    HostTensor b =
        random.tensor(dtype, transpose_b ? Shape{call.n, call.k} : Shape{call.k, call.n});
    KernelAttrs attrs;
    if (call.transpose_a) attrs["transpose_a"] = *call.transpose_a;
    if (call.transpose_b) attrs["transpose_b"] = *call.transpose_b;
    HostTensor expected = matmul_reference(a, b, transpose_a, transpose_b);
    cases.push_back({{std::move(a), std::move(b)},
                     std::move(attrs),
                     std::move(expected),
                     reduction_tolerance(dtype, call.k)});
  }
  return cases;
}

}  // namespace hxrt_conformance

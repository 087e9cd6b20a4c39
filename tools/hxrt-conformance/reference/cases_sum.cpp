// Cases of Sum.
#include <optional>

#include "reference/case_builders.hpp"
#include "reference/sum.hpp"

namespace hxrt_conformance {
namespace {

struct SumCall {
  Shape shape;
  std::optional<std::vector<int64_t>> axes;  // absent: every axis
  std::optional<bool> keep_dims;             // absent: the default, false
};

}  // namespace

std::vector<KernelCase> sum_cases(hx_dtype dtype, RandomInputs& random) {
  const std::vector<SumCall> calls = {
      {{3, 4, 5}, {}, {}},
      {{3, 4, 5}, std::vector<int64_t>{1}, {}},
      {{3, 4, 5}, std::vector<int64_t>{0, 2}, true},
      {{3, 4, 5}, std::vector<int64_t>{-1}, false},
      {{3, 4, 5}, std::vector<int64_t>{2, 0}, {}},
      {{2, 3, 2, 3}, std::vector<int64_t>{1, 3}, true},
      {{2, 3}, std::vector<int64_t>{}, {}},
      {{2, 3}, {}, true},
      {{}, {}, {}},
      {{}, std::vector<int64_t>{}, true},
      {{1}, {}, {}},
      {{0, 3}, std::vector<int64_t>{0}, {}},
      {{4, 0}, std::vector<int64_t>{0}, true},
      {{0}, {}, {}},
      {{33, 17}, std::vector<int64_t>{0}, {}},
  };
  std::vector<KernelCase> cases;
  for (const SumCall& call : calls) {
    HostTensor x = random.tensor(dtype, call.shape);
    KernelAttrs attrs;
    if (call.axes) attrs["axes"] = *call.axes;
    if (call.keep_dims) attrs["keep_dims"] = *call.keep_dims;
    HostTensor expected = sum_reference(x, call.axes, call.keep_dims.value_or(false));
    cases.push_back({{std::move(x)},
                     std::move(attrs),
                     std::move(expected),
                     reduction_tolerance(dtype, sum_length(call.shape, call.axes))});
  }
  return cases;
}

}  // namespace hxrt_conformance

// The CPU plugin's indexing kernels refuse an index out of range with a message naming it,
// instead of reading or writing outside a tensor.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cpu_test_support.hpp"

namespace {

std::string failure(hxrt::Runtime& rt, const std::string& op,
                    const std::vector<hxrt::Tensor>& inputs, const hxrt::Attrs& attrs = {}) {
  try {
    rt.execute(op, inputs, attrs);
  } catch (const hxrt::Error& error) {
    CHECK(error.code() == hxrt::StatusCode::kInvalidArgument);
    return error.what();
  }
  FAIL(op << " accepted an index out of range");
  return {};
}

}  // namespace

TEMPLATE_TEST_CASE("An index out of range is an InvalidArgument naming it", "[cpu][indexing]",
                   int32_t, int64_t) {
  using Index = TestType;
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor data = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  const Index bad = GENERATE(Index{3}, Index{-4}, Index{1000000});
  CAPTURE(bad);
  const std::string index = std::to_string(bad);
  CHECK_THAT(failure(rt, "Gather", {data, rt.tensor<Index>({2}, {0, bad})}),
             Catch::Contains("Gather: index " + index + " (element 1 of indices) is out of "
                             "range for axis 0 of extent 3"));
  const hxrt::Tensor indices = rt.tensor<Index>({1, 2}, {bad, 0});
  CHECK_THAT(failure(rt, "GatherElements", {data, indices}),
             Catch::Contains("GatherElements: index " + index));
  CHECK_THAT(failure(rt, "ScatterElements", {data, indices, rt.tensor<float>({1, 2}, {7, 8})}),
             Catch::Contains("ScatterElements: index " + index));
}

TEST_CASE("Gather counts negative indices from the end", "[cpu][indexing]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor data = rt.tensor<int64_t>({4}, {10, 11, 12, 13});
  const hxrt::Tensor out = rt.execute("Gather", {data, rt.tensor<int32_t>({3}, {-1, 0, -4})});
  CHECK(out.to_vector<int64_t>() == std::vector<int64_t>{13, 10, 10});
}

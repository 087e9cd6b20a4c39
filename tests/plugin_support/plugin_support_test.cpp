// The plugins' shared size helpers (plugins/support): counts and byte sizes of views, which a
// kernel trusts to bound its loops, must not overflow whatever shape reaches them.
#include <catch2/catch.hpp>

#include <hxplugin/kernel_call.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

hx_tensor_view view_of(hx_dtype dtype, const std::vector<int64_t>& shape) {
  hx_tensor_view view{};
  view.struct_size = HX_TENSOR_VIEW_STRUCT_SIZE;
  view.dtype = dtype;
  view.rank = static_cast<int32_t>(shape.size());
  view.shape = shape.data();
  return view;
}

constexpr int64_t kTwoTo62 = int64_t{1} << 62;

}  // namespace

TEST_CASE("element_count multiplies the extents, and says -1 for a shape no core passes") {
  using hxplugin::element_count;
  const std::vector<int64_t> scalar;
  const std::vector<int64_t> matrix = {2, 3};
  const std::vector<int64_t> huge_but_empty = {kTwoTo62, 0, 1};
  const std::vector<int64_t> overflowing = {kTwoTo62, 4};
  const std::vector<int64_t> overflowing_and_empty = {0, kTwoTo62, 4};
  const std::vector<int64_t> negative = {2, -1};
  CHECK(element_count(view_of(HX_DTYPE_F32, scalar)) == 1);
  CHECK(element_count(view_of(HX_DTYPE_F32, matrix)) == 6);
  CHECK(element_count(view_of(HX_DTYPE_F32, huge_but_empty)) == 0);
  CHECK(element_count(view_of(HX_DTYPE_F32, overflowing)) == -1);
  CHECK(element_count(view_of(HX_DTYPE_F32, overflowing_and_empty)) == -1);
  CHECK(element_count(view_of(HX_DTYPE_F32, negative)) == -1);
}

TEST_CASE("byte_count refuses sizes that wrap a size_t") {
  using hxplugin::byte_count;
  size_t bytes = 1;
  const std::vector<int64_t> matrix = {2, 3};
  REQUIRE(byte_count(view_of(HX_DTYPE_F64, matrix), &bytes));
  CHECK(bytes == 48);
  const std::vector<int64_t> huge_but_empty = {kTwoTo62, 0};
  REQUIRE(byte_count(view_of(HX_DTYPE_F32, huge_but_empty), &bytes));
  CHECK(bytes == 0);
  // 2^62 float32 elements are 2^64 bytes: 0 in a size_t product.
  const std::vector<int64_t> wrapping = {kTwoTo62};
  CHECK_FALSE(byte_count(view_of(HX_DTYPE_F32, wrapping), &bytes));
  CHECK(byte_count(view_of(HX_DTYPE_BOOL, wrapping), &bytes));
  const std::vector<int64_t> negative = {-4};
  CHECK_FALSE(byte_count(view_of(HX_DTYPE_BOOL, negative), &bytes));
}

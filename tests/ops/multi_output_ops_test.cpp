// The ops of several outputs: LayerNormalization's statistics, their shapes and the calls
// their inference refuses.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "builtin_op_calls.hpp"
#include "hxrt/error.hpp"
#include "ops/op_schema.hpp"

using Catch::Contains;
using hxrt::Attrs;
using hxrt::DType;
using hxrt::Shape;
using hxrt::detail::TensorMeta;
using hxrt_test_ops::f32;
using hxrt_test_ops::infer_all;
using hxrt_test_ops::infer_error;
using hxrt_test_ops::meta;

namespace {

std::vector<Shape> shapes_of(const std::vector<TensorMeta>& outputs) {
  std::vector<Shape> shapes;
  for (const TensorMeta& output : outputs) shapes.push_back(output.shape);
  return shapes;
}


}  // namespace

TEST_CASE("LayerNormalization gives Mean and InvStdDev of X's shape with the normalized axes 1") {
  const std::vector<TensorMeta> outputs =
      infer_all("LayerNormalization", {meta(DType::kF16, {2, 3, 4}), meta(DType::kF16, {4})},
                {{"axis", int64_t{-2}}});
  REQUIRE(outputs.size() == 3);
  CHECK(shapes_of(outputs) == std::vector<Shape>{{2, 3, 4}, {2, 1, 1}, {2, 1, 1}});
  CHECK(outputs[0].dtype == DType::kF16);
  CHECK(outputs[1].dtype == DType::kF32);  // stash_type 1, float, by default
  CHECK(outputs[2].dtype == DType::kF32);
  const std::vector<TensorMeta> bf16 = infer_all(
      "LayerNormalization", {f32({5}), f32({5})}, {{"stash_type", int64_t{16}}});
  CHECK(shapes_of(bf16) == std::vector<Shape>{{5}, {1}, {1}});
  CHECK(bf16[1].dtype == DType::kBF16);
  CHECK_THAT(infer_error("LayerNormalization", {f32({5}), f32({5})},
                         {{"stash_type", int64_t{11}}}),
             Contains("LayerNormalization: attribute 'stash_type' is 11; it is ONNX's element "
                      "type of Mean and InvStdDev: 1 (float) or 16 (bfloat16)"));
}

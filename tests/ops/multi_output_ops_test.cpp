// The ops of several outputs: LayerNormalization's statistics, Split (whose calls decide how
// many outputs they have) and TopK, their shapes and the calls their inference refuses.
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
using hxrt_test_ops::builtin_schema;
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

using Ints = std::vector<int64_t>;

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

TEST_CASE("Split makes as many outputs as split lists, or num_outputs, or one") {
  const auto& schema = builtin_schema("Split");
  CHECK(hxrt::detail::num_outputs_of(schema, {}, 1) == 1);
  CHECK(hxrt::detail::num_outputs_of(schema, {{"num_outputs", int64_t{5}}}, 1) == 5);
  CHECK(hxrt::detail::num_outputs_of(schema, {{"split", Ints{1, 2}}}, 1) == 2);
  CHECK(shapes_of(infer_all("Split", {f32({4, 3})})) == std::vector<Shape>{{4, 3}});
  CHECK(shapes_of(infer_all("Split", {f32({2, 7})},
                            {{"axis", int64_t{-1}}, {"split", Ints{2, 0, 5}}})) ==
        std::vector<Shape>{{2, 2}, {2, 0}, {2, 5}});
  // ONNX 18: ceil(extent / num_outputs) each, the last smaller, or empty.
  CHECK(shapes_of(infer_all("Split", {f32({10})}, {{"num_outputs", int64_t{3}}})) ==
        std::vector<Shape>{{4}, {4}, {2}});
  CHECK(shapes_of(infer_all("Split", {f32({9, 2})}, {{"num_outputs", int64_t{4}}})) ==
        std::vector<Shape>{{3, 2}, {3, 2}, {3, 2}, {0, 2}});
  const std::vector<TensorMeta> ints =
      infer_all("Split", {meta(DType::kI64, {6})}, {{"num_outputs", int64_t{2}}});
  CHECK(ints[1].dtype == DType::kI64);
}

TEST_CASE("Split refuses what it cannot cut, naming the attribute and what to do") {
  CHECK_THAT(infer_error("Split", {f32({2, 5})}, {{"axis", int64_t{1}}, {"split", Ints{2, 2}}}),
             Contains("Split: attribute 'split' [2, 2] adds up to 4, but axis 1 has extent 5; "
                      "the sizes must add up to it"));
  CHECK_THAT(infer_error("Split", {f32({5})}, {{"split", Ints{6, -1}}}),
             Contains("attribute 'split' [6, -1] has a negative size"));
  CHECK_THAT(infer_error("Split", {f32({2, 5})}, {{"axis", int64_t{2}}}),
             Contains("Split: attribute 'axis' names axis 2, out of range for rank 2"));
  CHECK_THAT(infer_error("Split", {f32({})}),
             Contains("Split: input is a scalar; it needs an axis to split along"));
  CHECK_THAT(infer_error("Split", {f32({5})}, {{"num_outputs", int64_t{4}}}),
             Contains("Split: axis 0 of extent 5 cannot be cut into 4 parts of 2 (ceil(5 / 4)) "
                      "and a smaller last one; list the sizes in 'split' instead"));
  CHECK_THAT(infer_error("Split", {f32({5})}, {{"split", Ints{2, 3}}, {"num_outputs", int64_t{3}}}),
             Contains("Split: attribute 'split' [2, 3] lists 2 parts but 'num_outputs' is 3"));
  CHECK_THAT(infer_error("Split", {f32({5})}, {{"num_outputs", int64_t{0}}}),
             Contains("Split: attribute 'num_outputs' asks for 0 parts; a split makes at least "
                      "one"));
  CHECK_THAT(infer_error("Split", {f32({5})}, {{"split", Ints{}}}),
             Contains("Split: attribute 'split' asks for 0 parts"));
  CHECK_THAT(infer_error("Split", {f32({100})}, {{"num_outputs", int64_t{65}}}),
             Contains("Split: attribute 'num_outputs' asks for 65 parts; hxrt's ops have at "
                      "most 64 outputs"));
  CHECK_THAT(infer_error("Split", {f32({5})}, {{"num_outputs", 2.0}}),
             Contains("Split: attribute 'num_outputs'"));
}

TEST_CASE("TopK gives k values of X's dtype and their int64 indices along the axis") {
  const std::vector<TensorMeta> outputs =
      infer_all("TopK", {meta(DType::kI32, {3, 5, 2})}, {{"k", int64_t{4}}, {"axis", int64_t{1}}});
  CHECK(shapes_of(outputs) == std::vector<Shape>{{3, 4, 2}, {3, 4, 2}});
  CHECK(outputs[0].dtype == DType::kI32);
  CHECK(outputs[1].dtype == DType::kI64);
  CHECK(shapes_of(infer_all("TopK", {f32({3, 5})}, {{"k", int64_t{0}}})) ==
        std::vector<Shape>{{3, 0}, {3, 0}});
}

TEST_CASE("TopK refuses a k the axis does not hold, a bad axis and bad flags") {
  CHECK_THAT(infer_error("TopK", {f32({3, 5})}, {{"k", int64_t{6}}}),
             Contains("TopK: attribute 'k' is 6, but axis 1 of X [3, 5] has 5 elements; k is "
                      "from 0 to that"));
  CHECK_THAT(infer_error("TopK", {f32({3, 5})}, {{"k", int64_t{-1}}}),
             Contains("TopK: attribute 'k' is -1"));
  CHECK_THAT(infer_error("TopK", {f32({3, 5})}, {{"k", int64_t{1}}, {"axis", int64_t{-3}}}),
             Contains("TopK: attribute 'axis' names axis -3, out of range for rank 2"));
  CHECK_THAT(infer_error("TopK", {f32({3, 5})}, {{"k", int64_t{1}}, {"largest", int64_t{2}}}),
             Contains("TopK: attribute 'largest' is 2; it is 0 or 1"));
  CHECK_THAT(infer_error("TopK", {f32({3, 5})}),
             Contains("TopK: missing required attribute 'k'"));
  CHECK_THAT(infer_error("TopK", {meta(DType::kBool, {3})}, {{"k", int64_t{1}}}),
             Contains("TopK: input 0 has dtype bool"));
}

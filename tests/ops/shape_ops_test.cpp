// Shape inference of the shape, indexing and layout families: the rules their reference cases
// do not reach (how a shape is resolved, what is refused and what the message says).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "builtin_op_calls.hpp"

using hxrt::DType;
using hxrt::Shape;
using hxrt_test_ops::f32;
using hxrt_test_ops::infer;
using hxrt_test_ops::infer_error;
using hxrt_test_ops::meta;
using Catch::Contains;
using Ints = std::vector<int64_t>;

TEST_CASE("Reshape resolves 0 and -1, and refuses what leaves the count open") {
  CHECK(infer("Reshape", {f32({2, 3, 4})}, {{"shape", Ints{0, -1, 2}}}).shape == Shape{2, 6, 2});
  CHECK(infer("Reshape", {f32({0, 4})}, {{"shape", Ints{-1, 2}}}).shape == Shape{0, 2});
  CHECK_THAT(infer_error("Reshape", {f32({2, 3})}, {{"shape", Ints{-1, -1}}}),
             Contains("more than one -1"));
  CHECK_THAT(infer_error("Reshape", {f32({2, 3})}, {{"shape", Ints{4, -1}}}),
             Contains("cannot infer the -1"));
  CHECK_THAT(infer_error("Reshape", {f32({2, 3})}, {{"shape", Ints{0, -1}}, {"allowzero", true}}),
             Contains("both -1 and 0"));
  CHECK_THAT(infer_error("Reshape", {f32({2, 3})}, {{"shape", Ints{7}}}),
             Contains("cannot reshape [2, 3] (6 elements) to [7]"));
  const int64_t huge = int64_t{1} << 40;
  CHECK_THAT(infer_error("Reshape", {f32({2, 3})}, {{"shape", Ints{huge, huge, -1}}}),
             Contains("cannot infer the -1"));
}

TEST_CASE("Squeeze, Unsqueeze and Transpose name what they refuse") {
  CHECK_THAT(infer_error("Squeeze", {f32({2, 1})}, {{"axes", Ints{0}}}),
             Contains("axis 0 of input [2, 1] has extent 2"));
  CHECK_THAT(infer_error("Unsqueeze", {f32({2})}, {{"axes", Ints{0, -3}}}),
             Contains("attribute 'axes' [0, -3] names axis 0 twice"));
  CHECK_THAT(infer_error("Unsqueeze", {f32({2})}, {{"axes", Ints{5}}}),
             Contains("out of range for rank 2"));
  CHECK_THAT(infer_error("Transpose", {f32({2, 3})}, {{"perm", Ints{0, 0}}}),
             Contains("'perm' [0, 0] is not a permutation"));
}

TEST_CASE("Expand broadcasts both ways, as ONNX's Expand does") {
  CHECK(infer("Expand", {f32({3, 1})}, {{"shape", Ints{2, 1, 5}}}).shape == Shape{2, 3, 5});
  CHECK(infer("Expand", {f32({4, 5})}, {{"shape", Ints{1}}}).shape == Shape{4, 5});
  CHECK_THAT(infer_error("Expand", {f32({3})}, {{"shape", Ints{4}}}),
             Contains("could not be broadcast"));
}

TEST_CASE("Slice clamps as ONNX says, whatever the values") {
  const int64_t most = std::numeric_limits<int64_t>::max();
  const int64_t least = std::numeric_limits<int64_t>::min();
  const auto slice = [](const Ints& starts, const Ints& ends, const Ints& steps) {
    return infer("Slice", {f32({10})}, {{"starts", starts}, {"ends", ends}, {"steps", steps}})
        .shape;
  };
  CHECK(slice({least}, {most}, {1}) == Shape{10});
  CHECK(slice({most}, {least}, {-1}) == Shape{10});
  CHECK(slice({most}, {least}, {least}) == Shape{1});
  CHECK(slice({2}, {most}, {most}) == Shape{1});
  CHECK(slice({-1}, {-11}, {-4}) == Shape{3});  // 9, 5, 1
  CHECK(slice({5}, {2}, {1}) == Shape{0});
  CHECK_THAT(infer_error("Slice", {f32({10})}, {{"starts", Ints{0}}, {"ends", Ints{1}},
                                                {"steps", Ints{0}}}),
             Contains("has a 0"));
  CHECK_THAT(infer_error("Slice", {f32({10})}, {{"starts", Ints{0, 1}}, {"ends", Ints{1}}}),
             Contains("must have one length"));
}

TEST_CASE("The indexing ops take int32 or int64 indices only, of the shapes they need") {
  CHECK(infer("Gather", {f32({5, 4}), meta(DType::kI32, {2, 3})}, {{"axis", int64_t{-1}}})
            .shape == Shape{5, 2, 3});
  CHECK_THAT(infer_error("Gather", {f32({5}), f32({2})}), Contains("indices are int32 or int64"));
  CHECK_THAT(infer_error("Gather", {f32({}), meta(DType::kI64, {2})}),
             Contains("the tensor is a scalar"));
  CHECK_THAT(infer_error("GatherElements", {f32({2, 3}), meta(DType::kI64, {2, 4})},
                         {{"axis", int64_t{0}}}),
             Contains("extents no larger than data's"));
  CHECK_THAT(infer_error("ScatterElements",
                         {f32({2, 3}), meta(DType::kI64, {1, 3}), f32({1, 2})}),
             Contains("the shape of indices [1, 3]"));
  CHECK_THAT(infer_error("ScatterElements",
                         {f32({2, 3}), meta(DType::kI64, {1, 3}), f32({1, 3})},
                         {{"reduction", std::string("sum")}}),
             Contains("\"sum\""));
  CHECK_THAT(infer_error("Concat", {f32({2, 3}), f32({3, 3})}, {{"axis", int64_t{1}}}),
             Contains("equal extents on every axis but axis 1"));
}

TEST_CASE("Pad, Tile and the block ops refuse shapes they cannot make") {
  CHECK(infer("Pad", {f32({3, 4})}, {{"pads", Ints{-3, 0, 0, 1}}}).shape == Shape{0, 5});
  CHECK_THAT(infer_error("Pad", {f32({3, 4})}, {{"pads", Ints{-4, 0, 0, 0}}}),
             Contains("no valid extent"));
  CHECK_THAT(infer_error("Pad", {f32({0, 4})}, {{"pads", Ints{1, 0, 0, 0}},
                                                {"mode", std::string("edge")}}),
             Contains("only mode \"constant\""));
  CHECK_THAT(infer_error("Pad", {f32({3})}, {{"pads", Ints{1}}}), Contains("2 per padded axis"));
  CHECK_THAT(infer_error("Tile", {f32({3})}, {{"repeats", Ints{-1}}}),
             Contains("repeats are >= 0"));
  CHECK_THAT(infer_error("DepthToSpace", {f32({1, 6, 2, 2})}, {{"blocksize", int64_t{2}}}),
             Contains("not a multiple of blocksize^2 = 4"));
  CHECK_THAT(infer_error("SpaceToDepth", {f32({1, 1, 3, 4})}, {{"blocksize", int64_t{2}}}),
             Contains("not both multiples of blocksize 2"));
}

TEST_CASE("Shape clamps start and end, and Range counts like ONNX's") {
  CHECK(infer("Shape", {f32({2, 3, 4})}, {{"start", int64_t{-5}}, {"end", int64_t{2}}}).shape ==
        Shape{2});
  CHECK(infer("Shape", {f32({2, 3, 4})}).dtype == DType::kI64);
  CHECK(infer("Size", {meta(DType::kBool, {2, 3})}).shape == Shape{});
  const hxrt::Attrs range{{"start", 1.0}, {"limit", 2.0}, {"delta", 0.3}, {"dtype", DType::kF64}};
  CHECK(infer("Range", {}, range).shape == Shape{4});
  CHECK_THAT(infer_error("Range", {}, {{"start", 1.0}, {"limit", 2.0}, {"delta", 0.0}}),
             Contains("'delta' is 0"));
  CHECK_THAT(infer_error("Range", {}, {{"start", 1.0}, {"limit", 2.0}, {"delta", 1.0},
                                       {"dtype", DType::kBool}}),
             Contains("Range makes numbers"));
}

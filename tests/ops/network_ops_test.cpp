// Shape inference of the network ops (Gemm, Conv, ConvTranspose, the pools, the
// normalizations): ONNX's output sizes, and the messages for calls that cannot be made.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "builtin_op_calls.hpp"

using Catch::Contains;
using Catch::Equals;
using hxrt::Attrs;
using hxrt::DType;
using hxrt::Shape;
using hxrt_test_ops::f32;
using hxrt_test_ops::infer;
using hxrt_test_ops::infer_all;
using hxrt_test_ops::infer_error;
using hxrt_test_ops::meta;
using Ints = std::vector<int64_t>;

TEST_CASE("Gemm: Y is [M, N], and C broadcasts one way") {
  CHECK(infer("Gemm", {f32({2, 3}), f32({3, 4})}).shape == Shape{2, 4});
  CHECK(infer("Gemm", {f32({3, 2}), f32({4, 3}), f32({4})},
              {{"transA", int64_t{1}}, {"transB", int64_t{1}}})
            .shape == Shape{2, 4});
  CHECK_THAT(infer_error("Gemm", {f32({2, 3}), f32({3, 4}), f32({3, 4})}),
             Contains("input C has shape [3, 4], which does not broadcast to the product's "
                      "shape [2, 4]"));
  CHECK_THAT(infer_error("Gemm", {f32({2, 3}), f32({3, 4})}, {{"transA", int64_t{2}}}),
             Contains("attribute 'transA' is 2"));
  CHECK_THAT(infer_error("Gemm", {meta(DType::kI32, {2, 2}), meta(DType::kI32, {2, 2})}),
             Contains("input 0 has dtype int32"));
}

TEST_CASE("Conv: ONNX's output sizes for pads, strides, dilations and auto_pad") {
  CHECK(infer("Conv", {f32({1, 3, 7, 7}), f32({8, 3, 3, 3})}).shape == Shape{1, 8, 5, 5});
  CHECK(infer("Conv", {f32({1, 3, 7, 7}), f32({8, 3, 3, 3})},
              {{"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}})
            .shape == Shape{1, 8, 4, 4});
  CHECK(infer("Conv", {f32({1, 3, 9, 9}), f32({8, 3, 3, 3})}, {{"dilations", Ints{2, 3}}})
            .shape == Shape{1, 8, 5, 3});
  CHECK(infer("Conv", {f32({1, 4, 7, 8}), f32({6, 2, 3, 3})},
              {{"group", int64_t{2}}, {"auto_pad", std::string("SAME_UPPER")},
               {"strides", Ints{2, 3}}})
            .shape == Shape{1, 6, 4, 3});
  CHECK(infer("Conv", {f32({2, 1, 10}), f32({1, 1, 4})}, {{"auto_pad", std::string("VALID")}})
            .shape == Shape{2, 1, 7});
  CHECK(infer("Conv", {f32({1, 1, 3, 3, 3}), f32({2, 1, 2, 2, 2}), f32({2})}).shape ==
        Shape{1, 2, 2, 2, 2});
}

TEST_CASE("Conv: bad windows are refused with what to change") {
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 2, 2}), f32({8, 3, 3, 3})}),
             Equals("Conv: on spatial axis 0 the window spans 3 elements (kernel 3, dilation 1) "
                    "but the padded input has 2; pad more or use a smaller kernel"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"pads", Ints{1, 1}}}),
             Contains("attribute 'pads' has 2 values; it needs 4"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"strides", Ints{1, 0}}}),
             Contains("attribute 'strides' is [1, 0]; each value must be at least 1"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"pads", Ints{0, 0, -1, 0}}}),
             Contains("each value must be at least 0"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"auto_pad", std::string("SAME")}}),
             Contains("attribute 'auto_pad' is \"SAME\""));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"auto_pad", std::string("VALID")}, {"pads", Ints{1, 1, 1, 1}}}),
             Contains("are both given"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"kernel_shape", Ints{2, 2}}}),
             Contains("but the weights' kernel is [3, 3]"));
  CHECK_THAT(infer_error("Conv", {f32({1, 4, 5, 5}), f32({8, 3, 3, 3})},
                         {{"group", int64_t{2}}}),
             Contains("X's channels must be W's second extent times group"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3})},
                         {{"dilations", Ints{int64_t{1} << 62, 1}}}),
             Contains("overflow int64 on spatial axis 0"));
  CHECK_THAT(infer_error("Conv", {f32({1, 3, 5, 5}), f32({8, 3, 3, 3}), f32({3})}),
             Contains("input B has shape [3]; the bias is [M] = [8]"));
}

TEST_CASE("ConvTranspose: ONNX's output sizes") {
  CHECK(infer("ConvTranspose", {f32({1, 2, 3, 3}), f32({2, 4, 3, 3})},
              {{"strides", Ints{2, 2}}})
            .shape == Shape{1, 4, 7, 7});
  CHECK(infer("ConvTranspose", {f32({1, 2, 3, 3}), f32({2, 4, 3, 3})},
              {{"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}},
               {"output_padding", Ints{1, 1}}})
            .shape == Shape{1, 4, 6, 6});
  CHECK(infer("ConvTranspose", {f32({1, 2, 3, 3}), f32({2, 1, 3, 3})},
              {{"group", int64_t{2}}, {"output_shape", Ints{6, 7}}, {"strides", Ints{2, 2}}})
            .shape == Shape{1, 2, 6, 7});
  CHECK(infer("ConvTranspose", {f32({1, 2, 3, 5}), f32({2, 1, 3, 3})},
              {{"auto_pad", std::string("SAME_UPPER")}, {"strides", Ints{2, 2}}})
            .shape == Shape{1, 1, 6, 10});
  CHECK_THAT(infer_error("ConvTranspose", {f32({1, 2, 3, 3}), f32({2, 1, 3, 3})},
                         {{"output_padding", Ints{1, 1}}}),
             Contains("each value must be below its axis's stride or dilation"));
  // Larger than the 5 the input, kernel and stride give: the rest is the bias alone.
  CHECK(infer("ConvTranspose", {f32({1, 2, 3, 3}), f32({2, 1, 3, 3})},
              {{"output_shape", Ints{9, 5}}})
            .shape == Shape{1, 1, 9, 5});
  CHECK_THAT(infer_error("ConvTranspose", {f32({1, 2, 3, 3}), f32({2, 1, 3, 3})},
                         {{"output_shape", Ints{-1, 5}}}),
             Contains("its extent on spatial axis 0 is below 0"));
}

TEST_CASE("The pools: ONNX's output sizes, ceil_mode, and their attributes checked") {
  const Attrs k3s2{{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}};
  CHECK(infer("MaxPool", {f32({1, 2, 6, 6})}, k3s2).shape == Shape{1, 2, 2, 2});
  Attrs ceil = k3s2;
  ceil.set("ceil_mode", int64_t{1});
  CHECK(infer("AveragePool", {f32({1, 2, 6, 6})}, ceil).shape == Shape{1, 2, 3, 3});
  // The third window would start in the end padding: dropped.
  CHECK(infer("MaxPool", {f32({1, 1, 4})},
              {{"kernel_shape", Ints{2}}, {"strides", Ints{2}}, {"pads", Ints{0, 1}},
               {"ceil_mode", int64_t{1}}})
            .shape == Shape{1, 1, 2});
  CHECK(infer("GlobalAveragePool", {f32({2, 3, 5, 4})}).shape == Shape{2, 3, 1, 1});
  CHECK(infer("GlobalMaxPool", {f32({2, 3, 5})}).shape == Shape{2, 3, 1});
  CHECK_THAT(infer_error("MaxPool", {f32({1, 2, 6, 6})}),
             Contains("missing required attribute 'kernel_shape'"));
  CHECK_THAT(infer_error("MaxPool", {f32({1, 2, 6, 6})},
                         {{"kernel_shape", Ints{2, 2}}, {"pads", Ints{2, 0, 0, 0}}}),
             Contains("are not smaller than the window's span 2"));
  CHECK_THAT(infer_error("AveragePool", {f32({1, 2, 6, 6})},
                         {{"kernel_shape", Ints{2, 2}}, {"count_include_pad", int64_t{3}}}),
             Contains("attribute 'count_include_pad' is 3; it is 0 or 1"));
  CHECK_THAT(infer_error("GlobalMaxPool", {f32({2, 3})}),
             Contains("with at least one spatial axis"));
  CHECK_THAT(infer_error("GlobalMaxPool", {f32({2, 3, 0})}),
             Contains("spatial extents of at least 1"));
}

TEST_CASE("MaxPool gives Indices, of Y's shape in int64, when asked for two outputs") {
  const Attrs two{{"kernel_shape", Ints{2, 2}}, {"num_outputs", int64_t{2}}};
  const std::vector<hxrt::detail::TensorMeta> outputs =
      hxrt_test_ops::infer_all("MaxPool", {f32({1, 2, 5, 5})}, two);
  REQUIRE(outputs.size() == 2);
  CHECK(outputs[0].shape == Shape{1, 2, 4, 4});
  CHECK(outputs[1].dtype == DType::kI64);
  CHECK(outputs[1].shape == Shape{1, 2, 4, 4});
  CHECK(hxrt_test_ops::infer_all("MaxPool", {f32({1, 2, 5, 5})},
                                 {{"kernel_shape", Ints{2, 2}}})
            .size() == 1);
  CHECK_THAT(infer_error("MaxPool", {f32({1, 2, 5, 5})},
                         {{"kernel_shape", Ints{2, 2}}, {"num_outputs", int64_t{3}}}),
             Contains("MaxPool has 1 output (Y) or 2 (Y and Indices)"));
}

TEST_CASE("The normalizations keep X's shape and check their parameters") {
  CHECK(infer("BatchNormalization",
              {f32({2, 3, 4}), f32({3}), f32({3}), f32({3}), f32({3})})
            .shape == Shape{2, 3, 4});
  CHECK(infer("LayerNormalization", {f32({2, 3, 4}), f32({3, 1})}, {{"axis", int64_t{1}}})
            .shape == Shape{2, 3, 4});
  CHECK(infer("InstanceNormalization", {f32({2, 3, 4}), f32({3}), f32({3})}).shape ==
        Shape{2, 3, 4});
  // Training mode adds the running mean and variance, one value per channel.
  const std::vector<hxrt::detail::TensorMeta> training =
      infer_all("BatchNormalization", {f32({2, 3, 4}), f32({3}), f32({3}), f32({3}), f32({3})},
                {{"training_mode", int64_t{1}}});
  REQUIRE(training.size() == 3);
  CHECK(training[0].shape == Shape{2, 3, 4});
  CHECK(training[1].shape == Shape{3});
  CHECK(training[2].shape == Shape{3});
  CHECK_THAT(
      infer_error("BatchNormalization", {f32({0, 3, 4}), f32({3}), f32({3}), f32({3}), f32({3})},
                  {{"training_mode", int64_t{1}}}),
      Contains("training mode takes the mean and variance of its elements, and it has "
               "none"));
  CHECK_THAT(
      infer_error("BatchNormalization", {f32({2, 3, 4}), f32({3}), f32({3}), f32({3}), f32({3})},
                  {{"training_mode", int64_t{2}}}),
      Contains("attribute 'training_mode' is 2; it is 0 (inference"));
  CHECK_THAT(infer_error("BatchNormalization",
                         {f32({2, 3, 4}), f32({4}), f32({3}), f32({3}), f32({3})}),
             Contains("input scale has shape [4]; it holds one value per channel of X: [3]"));
  CHECK_THAT(infer_error("LayerNormalization", {f32({2, 3, 4}), f32({3})}),
             Contains("input Scale has shape [3], which does not broadcast to the normalized "
                      "shape [4]"));
  CHECK_THAT(infer_error("LayerNormalization", {f32({2, 3}), f32({3})}, {{"axis", int64_t{2}}}),
             Contains("attribute 'axis' is 2 for X of rank 2"));
  CHECK_THAT(infer_error("InstanceNormalization", {f32({2, 3}), f32({3}), f32({3})}),
             Contains("with at least one spatial axis"));
}

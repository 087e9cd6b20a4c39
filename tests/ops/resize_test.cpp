// Shape inference of Resize and Upsample: ONNX's output extents for scales, sizes and the
// aspect-ratio policies, and the messages for calls that cannot be made.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
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
using hxrt_test_ops::infer_error;
using hxrt_test_ops::meta;
using Ints = std::vector<int64_t>;
using Floats = std::vector<double>;

TEST_CASE("Resize: scales give floor(extent * scale), sizes the extents themselves") {
  CHECK(infer("Resize", {f32({1, 1, 2, 4})}, {{"scales", Floats{1, 1, 0.6, 0.6}}}).shape ==
        Shape{1, 1, 1, 2});
  CHECK(infer("Resize", {f32({2, 3})}, {{"scales", Floats{2, 1.5}}}).shape == Shape{4, 4});
  CHECK(infer("Resize", {meta(DType::kI32, {2, 3})}, {{"sizes", Ints{5, 0}}}).shape == Shape{5, 0});
  CHECK(infer("Resize", {meta(DType::kBool, {0, 3})}, {{"scales", Floats{2, 2}}}).shape ==
        Shape{0, 6});
  // axes lists the resized axes; the others keep their extent.
  CHECK(infer("Resize", {f32({2, 3, 4})}, {{"scales", Floats{2.5}}, {"axes", Ints{-1}}}).shape ==
        Shape{2, 3, 10});
  CHECK(infer("Resize", {f32({2, 3, 4})}, {{"sizes", Ints{7, 1}}, {"axes", Ints{2, 0}}}).shape ==
        Shape{1, 3, 7});
  // ONNX passes an empty tensor for an input it leaves out.
  CHECK(infer("Resize", {f32({2, 3})},
              {{"scales", Floats{}}, {"roi", Floats{}}, {"sizes", Ints{4, 4}}})
            .shape == Shape{4, 4});
}

TEST_CASE("Resize: not_larger and not_smaller keep x's aspect ratio, rounding halves up") {
  const auto policy = [](const char* name, Ints sizes) {
    return Attrs{{"sizes", std::move(sizes)},
                 {"axes", Ints{2, 3}},
                 {"keep_aspect_ratio_policy", std::string(name)}};
  };
  // ONNX's node tests: [1, 1, 2, 2] to sizes [7, 8]: scale min(3.5, 4) or max.
  CHECK(infer("Resize", {f32({1, 1, 2, 2})}, policy("not_larger", {7, 8})).shape ==
        Shape{1, 1, 7, 7});
  CHECK(infer("Resize", {f32({1, 1, 2, 2})}, policy("not_smaller", {7, 8})).shape ==
        Shape{1, 1, 8, 8});
  // 5 / 4 * 3 = 3.75 rounds to 4; 3 * 7 / 2 = 10.5 rounds up to 11.
  CHECK(infer("Resize", {f32({1, 1, 3, 4})}, policy("not_larger", {5, 5})).shape ==
        Shape{1, 1, 4, 5});
  CHECK(infer("Resize", {f32({1, 1, 2, 3})}, policy("not_smaller", {7, 1})).shape ==
        Shape{1, 1, 7, 11});
}

TEST_CASE("Resize refuses calls it cannot make, saying what it expects") {
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}),
             Equals("Resize: neither 'scales' nor 'sizes' is given; give exactly one (an empty "
                    "list is an absent one)"));
  CHECK_THAT(
      infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2, 2}}, {"sizes", Ints{1, 1}}}),
      Contains("both 'scales' and 'sizes' are given; give exactly one"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2}}}),
             Equals("Resize: attribute 'scales' [2.0] has 1 entries; it needs one for the 2 "
                    "resized axes of x [2, 3]"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2, 0}}}),
             Contains("holds 0.0; every scale is a finite number above 0"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, std::numeric_limits<double>::infinity()}}}),
             Contains("every scale is a finite number above 0"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2, 1e30}}}),
             Contains("too large"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"sizes", Ints{2, -1}}}),
             Contains("asks for -1 elements on axis 1"));
  CHECK_THAT(infer_error("Resize", {f32({0, 3})}, {{"sizes", Ints{2, 3}}}),
             Contains("0 where x's axis is empty"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"sizes", Ints{2, 2}}, {"axes", Ints{1, -1}}}),
             Contains("names axis 1 twice"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2}}, {"axes", Ints{2}}}),
             Contains("out of range for rank 2"));
  CHECK_THAT(infer_error("Resize", {f32({})}, {{"scales", Floats{2}}}),
             Contains("x is a scalar, which has no axis to resize"));
  CHECK_THAT(
      infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2, 2}}, {"roi", Floats{0, 1}}}),
      Contains("attribute 'roi' [0.0, 1.0] has 2 entries; it needs a start and an end"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, 2}},
                          {"coordinate_transformation_mode", std::string("tf_crop_and_resize")}}),
             Contains("needs attribute 'roi'"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, 2}}, {"mode", std::string("bilinear")}}),
             Equals("Resize: attribute 'mode' is \"bilinear\"; expected \"nearest\", \"linear\" "
                    "or \"cubic\""));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, 2}},
                          {"coordinate_transformation_mode", std::string("tf_half_pixel_for_nn")}}),
             Contains("expected \"half_pixel\", \"half_pixel_symmetric\", \"pytorch_half_pixel\""));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, 2}}, {"nearest_mode", std::string("round")}}),
             Contains("attribute 'nearest_mode' is \"round\""));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"sizes", Ints{2, 2}}, {"keep_aspect_ratio_policy", std::string("fit")}}),
             Contains("\"stretch\", \"not_larger\" or \"not_smaller\""));
  CHECK_THAT(
      infer_error("Resize", {f32({2, 3})}, {{"scales", Floats{2, 2}}, {"antialias", int64_t{1}}}),
      Contains("'antialias' is 1 with mode \"nearest\""));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, 2}}, {"exclude_outside", int64_t{2}}}),
             Contains("attribute 'exclude_outside' is 2; it is 0 or 1"));
  CHECK_THAT(infer_error("Resize", {meta(DType::kBool, {2, 3})},
                         {{"scales", Floats{2, 2}}, {"mode", std::string("linear")}}),
             Contains("a bool x takes mode \"nearest\""));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})}, {{"scales", Ints{2, 2}}}),
             Contains("attribute 'scales' must be a list of floats, got list of ints ([2, 2])"));
  CHECK_THAT(infer_error("Resize", {f32({2, 3})},
                         {{"scales", Floats{2, 2}}, {"cubic_coeff_a", std::nan("")}}),
             Contains("'cubic_coeff_a' is not a finite number"));
}

TEST_CASE("Upsample: floor(extent * scale) on every axis, each scale at least 1") {
  CHECK(infer("Upsample", {f32({1, 1, 2, 2})}, {{"scales", Floats{1, 1, 2, 3}}}).shape ==
        Shape{1, 1, 4, 6});
  CHECK_THAT(infer_error("Upsample", {f32({2, 2})}, {{"scales", Floats{1, 0.5}}}),
             Contains("Upsample's scales are at least 1 (Resize shrinks)"));
  CHECK_THAT(infer_error("Upsample", {f32({2, 2})}, {{"scales", Floats{2}}}),
             Contains("it needs one per axis of x [2, 2]"));
  CHECK_THAT(infer_error("Upsample", {f32({2, 2})}),
             Contains("missing required attribute 'scales' (a list of floats)"));
  CHECK_THAT(infer_error("Upsample", {f32({2, 2})},
                         {{"scales", Floats{2, 2}}, {"mode", std::string("cubic")}}),
             Contains("expected \"nearest\" or \"linear\""));
}

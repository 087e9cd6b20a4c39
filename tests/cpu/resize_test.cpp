// The CPU plugin's Resize and Upsample against values worked by hand and the examples of
// ONNX's operator documentation: each mode and coordinate mode, integer truncation, the
// narrow floats, bool, empty tensors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cpu_test_support.hpp"

using Floats = std::vector<double>;
using Ints = std::vector<int64_t>;

namespace {

// ONNX's 1x1x4x4 image of 1 to 16.
hxrt::Tensor resize_image(hxrt::Runtime& rt) {
  std::vector<float> values;
  for (int i = 1; i <= 16; ++i) values.push_back(static_cast<float>(i));
  return rt.tensor<float>({1, 1, 4, 4}, values);
}

void check_close(const std::vector<float>& got, const std::vector<float>& expected) {
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(expected[i]).epsilon(1e-6).margin(1e-6));
  }
}

}  // namespace

TEST_CASE("Resize nearest: half_pixel by default, each rounding, the coordinate modes",
          "[cpu][resize]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  const hxrt::Tensor up = rt.execute("Resize", {x}, {{"scales", Floats{1, 1, 2, 3}}});
  CHECK(up.shape() == hxrt::Shape{1, 1, 4, 6});
  CHECK(up.to_vector<float>() ==
        std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
  // [1, 2, 3, 4] at 0.6: x_original (0.5 / 0.6 - 0.5) = 1/3 and 2, rounded to 0 and 2.
  const hxrt::Tensor row = rt.tensor<float>({1, 4}, {1, 2, 3, 4});
  CHECK(rt.execute("Resize", {row}, {{"scales", Floats{1, 0.6}}}).to_vector<float>() ==
        std::vector<float>{1, 3});
  // Up by 2 with half_pixel: x_original -0.25, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.25.
  const auto rounded = [&](const char* mode) {
    return rt
        .execute("Resize", {row}, {{"scales", Floats{1, 2}}, {"nearest_mode", std::string(mode)}})
        .to_vector<float>();
  };
  CHECK(rounded("round_prefer_floor") == std::vector<float>{1, 1, 2, 2, 3, 3, 4, 4});
  CHECK(rounded("floor") == std::vector<float>{1, 1, 1, 2, 2, 3, 3, 4});
  CHECK(rounded("ceil") == std::vector<float>{1, 2, 2, 3, 3, 4, 4, 4});
  // Asymmetric x_original 0, 0.5, 1, ...: the halves tell the two round modes apart.
  const auto halves = [&](const char* mode) {
    return rt
        .execute("Resize", {row},
                 {{"scales", Floats{1, 2}},
                  {"coordinate_transformation_mode", std::string("asymmetric")},
                  {"nearest_mode", std::string(mode)}})
        .to_vector<float>();
  };
  CHECK(halves("round_prefer_floor") == std::vector<float>{1, 1, 2, 2, 3, 3, 4, 4});
  CHECK(halves("round_prefer_ceil") == std::vector<float>{1, 2, 2, 3, 3, 4, 4, 4});
  // align_corners to 7: x_original = i * 3 / 6.
  CHECK(rt.execute("Resize", {row},
                   {{"sizes", Ints{1, 7}},
                    {"coordinate_transformation_mode", std::string("align_corners")},
                    {"nearest_mode", std::string("floor")}})
            .to_vector<float>() == std::vector<float>{1, 1, 2, 2, 3, 3, 4});
  // simple rounds up where the axis shrinks: x_original 0, 4/3 and 8/3 give 0, 2 and 3.
  CHECK(rt.execute("Resize", {row},
                   {{"scales", Floats{1, 0.75}},
                    {"coordinate_transformation_mode", std::string("asymmetric")},
                    {"nearest_mode", std::string("simple")}})
            .to_vector<float>() == std::vector<float>{1, 3, 4});
}

TEST_CASE("Resize linear and cubic give ONNX's documented values", "[cpu][resize]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  const hxrt::Attrs linear{{"scales", Floats{1, 1, 2, 2}}, {"mode", std::string("linear")}};
  check_close(rt.execute("Resize", {x}, linear).to_vector<float>(),
              {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
  hxrt::Attrs corners = linear;
  corners.set("coordinate_transformation_mode", std::string("align_corners"));
  const float third = 1.0f / 3;
  check_close(rt.execute("Resize", {x}, corners).to_vector<float>(),
              {1, 1 + third, 2 - third, 2, 2 - third, 2, 2 + third, 3 - third, 2 + third, 3 - third,
               3, 3 + third, 3, 3 + third, 4 - third, 4});
  const hxrt::Tensor wide = rt.tensor<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  check_close(rt.execute("Resize", {wide},
                         {{"scales", Floats{1, 1, 0.6, 0.6}}, {"mode", std::string("linear")}})
                  .to_vector<float>(),
              {2.6666667f, 4.3333333f});
  // half_pixel_symmetric centres the sampled region where the extent is fractional (2.6).
  const hxrt::Tensor pair = rt.tensor<float>({2}, {100, 200});
  hxrt::Attrs grown{{"scales", Floats{1.3}}, {"mode", std::string("linear")}};
  check_close(rt.execute("Resize", {pair}, grown).to_vector<float>(), {100, 165.38461962f});
  grown.set("coordinate_transformation_mode", std::string("half_pixel_symmetric"));
  check_close(rt.execute("Resize", {pair}, grown).to_vector<float>(),
              {111.53846013f, 188.46153987f});
  const hxrt::Tensor image = resize_image(rt);
  const std::vector<float> cubic =
      rt.execute("Resize", {image},
                 {{"scales", Floats{1, 1, 2, 2}}, {"mode", std::string("cubic")}})
          .to_vector<float>();
  REQUIRE(cubic.size() == 64);
  check_close(std::vector<float>(cubic.begin(), cubic.begin() + 8),
              {0.47265625f, 0.76953125f, 1.24609375f, 1.875f, 2.28125f, 2.91015625f, 3.38671875f,
               3.68359375f});
  check_close(rt.execute("Resize", {image},
                         {{"scales", Floats{1, 1, 0.6, 0.6}},
                          {"mode", std::string("linear")},
                          {"antialias", int64_t{1}}})
                  .to_vector<float>(),
              {2.875f, 4.5f, 9.375f, 11});
}

TEST_CASE("Resize tf_crop_and_resize samples the roi and extrapolates outside x", "[cpu][resize]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Attrs crop{{"sizes", Ints{3, 3}},
                         {"axes", Ints{2, 3}},
                         {"roi", Floats{0.4, 0.6, 1.2, 1.7}},
                         {"mode", std::string("linear")},
                         {"coordinate_transformation_mode", std::string("tf_crop_and_resize")},
                         {"extrapolation_value", 10.0}};
  check_close(rt.execute("Resize", {resize_image(rt)}, crop).to_vector<float>(),
              {7.6f, 10, 10, 12.4f, 10, 10, 10, 10, 10});
  // Nearest on int32: extrapolation_value converted as Cast converts, toward zero.
  const hxrt::Tensor ints = rt.tensor<int32_t>({3}, {4, 5, 6});
  CHECK(rt.execute("Resize", {ints},
                   {{"sizes", Ints{4}},
                    {"roi", Floats{0, 1.5}},
                    {"coordinate_transformation_mode", std::string("tf_crop_and_resize")},
                    {"extrapolation_value", -7.9}})
            .to_vector<int32_t>() == std::vector<int32_t>{4, 5, 6, -7});
}

TEST_CASE("Resize interpolates integers in double and truncates, as Cast converts",
          "[cpu][resize]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // x_original -0.25, 0.25, 0.75, 1.25: 0, 0.75, 2.25, 3 (and their negatives).
  const hxrt::Attrs linear{{"scales", Floats{2}}, {"mode", std::string("linear")}};
  CHECK(rt.execute("Resize", {rt.tensor<int32_t>({2}, {0, 3})}, linear).to_vector<int32_t>() ==
        std::vector<int32_t>{0, 0, 2, 3});
  CHECK(rt.execute("Resize", {rt.tensor<int64_t>({2}, {0, -3})}, linear).to_vector<int64_t>() ==
        std::vector<int64_t>{0, 0, -2, -3});
  CHECK(rt.execute("Resize", {rt.tensor<double>({2}, {0, -3})}, linear).to_vector<double>() ==
        std::vector<double>{0, -0.75, -2.25, -3});
  // A scale of 1 on every axis copies: no int64 is rounded to a double's 53 bits.
  const int64_t big = (int64_t{1} << 60) + 1;
  CHECK(rt.execute("Resize", {rt.tensor<int64_t>({1, 2}, {big, -big})},
                   {{"scales", Floats{1, 1}}, {"mode", std::string("cubic")}})
            .to_vector<int64_t>() == std::vector<int64_t>{big, -big});
}

TEST_CASE("Resize and Upsample on f16, bf16 and bool, and on empty tensors", "[cpu][resize]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  for (hxrt::DType dtype : {hxrt::DType::kF16, hxrt::DType::kBF16}) {
    INFO(hxrt::dtype_name(dtype));
    // 1 and 2 as f16 (0x3C00, 0x4000) and bf16 (0x3F80, 0x4000).
    const bool half = dtype == hxrt::DType::kF16;
    const std::vector<uint16_t> bits = {half ? uint16_t{0x3C00} : uint16_t{0x3F80}, 0x4000};
    const hxrt::Tensor x = cpu_test::raw_tensor(dtype, {2}, cpu_test::to_bytes(bits));
    const hxrt::Tensor y =
        rt.execute("Resize", {x}, {{"scales", Floats{2}}, {"mode", std::string("linear")}});
    const std::vector<uint8_t> bytes = cpu_test::raw_bytes(y);
    const std::vector<long double> expected = {1, 1.25, 1.75, 2};
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(cpu_test::element_value(dtype, bytes, i) == expected[i]);
    }
  }
  const hxrt::Tensor flags = cpu_test::raw_tensor(hxrt::DType::kBool, {2, 2}, {1, 0, 0, 1});
  const hxrt::Tensor grown = rt.execute("Upsample", {flags}, {{"scales", Floats{1, 2}}});
  CHECK(cpu_test::raw_bytes(grown) == std::vector<uint8_t>{1, 1, 0, 0, 0, 0, 1, 1});
  const hxrt::Tensor empty = rt.tensor<float>({0, 3}, {});
  CHECK(rt.execute("Resize", {empty}, {{"scales", Floats{2, 2}}, {"mode", std::string("cubic")}})
            .shape() == hxrt::Shape{0, 6});
  CHECK(
      rt.execute("Resize", {rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})}, {{"sizes", Ints{0, 4}}})
          .shape() == hxrt::Shape{0, 4});
}

TEST_CASE("Upsample repeats each element by its scale, rounding down", "[cpu][resize]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  CHECK(rt.execute("Upsample", {x}, {{"scales", Floats{1, 1, 2, 3}}}).to_vector<float>() ==
        std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
  // linear with asymmetric coordinates: i / 2, the last one clamped to the edge.
  CHECK(rt.execute("Upsample", {rt.tensor<float>({2}, {1, 3})},
                   {{"scales", Floats{2}}, {"mode", std::string("linear")}})
            .to_vector<float>() == std::vector<float>{1, 2, 3, 3});
}

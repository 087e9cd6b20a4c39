// Conv and FusedConv on GPU:0 (cuDNN) against the CPU plugin (oneDNN): 1-D, 2-D and 3-D, with
// strides, pads, dilations and groups (depthwise included), auto_pad where it pads both ends
// alike, with and without a bias, for f32, f16 and bf16; FusedConv with every activation,
// f32's Relu with a bias through cuDNN's fused call; and pads cuDNN cannot give, declined.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

using ConvInts = std::vector<int64_t>;

struct ConvCase {
  hxrt::Shape x, w;
  bool bias;
  hxrt::Attrs attrs;
};

const ConvCase kConvCases[] = {
    {{1, 1, 5, 5}, {1, 1, 3, 3}, false, {}},
    {{2, 3, 6, 5}, {4, 3, 3, 2}, true, {}},
    {{1, 2, 5, 5}, {3, 2, 3, 3}, true, {{"pads", ConvInts{1, 1, 1, 1}}}},
    {{1, 2, 7, 7}, {2, 2, 3, 3}, true, {{"dilations", ConvInts{2, 1}}}},
    {{1, 3, 9, 8},
     {2, 3, 2, 3},
     true,
     {{"strides", ConvInts{3, 2}}, {"dilations", ConvInts{2, 2}}, {"pads", ConvInts{1, 1, 1, 1}}}},
    // Groups, depthwise included.
    {{1, 4, 5, 5}, {6, 2, 3, 3}, true, {{"group", int64_t{2}}}},
    {{2, 3, 4, 4}, {3, 1, 3, 3}, false, {{"group", int64_t{3}}, {"pads", ConvInts{1, 1, 1, 1}}}},
    // auto_pad where it pads both ends alike (3 x 3, stride 1: 1 and 1), and VALID.
    {{1, 2, 5, 6}, {3, 2, 3, 3}, false, {{"auto_pad", std::string("SAME_UPPER")}}},
    {{1, 2, 6, 5},
     {3, 2, 3, 2},
     false,
     {{"auto_pad", std::string("VALID")}, {"strides", ConvInts{2, 1}}}},
    // Pads of 1 and 0 that no window's end reaches: what cuDNN's 1 and 1 give.
    {{1, 2, 6, 7},
     {2, 2, 3, 3},
     true,
     {{"pads", ConvInts{1, 0, 0, 1}}, {"strides", ConvInts{2, 2}}}},
    // 1-D and 3-D.
    {{2, 3, 10}, {4, 3, 3}, true, {{"strides", ConvInts{2}}, {"pads", ConvInts{1, 1}}}},
    {{1, 2, 9}, {2, 1, 4}, false, {{"group", int64_t{2}}, {"dilations", ConvInts{2}}}},
    {{1, 2, 4, 5, 4}, {3, 2, 2, 3, 2}, true, {{"pads", ConvInts{1, 0, 1, 1, 0, 1}}}},
    // One element, an empty batch, and a layer large enough for cuDNN's tensor-core kernels.
    {{1, 1, 1, 1}, {1, 1, 1, 1}, true, {}},
    {{0, 2, 4, 4}, {3, 2, 3, 3}, true, {}},
    {{2, 16, 14, 14},
     {32, 16, 3, 3},
     true,
     {{"pads", ConvInts{1, 1, 1, 1}}, {"strides", ConvInts{2, 2}}}},
};

hxrt::Tensor conv_f32_on_cpu(const hxrt::Tensor& tensor) {
  return runtime().execute("Cast", {tensor}, {{"dtype", hxrt::DType::kF32}}, kCpu0);
}

// sum over the taps of |x| |w| for each output: the scale of a convolution's rounding errors,
// whatever order its terms are added in (the CPU's Conv of |X| and |W|, in f32).
std::vector<double> conv_scale(const hxrt::Tensor& x, const hxrt::Tensor& w,
                               const hxrt::Attrs& attrs) {
  const hxrt::Tensor abs_x = runtime().execute("Abs", {conv_f32_on_cpu(x)}, {}, kCpu0);
  const hxrt::Tensor abs_w = runtime().execute("Abs", {conv_f32_on_cpu(w)}, {}, kCpu0);
  return values_of(runtime().execute("Conv", {abs_x, abs_w}, attrs, kCpu0));
}

// The terms of one output: W's elements per output channel.
int64_t conv_terms(const hxrt::Shape& w) { return w.num_elements() / std::max<int64_t>(w[0], 1); }

// f32, f16 and bf16 accumulate in f32: each term may lose half a unit of it, on both sides of
// the comparison; on top, the output's own rounding (twice on the GPU for f16 and bf16: the
// convolution's, then the bias and activation's).
void check_conv(const std::string& op, hxrt::DType dtype, const ConvCase& conv, uint32_t seed,
                const hxrt::Attrs& attrs) {
  std::vector<hxrt::Tensor> inputs = {random_tensor(dtype, conv.x, seed, -1, 1),
                                      random_tensor(dtype, conv.w, seed + 1, -1, 1)};
  if (conv.bias) inputs.push_back(random_tensor(dtype, {conv.w[0]}, seed + 2, -1, 1));
  const hxrt::Tensor got = run_on_gpu(op, inputs, attrs);
  const hxrt::Tensor want = cpu_reference(op, inputs, attrs);
  const std::vector<double> scale = conv_scale(inputs[0], inputs[1], conv.attrs);
  const double relative = std::max(2 * relative_tolerance(dtype),
                                   2.0 * static_cast<double>(conv_terms(conv.w)) * 0x1p-24);
  check_elements(got, want, [&](size_t index, double w) {
    return relative * (std::fabs(w) + scale[index] + 1.0);
  });
}

}  // namespace

TEST_CASE("GPU Conv matches the CPU for 1 to 3 spatial axes, pads, strides, dilations and groups",
          "[cuda][conv]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 20000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const ConvCase& conv : kConvCases) {
      INFO("Conv " << hxrt::dtype_name(dtype) << " X " << conv.x.to_string() << " W "
                   << conv.w.to_string() << (conv.bias ? " with B" : ""));
      check_conv("Conv", dtype, conv, seed += 3, conv.attrs);
    }
  }
}

TEST_CASE("GPU FusedConv applies every activation after the bias", "[cuda][conv]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 21000;
  const std::pair<const char*, double> activations[] = {
      {"Relu", 0.01}, {"LeakyRelu", 0.125}, {"Sigmoid", 0.01}, {"Tanh", 0.01}};
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    // f32 with Relu and a bias is cuDNN's fused call; the rest its convolution, then the
    // plugin's pass.
    for (const ConvCase& conv : {kConvCases[1], kConvCases[5], kConvCases[10], kConvCases[12],
                                 kConvCases[6], kConvCases[15]}) {
      for (const auto& [activation, alpha] : activations) {
        INFO("FusedConv " << activation << ' ' << hxrt::dtype_name(dtype) << " X "
                          << conv.x.to_string() << (conv.bias ? " with B" : ""));
        hxrt::Attrs attrs = conv.attrs;
        attrs.set("activation", std::string(activation));
        attrs.set("activation_alpha", alpha);
        check_conv("FusedConv", dtype, conv, seed += 3, attrs);
      }
    }
  }
}

TEST_CASE("GPU Conv declines pads cuDNN cannot give, saying why", "[cuda][conv]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  // 1 at the start and 0 at the end of a 7-row input, stride 2: cuDNN's 1 and 1 would give 4
  // rows rather than 3. Asked of the GPU strictly, the decline is the error.
  const hxrt::Tensor x = random_tensor(hxrt::DType::kF32, {1, 2, 7, 6}, 22000, -1, 1);
  const hxrt::Tensor w = random_tensor(hxrt::DType::kF32, {2, 2, 3, 3}, 22001, -1, 1);
  const hxrt::Attrs attrs = {{"pads", ConvInts{1, 0, 0, 1}}, {"strides", ConvInts{2, 2}}};
  CHECK_THROWS_WITH(runtime().execute("Conv", {x, w}, attrs, kGpu0),
                    Catch::Contains("cuDNN pads both ends alike"));
  // SAME_UPPER with a 2 x 2 kernel and stride 1 pads 0 at the start and 1 at the end.
  const hxrt::Tensor w2 = random_tensor(hxrt::DType::kF32, {2, 2, 2, 2}, 22002, -1, 1);
  CHECK_THROWS_WITH(
      runtime().execute("Conv", {x, w2}, {{"auto_pad", std::string("SAME_UPPER")}}, kGpu0),
      Catch::Contains("cuDNN pads both ends alike"));
}

}  // namespace cuda_kernel_test

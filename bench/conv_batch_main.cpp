// hxrt_conv_batch_bench: oneDNN's convolution of a batch in one call against one call per
// image, for the tests' CNN's two layers at batch 16, on the threads OMP_NUM_THREADS gives: the
// measurement behind the CPU plugin's image-by-image way (plugins/cpu/dnnl/image_by_image.hpp),
// which times both ways on a convolution's first calls and keeps the faster. Calls oneDNN
// directly, as the plugin does (forward inference, direct algorithm, Relu as a post-op, the
// output in blocks of 16 channels, the input plain for 3 channels and in blocks past them).
// Prints per layer the median of 200 runs each way and their ratio.
//
//   OMP_NUM_THREADS=1 build/bin/hxrt_conv_batch_bench
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Tag = dnnl::memory::format_tag;

struct Layer {
  const char* name;
  int64_t channels, outputs, size, stride;
};

constexpr int64_t kImages = 16;
constexpr int kRuns = 200;

// The median time of a run of `images_per_call`-image calls over the whole batch, in us.
double median_us(const Layer& layer, int64_t images_per_call) {
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const int64_t out_size = (layer.size + 2 - 3) / layer.stride + 1;
  const Tag src_tag = layer.channels >= 16 ? Tag::nChw16c : Tag::nchw;
  const dnnl::memory::desc src({images_per_call, layer.channels, layer.size, layer.size},
                               dnnl::memory::data_type::f32, src_tag);
  const dnnl::memory::desc dst({images_per_call, layer.outputs, out_size, out_size},
                               dnnl::memory::data_type::f32, Tag::nChw16c);
  const dnnl::memory::desc weights({layer.outputs, layer.channels, 3, 3},
                                   dnnl::memory::data_type::f32, Tag::any);
  const dnnl::memory::desc bias({layer.outputs}, dnnl::memory::data_type::f32, Tag::a);
  dnnl::post_ops relu;
  relu.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(relu);
  const dnnl::convolution_forward::primitive_desc primitive_desc(
      dnnl::convolution_forward::desc(
          dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, weights,
          bias, dst, {layer.stride, layer.stride}, {1, 1}, {1, 1}),
      attr, engine);
  const dnnl::convolution_forward convolution(primitive_desc);
  const size_t src_step = src.get_size() / sizeof(float);
  const size_t dst_step = dst.get_size() / sizeof(float);
  std::vector<float> inputs(src_step * static_cast<size_t>(kImages / images_per_call), 0.5f);
  std::vector<float> outputs(dst_step * static_cast<size_t>(kImages / images_per_call));
  const dnnl::memory w(primitive_desc.weights_desc(), engine);
  const dnnl::memory b(bias, engine);
  std::vector<double> times;
  for (int run = 0; run < kRuns; ++run) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t call = 0; call < kImages / images_per_call; ++call) {
      const dnnl::memory x(src, engine, inputs.data() + static_cast<size_t>(call) * src_step);
      const dnnl::memory y(dst, engine, outputs.data() + static_cast<size_t>(call) * dst_step);
      convolution.execute(stream, {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w},
                                   {DNNL_ARG_BIAS, b}, {DNNL_ARG_DST, y}});
    }
    stream.wait();
    times.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::nth_element(times.begin(), times.begin() + kRuns / 2, times.end());
  return times[kRuns / 2];
}

}  // namespace

int main() {
  const Layer layers[] = {{"conv1 3->16 32x32", 3, 16, 32, 1},
                          {"conv2 16->32 16x16 stride 2", 16, 32, 16, 2}};
  std::printf("%-28s %12s %16s %8s\n", "layer (batch 16)", "batch us", "image by image us",
              "ratio");
  for (const Layer& layer : layers) {
    const double batch = median_us(layer, kImages);
    const double by_image = median_us(layer, 1);
    std::printf("%-28s %12.1f %16.1f %8.2f\n", layer.name, batch, by_image, batch / by_image);
  }
  return 0;
}

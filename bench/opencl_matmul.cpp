// hxrt_opencl_bench: a 1024 x 1024 float32 MatMul through the OpenCL plugin (its function
// table, a kernel instance, a stream synchronised per call, tensors at offsets inside one
// buffer as the core's allocator places them) against the same kernel enqueued directly on
// the OpenCL device, in one run; prints the ratio against its budget (within 10%).
#include <benchmark/benchmark.h>
#include <hxrt/plugin_api.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_run.hpp"
#include "opencl_direct.hpp"
#include "plugin_host.hpp"

namespace {

constexpr int64_t kSize = 1024;
constexpr char kPluginBenchmark[] = "OpenClMatMul1024/plugin";
constexpr char kDirectBenchmark[] = "OpenClMatMul1024/direct";

std::vector<float> matrix(float seed) {
  std::vector<float> values(static_cast<size_t>(kSize * kSize));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = std::sin(seed + static_cast<float>(i % 97));
  }
  return values;
}

// The plugin's side: a, b and c in one buffer at aligned offsets, one MatMul instance.
class PluginMatMul {
 public:
  PluginMatMul(const std::vector<float>& a, const std::vector<float>& b) {
    if (host_.init_outcome().code != HX_OK) {
      throw std::runtime_error("hx_plugin_init: " + host_.init_outcome().message);
    }
    const hx_plugin_api& api = host_.api();
    device_ = host_.device(0);
    matmul_ = &host_.kernel("MatMul").def;
    hx_device* device = device_;
    hx_device_properties props{};
    props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
    check(api.device_properties(device, &props), "device_properties");
    const uint64_t bytes = kSize * kSize * sizeof(float);
    const uint64_t stride = (bytes + props.alignment - 1) / props.alignment * props.alignment;
    buffer_size_ = static_cast<size_t>(stride * 4);
    check(api.allocate(device, buffer_size_, props.alignment, &buffer_), "allocate");
    offsets_[0] = stride;  // never at 0, as with the core's sub-allocation
    offsets_[1] = stride * 2;
    offsets_[2] = stride * 3;
    check(api.copy_host_to_device(device, nullptr, buffer_, offsets_[0], a.data(), bytes),
          "copy a");
    check(api.copy_host_to_device(device, nullptr, buffer_, offsets_[1], b.data(), bytes),
          "copy b");
    check(api.streams->create(device, &stream_), "stream create");
    const int32_t dtypes[] = {HX_DTYPE_F32, HX_DTYPE_F32};
    const hx_kernel_def& matmul = this->matmul();
    const hx_kernel_create_args create = {HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
                                          nullptr, nullptr, device, 2, dtypes, 1, dtypes,
                                          matmul.user_data};
    check(matmul.create(&create, &instance_), "MatMul create");
    for (int i = 0; i < 3; ++i) {
      hx_tensor_view& view = views_[i];
      view.struct_size = HX_TENSOR_VIEW_STRUCT_SIZE;
      view.buffer = buffer_;
      view.byte_offset = offsets_[i];
      view.dtype = HX_DTYPE_F32;
      view.rank = 2;
      view.shape = shape_;
      view.strides = strides_;
      view.device = device;
    }
  }
  ~PluginMatMul() {
    const hx_plugin_api& api = host_.api();
    matmul().destroy(instance_, matmul().user_data);
    api.streams->destroy(device_, stream_);
    api.deallocate(device_, buffer_, buffer_size_);
  }

  // One MatMul as the core runs it: compute on the stream, then wait for the stream.
  void run() {
    const hx_kernel_args args = {HX_KERNEL_ARGS_STRUCT_SIZE, nullptr, nullptr,
                                 device_, stream_, 2, views_, 1, &views_[2],
                                 matmul().user_data, instance_, nullptr, nullptr};
    check(matmul().compute(&args), "MatMul compute");
    check(host_.api().streams->synchronize(device_, stream_), "stream synchronize");
  }

  float result(size_t index) const {
    float value = 0;
    check(host_.api().copy_device_to_host(device_, nullptr, &value, buffer_,
                                          offsets_[2] + index * sizeof(float), sizeof value),
          "copy c");
    return value;
  }

 private:
  static void check(hx_status* status, const char* what) {
    hxrt_test::PluginHost::check(status, what);
  }
  const hx_kernel_def& matmul() const { return *matmul_; }

  hxrt_test::PluginHost host_{std::string(HXRT_BENCH_PLUGIN_DIR) + "/libhx_opencl.so"};
  hx_device* device_ = nullptr;
  const hx_kernel_def* matmul_ = nullptr;
  hx_buffer* buffer_ = nullptr;
  size_t buffer_size_ = 0;
  uint64_t offsets_[3] = {};
  hx_stream* stream_ = nullptr;
  hx_kernel_instance* instance_ = nullptr;
  const int64_t shape_[2] = {kSize, kSize};
  const int64_t strides_[2] = {kSize, 1};
  hx_tensor_view views_[3] = {};
};

}  // namespace

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv, {"--benchmark_min_time=2"})) return 2;
  return hxrt_bench::run_program("hxrt_opencl_bench", [&] {
    const std::vector<float> a = matrix(0.5f);
    const std::vector<float> b = matrix(1.5f);
    PluginMatMul plugin(a, b);
    hxrt_bench::DirectOpenClMatMul direct(kSize, a.data(), b.data());
    // Both compute the same product, or the comparison means nothing.
    plugin.run();
    direct.run();
    for (size_t index : {size_t{0}, size_t{kSize * kSize / 2 + 7}, size_t{kSize * kSize - 1}}) {
      if (plugin.result(index) != direct.result(index)) {
        throw std::runtime_error("the plugin's and the direct product differ at element " +
                                 std::to_string(index));
      }
    }
    benchmark::RegisterBenchmark(kPluginBenchmark, [&](benchmark::State& state) {
      for (auto _ : state) plugin.run();
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark(kDirectBenchmark, [&](benchmark::State& state) {
      for (auto _ : state) direct.run();
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    hxrt_bench::run_and_report(
        {{"1024 MatMul time, OpenCL plugin / direct", kPluginBenchmark, kDirectBenchmark, false,
          1.10}});
  });
}

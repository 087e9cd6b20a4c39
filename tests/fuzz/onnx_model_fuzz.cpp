// Runtime::load_onnx on any bytes, on the CPU plugin: a model that loads is compiled, and run
// on zeros when its inputs are small. Seeds: models of ONNX's node tests (corpus/).
//
// Oracle: every call either returns or throws hxrt::Error; any other exception, a crash, a
// hang (libFuzzer's -timeout) or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

// Each device's allocator takes at most this much, so that a model asking for more fails with
// OUT_OF_MEMORY in the runtime instead of tripping libFuzzer's malloc limit.
constexpr uint64_t kDeviceMemoryMiB = 64;
constexpr size_t kMaxFeedBytes = size_t{1} << 20;

hxrt::Runtime make_runtime() {
  hxrt::RuntimeOptions options;
  options.plugin_paths = {HXRT_FUZZ_PLUGIN_DIR "/libhx_cpu.so"};
  options.use_installed_plugins = false;
  options.log_sink = [](hxrt::LogLevel, std::string_view) {};
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  hxrt::MemoryPolicy policy;
  policy.limit_mb = kDeviceMemoryMiB;
  runtime.set_memory_policy("CPU", policy);
  runtime.initialize();
  return runtime;
}

void load_and_run(hxrt::Runtime& rt, const uint8_t* data, size_t size) {
  hxrt::OnnxLoadOptions options;
  options.dims = {{"N", 2}, {"batch", 2}, {"batch_size", 2}};
  const hxrt::OnnxModel model = rt.load_onnx(data, size, options);
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs);
  std::map<std::string, hxrt::Tensor> feeds;
  for (const std::string& input : exe.inputs()) {
    const hxrt::GraphNode& node = *model.graph.find(input);
    const size_t bytes = hxrt::tensor_bytes(node.output_dtypes[0], node.output_shapes[0]);
    if (bytes > kMaxFeedBytes) return;
    const std::vector<unsigned char> zeros(bytes, 0);
    feeds[input] = rt.from_host(node.output_dtypes[0], node.output_shapes[0], zeros.data(),
                                zeros.size());
  }
  for (const hxrt::Tensor& output : exe.run(feeds)) output.wait();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static hxrt::Runtime rt = make_runtime();
  try {
    load_and_run(rt, data, size);
  } catch (const hxrt::Error&) {
    // Refused with a message: what the loader must do with a model it cannot run.
  } catch (const std::exception& error) {
    std::fprintf(stderr, "onnx_model_fuzz: an exception that is not hxrt::Error: %s\n",
                 error.what());
    std::abort();
  }
  return 0;
}

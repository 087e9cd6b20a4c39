// Memory growth, set through the API: a simulated GPU's allocator starts with nothing
// reserved, takes memory from the device only as tensors need it (within a hard limit), keeps
// it for reuse when the tensors go, and gives it back on release_unused_memory().
//
//   GPU:0 memory policy: growth, limit 256.00 MiB
//   at start:                       in use 0.00 MiB, reserved 0.00 MiB
//   after a 1 MiB tensor:           in use 1.00 MiB, reserved 2.00 MiB
//   ...
//   release_unused_memory() gave back 86.00 MiB
//   after release_unused_memory():  in use 0.00 MiB, reserved 0.00 MiB
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"
#include "mebibytes.hpp"

namespace {

using memory_sample::kMiB;
using memory_sample::mebibytes;

const char* const kGpu = "GPU:0";

void print_memory(const hxrt::Runtime& rt, const std::string& when) {
  const hxrt::MemoryStats stats = rt.memory_stats(kGpu);
  std::cout << std::left << std::setw(32) << when + ":"
            << "in use " << mebibytes(stats.bytes_in_use) << ", reserved "
            << mebibytes(stats.bytes_reserved) << '\n';
}

hxrt::Tensor tensor_of_mebibytes(hxrt::Runtime& rt, size_t mib) {
  const std::vector<float> values(mib * kMiB / sizeof(float), 1.0f);
  return rt.tensor<float>({static_cast<int64_t>(values.size())}, values, kGpu);
}

}  // namespace

int main() {
  try {
    hxrt::RuntimeOptions options;
    // The sim plugin stands in for one GPU with 1 GiB of memory.
    options.plugin_options["sim"] = R"({"device_type": "GPU", "device_count": 1,
                                         "memory_mb": 1024})";
    hxrt::Runtime rt = hxrt::Runtime::create(options);

    // Like tf.config.experimental.set_memory_growth, plus the hard limit TensorFlow does
    // not combine with growth. Set before the runtime is initialised, as in TensorFlow.
    hxrt::MemoryPolicy policy;
    policy.growth = true;
    policy.limit_mb = 256;
    rt.set_memory_policy("GPU", policy);
    rt.initialize();

    for (const hxrt::DeviceInfo& device : rt.devices()) {
      if (device.short_name == kGpu) {
        std::cout << kGpu << " memory policy: " << device.memory_policy << '\n';
      }
    }
    print_memory(rt, "at start");

    std::vector<hxrt::Tensor> tensors;
    for (size_t mib : {1, 4, 16, 64}) {
      tensors.push_back(tensor_of_mebibytes(rt, mib));
      print_memory(rt, "after a " + std::to_string(mib) + " MiB tensor");
    }

    tensors.clear();
    // The allocator keeps the regions: the next tensors reuse them without asking the device.
    print_memory(rt, "after freeing the tensors");

    const size_t released = rt.release_unused_memory(kGpu);
    std::cout << "release_unused_memory() gave back " << mebibytes(released) << '\n';
    print_memory(rt, "after release_unused_memory()");
  } catch (const hxrt::Error& error) {
    std::cerr << "memory_growth: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

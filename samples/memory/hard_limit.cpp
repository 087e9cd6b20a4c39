// A hard limit reached cleanly: a simulated GPU with 1 GiB is held to 64 MiB through the
// API. Tensors of 24 MiB are made until one does not fit; the out-of-memory error names the
// device, the request and the allocator's figures, and the program goes on: the tensors made
// before are intact and a request that fits still succeeds.
//
//   GPU:0 memory policy: growth, limit 64.00 MiB
//   tensor 0: 24 MiB filled with 1, in use 24.00 MiB
//   tensor 1: 24 MiB filled with 2, in use 48.00 MiB
//   tensor 2 does not fit: OUT_OF_MEMORY
//   <the error message>
//   tensor 0 still holds 1 in every element
//   tensor 1 still holds 2 in every element
//   an 8 MiB tensor still fits: in use 56.00 MiB
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"
#include "mebibytes.hpp"

namespace {

using memory_sample::kMiB;
using memory_sample::mebibytes;

const char* const kGpu = "GPU:0";
constexpr size_t kTensorMiB = 24;
constexpr size_t kSmallTensorMiB = 8;
// 64 MiB hold two 24 MiB tensors, so the loop ends long before this.
constexpr int kMostTensors = 10;

hxrt::Tensor filled_tensor(hxrt::Runtime& rt, size_t mib, float value) {
  const std::vector<float> values(mib * kMiB / sizeof(float), value);
  return rt.tensor<float>({static_cast<int64_t>(values.size())}, values, kGpu);
}

bool holds_only(const hxrt::Tensor& tensor, float value) {
  const std::vector<float> values = tensor.to_vector<float>();
  return std::all_of(values.begin(), values.end(), [&](float each) { return each == value; });
}

std::string in_use(const hxrt::Runtime& rt) {
  return "in use " + mebibytes(rt.memory_stats(kGpu).bytes_in_use);
}

}  // namespace

int main() {
  try {
    hxrt::RuntimeOptions options;
    options.plugin_options["sim"] = R"({"device_type": "GPU", "device_count": 1,
                                         "memory_mb": 1024})";
    hxrt::Runtime rt = hxrt::Runtime::create(options);

    // Like a TensorFlow logical device's memory_limit, but on the physical device itself.
    hxrt::MemoryPolicy policy;
    policy.limit_mb = 64;
    rt.set_memory_policy(kGpu, policy);
    rt.initialize();
    for (const hxrt::DeviceInfo& device : rt.devices()) {
      if (device.short_name == kGpu) {
        std::cout << kGpu << " memory policy: " << device.memory_policy << '\n';
      }
    }

    std::vector<hxrt::Tensor> tensors;
    bool limit_reached = false;
    for (int i = 0; i < kMostTensors && !limit_reached; ++i) {
      const auto value = static_cast<float>(i + 1);
      try {
        tensors.push_back(filled_tensor(rt, kTensorMiB, value));
        std::cout << "tensor " << i << ": " << kTensorMiB << " MiB filled with " << value << ", "
                  << in_use(rt) << '\n';
      } catch (const hxrt::Error& error) {
        if (error.code() != hxrt::StatusCode::kOutOfMemory) throw;
        std::cout << "tensor " << i << " does not fit: " << hxrt::status_code_name(error.code())
                  << '\n'
                  << error.what() << '\n';
        limit_reached = true;
      }
    }
    if (!limit_reached) {
      std::cerr << "hard_limit: " << kMostTensors << " tensors fit; the limit did not hold\n";
      return 1;
    }

    bool all_intact = true;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const auto value = static_cast<float>(i + 1);
      const bool intact = holds_only(tensors[i], value);
      all_intact = all_intact && intact;
      std::cout << "tensor " << i << (intact ? " still holds " : " no longer holds ") << value
                << " in every element\n";
    }

    const hxrt::Tensor small = filled_tensor(rt, kSmallTensorMiB, 0.5f);
    std::cout << "an " << kSmallTensorMiB << " MiB tensor still fits: " << in_use(rt) << '\n';
    if (!all_intact) return 1;
  } catch (const hxrt::Error& error) {
    std::cerr << "hard_limit: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

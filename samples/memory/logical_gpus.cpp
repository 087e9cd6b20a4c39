// Logical devices from a config file: config/examples/logical_gpus.json makes the sim plugin
// one physical GPU with 2048 MiB and splits it into two logical GPUs of 1024 MiB each, as
// tf.config.set_logical_device_configuration does. The sample lists both views of the
// devices, runs a MatMul on each logical GPU and shows each one's own limit.
//
//   build/bin/memory_logical_gpus config/examples/logical_gpus.json
//
//   Physical devices:
//     /physical_device:GPU:0 (sim, 2048.00 MiB) -> GPU:0, GPU:1
//   Logical devices:
//     /job:localhost/replica:0/task:0/device:GPU:0 on physical GPU:0, memory policy: ...
//     /job:localhost/replica:0/task:0/device:GPU:1 on physical GPU:0, memory policy: ...
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
//   GPU:0: [[22, 28], [49, 64]]
//   GPU:0 memory: limit 1024.00 MiB, in use ..., reserved ...
//   (the same for GPU:1)
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "hxrt/hxrt.hpp"
#include "mebibytes.hpp"

namespace {

using memory_sample::mebibytes;

constexpr int kUsageError = 2;

std::string join(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

void print_physical_devices(const hxrt::Runtime& rt) {
  std::cout << "Physical devices:\n";
  for (const hxrt::PhysicalDeviceInfo& device : rt.physical_devices()) {
    std::cout << "  " << device.name << " (" << device.plugin << ", "
              << mebibytes(device.memory_total) << ") -> "
              << (device.logical.empty() ? "not visible" : join(device.logical)) << '\n';
  }
}

void print_logical_devices(const std::vector<hxrt::DeviceInfo>& devices) {
  std::cout << "Logical devices:\n";
  for (const hxrt::DeviceInfo& device : devices) {
    std::cout << "  " << device.name << " on physical " << device.physical
              << ", memory policy: " << device.memory_policy << '\n';
  }
}

void run_matmul_on(hxrt::Runtime& rt, const hxrt::DeviceInfo& gpu) {
  auto scope = rt.device(gpu.name);
  const hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  const hxrt::Tensor c = rt.execute("MatMul", {a, b});
  std::cout << gpu.short_name << ": " << c.to_string() << '\n';

  const hxrt::MemoryStats stats = rt.memory_stats(gpu.short_name);
  std::cout << gpu.short_name << " memory: limit " << mebibytes(stats.bytes_limit) << ", in use "
            << stats.bytes_in_use << " B, reserved " << mebibytes(stats.bytes_reserved) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  const char* config_from_environment = std::getenv("HXRT_CONFIG");
  const bool has_config_from_environment =
      config_from_environment != nullptr && *config_from_environment != '\0';
  if (argc > 2 || (argc < 2 && !has_config_from_environment)) {
    std::cerr << "usage: memory_logical_gpus CONFIG_FILE (or set HXRT_CONFIG)\n"
              << "  config/examples/logical_gpus.json splits one sim GPU into two\n";
    return kUsageError;
  }
  try {
    hxrt::RuntimeOptions options;
    // Without an argument the runtime reads $HXRT_CONFIG itself.
    if (argc == 2) options.config_path = argv[1];
    options.log_device_placement = true;
    // Placement lines go to stdout, so that they and the results read as one stream.
    options.log_sink = [](hxrt::LogLevel, std::string_view line) { std::cout << line << '\n'; };
    hxrt::Runtime rt = hxrt::Runtime::create(options);

    // devices() initialises the runtime, which makes the logical devices: only then does
    // physical_devices() know which logical devices each physical one became.
    const std::vector<hxrt::DeviceInfo> devices = rt.devices();
    print_physical_devices(rt);
    print_logical_devices(devices);

    for (const hxrt::DeviceInfo& device : devices) {
      if (device.type == "GPU") run_matmul_on(rt, device);
    }
  } catch (const hxrt::Error& error) {
    std::cerr << "memory_logical_gpus: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

// A host application that embeds hxrt from an installed package: it starts the runtime with a
// config file, prints what was loaded and the devices, runs a MatMul, then runs each op named
// on the command line on a small float32 tensor.
//
//   hxrt_embed CONFIG.json [OP]...
//
// Set "log_device_placement": true in the config to see where each op runs:
//
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:CPU:0
//   MatMul: [[22, 28], [49, 64]]
//
// Every failure (a bad config, an unknown op, a device out of memory, ...) is an hxrt::Error:
// the program prints it and exits with 1.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <hxrt/hxrt.hpp>

namespace {

void print_plugins(const hxrt::Runtime& rt) {
  size_t loaded = 0;
  for (const hxrt::PluginReport& plugin : rt.load_report()) loaded += plugin.loaded ? 1 : 0;
  std::cout << "Plugins: " << loaded << " loaded, " << rt.load_report().size() - loaded
            << " skipped\n";
  for (const hxrt::PluginReport& plugin : rt.load_report()) {
    if (plugin.loaded) {
      std::cout << "  loaded: " << plugin.name << ' ' << plugin.version << " ("
                << plugin.device_type << ", " << plugin.device_count
                << (plugin.device_count == 1 ? " device" : " devices") << ") from "
                << plugin.path << '\n';
      // A plugin can be loaded with no devices, and says why (no driver, say).
      if (!plugin.note.empty()) std::cout << "    note: " << plugin.note << '\n';
    } else {
      std::cout << "  skipped: " << plugin.path << ": " << plugin.reason << '\n';
    }
  }
}

void print_devices(const hxrt::Runtime& rt) {
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  std::cout << "Devices: " << devices.size() << '\n';
  for (const hxrt::DeviceInfo& device : devices) {
    std::cout << "  " << device.name << " (plugin " << device.plugin << ", "
              << (device.product.empty() ? "unknown product" : device.product) << ")\n";
  }
}

int run(const std::string& config_path, const std::vector<std::string>& ops) {
  hxrt::RuntimeOptions options;
  options.config_path = config_path;
  // Log lines go to stdout, so that placement and results read as one stream in order.
  options.log_sink = [](hxrt::LogLevel, std::string_view line) { std::cout << line << '\n'; };
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  print_plugins(rt);
  print_devices(rt);

  hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  // The op runs (and logs where) before its result is printed.
  hxrt::Tensor c = rt.execute("MatMul", {a, b});
  std::cout << "MatMul: " << c.to_string() << '\n';

  // Ops that a plugin registered (CSample_LeakyRelu from samples/c_plugin) run like the core's
  // own: the placer picks a device whose plugin has a kernel for them.
  hxrt::Tensor x = rt.tensor<float>({5}, {-2, -1, 0, 1, 2});
  for (const std::string& op : ops) {
    hxrt::Tensor y = rt.execute(op, {x});
    std::cout << op << '(' << x.to_string() << "): " << y.to_string() << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: hxrt_embed CONFIG.json [OP]...\n";
    return 2;
  }
  try {
    return run(argv[1], std::vector<std::string>(argv + 2, argv + argc));
  } catch (const hxrt::Error& error) {
    std::cout.flush();
    std::cerr << "hxrt_embed: " << hxrt::status_code_name(error.code()) << ": " << error.what()
              << '\n';
    return 1;
  }
}

#include "text_report.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "text_table.hpp"

namespace hxrt_info {
namespace {

const char* const kIndent = "  ";

std::string mebibytes(uint64_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MiB"; }

std::string join_dtypes(const std::vector<hxrt::DType>& dtypes) {
  std::string joined;
  for (hxrt::DType dtype : dtypes) {
    if (!joined.empty()) joined += ',';
    joined += hxrt::dtype_name(dtype);
  }
  return joined;
}

void print_plugins(std::ostream& out, const std::vector<hxrt::PluginReport>& plugins) {
  size_t loaded = 0;
  for (const hxrt::PluginReport& plugin : plugins) loaded += plugin.loaded ? 1 : 0;
  out << "Plugins: " << loaded << " loaded, " << plugins.size() - loaded << " skipped\n";
  if (plugins.empty()) {
    out << kIndent
        << "no plugin files found; add folders with HXRT_PLUGIN_PATH or plugins.search_paths\n";
    return;
  }
  TextTable table({"STATUS", "NAME", "VERSION", "ABI", "TYPE", "DEVICES", "FILE"});
  for (const hxrt::PluginReport& plugin : plugins) {
    table.add_row({plugin.loaded ? "loaded" : "skipped", plugin.name, plugin.version,
                   plugin.abi_version, plugin.device_type,
                   plugin.loaded ? std::to_string(plugin.device_count) : "", plugin.path});
    if (!plugin.reason.empty()) table.add_note("reason: " + plugin.reason);
    if (!plugin.note.empty()) table.add_note("note: " + plugin.note);
  }
  table.print(out, kIndent);
}

void print_devices(std::ostream& out, const std::vector<hxrt::DeviceInfo>& devices) {
  out << "Devices: " << devices.size() << '\n';
  for (const hxrt::DeviceInfo& device : devices) {
    out << kIndent << device.name << '\n';
    const std::pair<const char*, std::string> fields[] = {
        {"type", device.type},
        {"plugin", device.plugin},
        {"product", device.product},
        {"vendor", device.vendor},
        {"arch", device.arch},
        {"bus id", device.bus_id},
        {"NUMA node", device.numa_node < 0 ? "" : std::to_string(device.numa_node)},
        {"compute units", device.compute_units == 0 ? "" : std::to_string(device.compute_units)},
        {"memory total", mebibytes(device.memory_total)},
        {"memory free", mebibytes(device.memory_free)},
    };
    for (const auto& [label, value] : fields) {
      std::string padded = label;
      padded.resize(15, ' ');
      out << kIndent << kIndent << padded << (value.empty() ? "-" : value) << '\n';
    }
  }
}

void print_kernels(std::ostream& out, const std::vector<hxrt::KernelInfo>& kernels) {
  out << "Kernels: " << kernels.size() << '\n';
  if (kernels.empty()) return;
  TextTable table({"OP", "DEVICE TYPE", "DTYPES", "PRIORITY", "PLUGIN"});
  for (const hxrt::KernelInfo& kernel : kernels) {
    table.add_row({kernel.op, kernel.device_type, join_dtypes(kernel.dtypes),
                   std::to_string(kernel.priority), kernel.plugin});
  }
  table.print(out, kIndent);
}

}  // namespace

void print_text_report(std::ostream& out, const Snapshot& snapshot) {
  print_plugins(out, snapshot.plugins);
  out << '\n';
  print_devices(out, snapshot.devices);
  out << '\n';
  print_kernels(out, snapshot.kernels);
}

}  // namespace hxrt_info

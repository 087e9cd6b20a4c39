#include "text_report.hpp"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "byte_format.hpp"
#include "hxrt/printable.hpp"
#include "hxtools/text_table.hpp"

namespace hxrt_info {
namespace {

const char* const kIndent = "  ";
// Wide enough for the longest label, "largest free block".
constexpr size_t kLabelWidth = 20;

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string joined;
  for (const std::string& part : parts) {
    if (!joined.empty()) joined += separator;
    joined += part;
  }
  return joined;
}

std::string dtype_column(const std::vector<hxrt::DType>& dtypes) {
  std::vector<std::string> names;
  for (hxrt::DType dtype : dtypes) names.push_back(hxrt::dtype_name(dtype));
  return join(names, ",");
}

std::string percent(double fraction) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", fraction * 100);
  return text;
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
  hxtools::TextTable table({"STATUS", "NAME", "VERSION", "ABI", "TYPE", "DEVICES", "FILE"});
  for (const hxrt::PluginReport& plugin : plugins) {
    table.add_row({plugin.loaded ? "loaded" : "skipped", plugin.name, plugin.version,
                   plugin.abi_version, plugin.device_type,
                   plugin.loaded ? std::to_string(plugin.device_count) : "",
                   hxrt::printable(plugin.path)});
    if (!plugin.reason.empty()) table.add_note("reason: " + plugin.reason);
    if (!plugin.note.empty()) table.add_note("note: " + plugin.note);
  }
  table.print(out, kIndent);
}

// The physical -> visible -> logical mapping: one row per device a plugin reports, with the
// logical devices made from it, or "not visible" when the visible filter removed it.
void print_physical_devices(std::ostream& out,
                            const std::vector<hxrt::PhysicalDeviceInfo>& devices) {
  out << "Physical devices: " << devices.size() << '\n';
  if (devices.empty()) return;
  hxtools::TextTable table({"PHYSICAL", "PLUGIN", "PRODUCT", "MEMORY", "LOGICAL DEVICES"});
  for (const hxrt::PhysicalDeviceInfo& device : devices) {
    table.add_row({device.short_name, device.plugin, device.product,
                   format_bytes(device.memory_total),
                   device.logical.empty() ? "not visible" : join(device.logical, ", ")});
  }
  table.print(out, kIndent);
}

void print_fields(std::ostream& out,
                  const std::vector<std::pair<const char*, std::string>>& fields) {
  for (const auto& [label, value] : fields) {
    std::string padded = label;
    padded.resize(kLabelWidth, ' ');
    out << kIndent << kIndent << padded << (value.empty() ? "-" : value) << '\n';
  }
}

void print_devices(std::ostream& out, const std::vector<DeviceSnapshot>& devices) {
  out << "Devices: " << devices.size() << '\n';
  for (const auto& [device, memory] : devices) {
    out << kIndent << device.name << '\n';
    print_fields(out, {
        {"type", device.type},
        {"physical", device.physical},
        {"plugin", device.plugin},
        {"product", device.product},
        {"vendor", device.vendor},
        {"arch", device.arch},
        {"bus id", device.bus_id},
        {"NUMA node", device.numa_node < 0 ? "" : std::to_string(device.numa_node)},
        {"compute units", device.compute_units == 0 ? "" : std::to_string(device.compute_units)},
        {"placement class", device.placement_class},
        {"memory kind", device.memory_kind},
        {"memory total", format_bytes(device.memory_total)},
        {"memory free", device.memory_free ? format_bytes(*device.memory_free) : "unknown"},
        {"max allocation",
         device.max_allocation == 0 ? "no limit" : format_bytes(device.max_allocation)},
        {"alignment", std::to_string(device.alignment) + " B"},
        {"kernels' alignment", std::to_string(device.min_alignment) + " B"},
        {"max binding", device.max_binding == 0 ? "no limit" : format_bytes(device.max_binding)},
        {"cross-device waits", device.cross_device_wait},
        {"memory policy", device.memory_policy},
    });
    if (!memory) continue;  // another task's device: its allocator is that task's
    print_fields(out, {
        {"memory in use", format_bytes(memory->bytes_in_use)},
        {"memory peak", format_bytes(memory->peak_bytes_in_use)},
        {"memory reserved", format_bytes(memory->bytes_reserved)},
        {"memory limit", format_limit(memory->bytes_limit)},
        {"allocations", std::to_string(memory->allocation_count) + " live, " +
                            std::to_string(memory->total_allocations) + " since start"},
        {"largest free block", format_bytes(memory->largest_free_block)},
        {"fragmentation", percent(memory->fragmentation)},
    });
  }
}

void print_kernels(std::ostream& out, const std::vector<hxrt::KernelInfo>& kernels) {
  out << "Kernels: " << kernels.size() << '\n';
  if (kernels.empty()) return;
  hxtools::TextTable table({"OP", "DEVICE TYPE", "DTYPES", "PRIORITY", "PLUGIN"});
  for (const hxrt::KernelInfo& kernel : kernels) {
    table.add_row({kernel.op, kernel.device_type, dtype_column(kernel.dtypes),
                   std::to_string(kernel.priority), kernel.plugin});
  }
  table.print(out, kIndent);
}

}  // namespace

void print_text_report(std::ostream& out, const Snapshot& snapshot) {
  if (snapshot.cluster.in_cluster) {
    out << "Cluster: " << snapshot.cluster.tasks.size() << " tasks ("
        << snapshot.cluster.mpi_library << "); this report is "
        << snapshot.cluster.task << "'s\n";
    for (size_t rank = 0; rank < snapshot.cluster.tasks.size(); ++rank) {
      out << kIndent << "rank " << rank << "  " << snapshot.cluster.tasks[rank] << '\n';
    }
    out << '\n';
  }
  print_plugins(out, snapshot.plugins);
  out << '\n';
  print_physical_devices(out, snapshot.physical);
  out << '\n';
  print_devices(out, snapshot.devices);
  out << '\n';
  print_kernels(out, snapshot.kernels);
}

}  // namespace hxrt_info

#include "device.hpp"

#include <hxplugin/status.hpp>

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "plugin_state.hpp"

namespace hxcpu {
namespace {

std::string trim(const std::string& text) {
  const char* blanks = " \t\r\n";
  const size_t first = text.find_first_not_of(blanks);
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

// The value of the first "key : value" line of /proc/cpuinfo whose key is `key`.
std::string cpuinfo_field(const std::string& key) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    const size_t colon = line.find(':');
    if (colon != std::string::npos && trim(line.substr(0, colon)) == key) {
      return trim(line.substr(colon + 1));
    }
  }
  return {};
}

int32_t online_cores() {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores > 0) return static_cast<int32_t>(cores);
  return static_cast<int32_t>(std::thread::hardware_concurrency());  // 0 when unknown
}

uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

// A kernel built with NUMA support lists node0; the host device then lives on it.
int32_t numa_node() {
  std::ifstream node0("/sys/devices/system/node/node0/cpulist");
  return node0.good() ? 0 : -1;
}

std::string machine_arch() {
  utsname names{};
  if (uname(&names) != 0) return {};
  return names.machine;
}

const char* or_null(const std::string& text) { return text.empty() ? nullptr : text.c_str(); }

}  // namespace

void probe_host(CpuDevice& device) {
  device.product = cpuinfo_field("model name");
  device.vendor = cpuinfo_field("vendor_id");
  device.arch = machine_arch();
  device.memory_total = physical_memory_bytes();
  device.numa_node = numa_node();
  device.compute_units = online_cores();
}

hx_status* device_count(hx_plugin* plugin, int32_t* out_count) {
  (void)plugin;
  *out_count = 1;
  return nullptr;
}

hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  CpuPlugin& state = from_handle(plugin);
  if (ordinal != 0) {
    return hxplugin::make_status(
        *state.services, HX_OUT_OF_RANGE,
        "cpu plugin: device ordinal %d does not exist (there is one CPU device, "
        "ordinal 0)",
        static_cast<int>(ordinal));
  }
  *out_device = to_handle(&state.device);
  return nullptr;
}

hx_status* device_properties(hx_device* device, hx_device_properties* props) {
  const CpuDevice& cpu = from_handle(device);
  // Written field by field: an older core's struct may end before the newer fields.
  const size_t known = props->struct_size;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, name)) props->name = or_null(cpu.product);
  if (known >= HX_STRUCT_SIZE(hx_device_properties, vendor)) props->vendor = or_null(cpu.vendor);
  if (known >= HX_STRUCT_SIZE(hx_device_properties, bus_id)) props->bus_id = nullptr;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, arch)) props->arch = or_null(cpu.arch);
  if (known >= HX_STRUCT_SIZE(hx_device_properties, memory_total)) {
    props->memory_total = cpu.memory_total;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, numa_node)) props->numa_node = cpu.numa_node;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, compute_units)) {
    props->compute_units = cpu.compute_units;
  }
  // Buffers are host addresses (memory.hpp); one allocation may take all of the host's memory.
  if (known >= HX_STRUCT_SIZE(hx_device_properties, memory_kind)) {
    props->memory_kind = HX_MEMORY_HOST;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, placement_class)) {
    props->placement_class = HX_PLACEMENT_CPU;
  }
  if (known >= HX_STRUCT_SIZE(hx_device_properties, max_allocation)) props->max_allocation = 0;
  if (known >= HX_STRUCT_SIZE(hx_device_properties, alignment)) {
    props->alignment = kCpuAlignment;
  }
  // Its loops and libraries read any element's address (unaligned SIMD loads, oneDNN and
  // OpenBLAS): NumPy's arrays, 16-byte aligned, are taken in place.
  if (known >= HX_STRUCT_SIZE(hx_device_properties, min_alignment)) props->min_alignment = 1;
  return nullptr;
}

}  // namespace hxcpu

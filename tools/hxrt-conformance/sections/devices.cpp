// The devices section: the count, the handles, the properties (written only as far as the
// core's struct_size reaches) and the memory figures of every device.
#include <cstring>
#include <set>
#include <string>

#include "sections/sections.hpp"

namespace hxrt_conformance {
namespace {

// Most devices a plugin may sensibly report; more is a garbage count.
constexpr int32_t kMostDevices = 4096;

void check_count(const PluginSession& session, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  int32_t first = -1;
  int32_t second = -1;
  const Outcome counted = KitCore::take(api.device_count(api.plugin, &first));
  if (!counted.ok()) {
    if (counted.code == HX_UNAVAILABLE && !counted.message.empty()) {
      log.pass("device_count", "UNAVAILABLE, so no devices: " + counted.message);
    } else {
      log.fail("device_count", "returned " + describe(counted) +
                                   "; only UNAVAILABLE with a message saying why means "
                                   "\"no devices\", anything else makes the core skip the plugin");
    }
    return;
  }
  if (!log.expect(first >= 0 && first <= kMostDevices, "device_count",
                  "the count is " + std::to_string(first) + "; report 0 to " +
                      std::to_string(kMostDevices) + " devices")) {
    return;
  }
  const Outcome again = KitCore::take(api.device_count(api.plugin, &second));
  log.expect(again.ok() && second == first, "device_count is stable",
             "a second call gave " + (again.ok() ? std::to_string(second) : describe(again)) +
                 ", the first " + std::to_string(first) +
                 "; the device set is fixed from init to shutdown");
}

void check_handles(const PluginSession& session, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  const std::vector<hx_device*>& devices = session.devices();
  std::set<hx_device*> distinct(devices.begin(), devices.end());
  log.expect(distinct.size() == devices.size(), "device_get gives a distinct handle per ordinal",
             "two ordinals share a handle; each device needs its own hx_device*");
  std::string unstable;
  for (size_t ordinal = 0; ordinal < devices.size(); ++ordinal) {
    hx_device* again = nullptr;
    const Outcome got =
        KitCore::take(api.device_get(api.plugin, static_cast<int32_t>(ordinal), &again));
    if (!got.ok() || again != devices[ordinal]) {
      unstable += " " + std::to_string(ordinal);
    }
  }
  log.expect(unstable.empty(), "device_get is stable",
             "a second device_get gave another handle (or failed) for ordinal(s)" + unstable +
                 "; handles are borrowed until shutdown and must not change");
}

// A byte the plugin has no business writing.
constexpr unsigned char kCanary = 0xA5;

std::string text_problem(const char* text, const char* field) {
  if (text == nullptr) return {};
  const size_t length = strnlen(text, 4096);
  if (length == 4096) return std::string(field) + " is not NUL-terminated within 4096 bytes; ";
  if (length == 0) return std::string(field) + " is \"\" (use NULL when unknown); ";
  return {};
}

bool power_of_two(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

// What the core plans memory and placement by: each must be one the header allows, or the core
// leaves the device out (kinds and classes) or cannot place tensors in it (alignment).
void check_memory_properties(const hx_device_properties& props, const std::string& which,
                             SectionLog& log) {
  const char* kind = hx_memory_kind_name(props.memory_kind);
  const char* placement = hx_placement_class_name(props.placement_class);
  std::string wrong;
  if (kind == nullptr) {
    wrong += "memory_kind is " + std::to_string(props.memory_kind) +
             ", not an hx_memory_kind (HX_MEMORY_DEVICE, HX_MEMORY_HOST_VISIBLE or "
             "HX_MEMORY_HOST); ";
  }
  if (placement == nullptr) {
    wrong += "placement_class is " + std::to_string(props.placement_class) +
             ", not an hx_placement_class (HX_PLACEMENT_DISCRETE_ACCELERATOR, "
             "HX_PLACEMENT_HOST_ACCELERATOR or HX_PLACEMENT_CPU); ";
  }
  const char* wait = hx_cross_device_wait_name(props.cross_device_wait);
  if (wait == nullptr) {
    wrong += "cross_device_wait is " + std::to_string(props.cross_device_wait) +
             ", not an hx_cross_device_wait (HX_WAIT_IN_PLUGIN or HX_WAIT_ON_HOST); ";
  }
  log.expect(wrong.empty(), which + "memory kind, placement class and waits are declared",
             wrong + "the core leaves a device with any other value out");
  if (wrong.empty()) {
    log.pass(which + "memory and placement",
             std::string(kind) + " memory, " + placement + ", alignment " +
                 std::to_string(props.alignment) + ", max_allocation " +
                 std::to_string(props.max_allocation) + ", max_binding " +
                 std::to_string(props.max_binding) + ", cross-device waits " + wait);
  }
  log.expect(props.alignment == 0 || (power_of_two(props.alignment) && props.alignment <= 4096),
             which + "alignment is 0 or a power of two from 1 to 4096",
             "alignment is " + std::to_string(props.alignment) +
                 "; declare the alignment allocate gives and kernels need, a power of two from "
                 "1 to 4096 (0 means 256)");
  const uint64_t alignment = props.alignment == 0 ? 256 : props.alignment;
  log.expect(props.min_alignment == 0 ||
                 (power_of_two(props.min_alignment) && props.min_alignment <= alignment),
             which + "min_alignment is 0 or a power of two no larger than alignment",
             "min_alignment is " + std::to_string(props.min_alignment) + " with alignment " +
                 std::to_string(alignment) + "; declare the alignment the kernels need of a "
                 "tensor's first element (0 means alignment)");
}

void check_properties(const PluginSession& session, size_t ordinal, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  hx_device* device = session.devices()[ordinal];
  const std::string which = "device " + std::to_string(ordinal) + ": ";

  hx_device_properties props;
  std::memset(&props, 0, sizeof props);
  props.struct_size = HX_DEVICE_PROPERTIES_STRUCT_SIZE;
  const Outcome filled = KitCore::take(api.device_properties(device, &props));
  if (!filled.ok()) {
    log.fail(which + "device_properties", "returned " + describe(filled));
    return;
  }
  std::string problems = text_problem(props.name, "name") + text_problem(props.vendor, "vendor") +
                         text_problem(props.bus_id, "bus_id") + text_problem(props.arch, "arch");
  if (props.numa_node < -1) problems += "numa_node is below -1 (use -1 when unknown); ";
  if (props.compute_units < 0) problems += "compute_units is negative (use 0 when unknown); ";
  if (props.extensions != nullptr) problems += "extensions was set (leave it NULL); ";
  log.expect(problems.empty(), which + "device_properties are well formed", problems);
  if (problems.empty()) {
    log.pass(which + "identity", std::string(props.name ? props.name : "(no name)") + ", " +
                                     (props.vendor ? props.vendor : "(no vendor)") + ", " +
                                     std::to_string(props.memory_total >> 20) + " MiB, " +
                                     std::to_string(props.compute_units) + " compute units");
  }
  check_memory_properties(props, which, log);

  // An older core knows fewer fields: the plugin must not write past its struct_size.
  struct {
    hx_device_properties props;
    unsigned char beyond[64];
  } older;
  std::memset(&older, kCanary, sizeof older);
  const size_t older_size = offsetof(hx_device_properties, memory_total);
  std::memset(&older.props, 0, older_size);
  older.props.struct_size = older_size;
  const Outcome older_filled = KitCore::take(api.device_properties(device, &older.props));
  bool untouched = true;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&older);
  for (size_t i = older_size; i < sizeof older; ++i) untouched = untouched && bytes[i] == kCanary;
  log.expect(older_filled.ok() && untouched, which + "device_properties honours struct_size",
             older_filled.ok()
                 ? "given struct_size " + std::to_string(older_size) +
                       " (a core that knows fields up to arch), it wrote bytes beyond it; "
                       "write a field only if struct_size covers it (HX_STRUCT_SIZE)"
                 : "given a smaller struct_size it returned " + describe(older_filled) +
                       "; fill what the struct_size covers and succeed");
}

// Optional: NULL or a status both mean "unknown", which the core shows as such.
void check_memory_info(const PluginSession& session, size_t ordinal, SectionLog& log) {
  const hx_plugin_api& api = session.api();
  const std::string check = "device " + std::to_string(ordinal) + ": memory_info";
  if (api.memory_info == nullptr) {
    log.skip(check, "absent (NULL): the core shows free memory as unknown");
    return;
  }
  uint64_t free_bytes = 0;
  uint64_t total = 0;
  const Outcome read =
      KitCore::take(api.memory_info(session.devices()[ordinal], &free_bytes, &total));
  if (!read.ok()) {
    if (read.message.empty()) {
      log.fail(check, "returned " + std::string(hx_status_code_name(read.code)) +
                          " with an empty message; the core logs the message as the reason free "
                          "memory is unknown, so say why");
    } else {
      log.pass(check, "unknown: " + describe(read));
    }
  } else if (total == 0 || free_bytes > total) {
    log.fail(check, "free " + std::to_string(free_bytes) + " and total " +
                        std::to_string(total) +
                        " bytes; total must be above 0 and free at most total (return a status, "
                        "or leave memory_info NULL, when the plugin cannot tell)");
  } else {
    log.pass(check, std::to_string(free_bytes >> 20) + " of " + std::to_string(total >> 20) +
                        " MiB free");
  }
}

}  // namespace

void check_devices(const Target&, PluginSession& session, SectionLog& log) {
  check_count(session, log);
  if (!require_devices(session, log, "device handles and properties")) return;
  check_handles(session, log);
  for (size_t ordinal = 0; ordinal < session.devices().size(); ++ordinal) {
    check_properties(session, ordinal, log);
    check_memory_info(session, ordinal, log);
  }
}

}  // namespace hxrt_conformance

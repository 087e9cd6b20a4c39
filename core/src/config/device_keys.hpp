// How the config names devices: a device type ("GPU") or one physical device ("GPU:0"), in
// any case, bare or with the guide's prefixes ("/GPU:0", "/device:GPU:0",
// "/physical_device:GPU:0"). Names of logical devices ("/job:localhost/.../device:GPU:0") are
// not accepted: the device settings describe physical devices, before the logical split.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace hxrt::detail {

struct DeviceKey {
  std::string type;  // upper case: "GPU"
  int index = -1;    // the physical device's ordinal; -1: the whole type

  bool names_device() const { return index >= 0; }
  // "GPU" or "GPU:0": the form stored in DeviceSettings and used in Config::origins.
  std::string canonical() const;
};

// The patterns of "devices" keys and "visible_devices" items. The parser matches exactly these,
// and config/hxrt.schema.json is generated with them (settings_schema.cpp), so the schema and
// the loader accept the same names; only an index above 2147483647 is the loader's alone to
// refuse.
extern const char* const kDeviceTypePattern;
extern const char* const kPhysicalDevicePattern;
// The longest device name or key the config takes, the schema's maxLength for both. Longer
// text is refused before the patterns see it: std::regex recurses once per character it
// repeats over and runs out of stack on a long enough name.
constexpr size_t kMaxDeviceNameBytes = 256;

// nullopt when `text` is neither form, is longer than kMaxDeviceNameBytes, or its index
// does not fit an int.
std::optional<DeviceKey> parse_device_key(const std::string& text);

// As parse_device_key, failing with the accepted forms in the message.
DeviceKey read_device_key(const std::string& text, const std::string& source,
                          const std::string& path);
// A physical device ("GPU:0"); a type alone ("GPU") fails.
DeviceKey read_physical_device(const std::string& text, const std::string& source,
                               const std::string& path);

// Settings that belong to one kind of key. A device count limits a type, so it fails under
// a device ("GPU:0"); logical devices split one device, so they fail under a type ("GPU").
// Each message says where the setting goes. `path`: the setting's pointer.
void check_device_count_key(const DeviceKey& key, const std::string& source,
                            const std::string& path);
void check_logical_devices_key(const DeviceKey& key, const std::string& source,
                               const std::string& path);

}  // namespace hxrt::detail

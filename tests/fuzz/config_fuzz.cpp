// The configuration layers (core/src/config) and the device plan they feed, without loading a
// plugin. The input is the config file's text, optionally followed by a NUL byte and lines
// "HXRT_NAME=value" set as environment variables for this input (so the seeds are plain config
// files, and the environment is fuzzed through the same readers).
//
// Oracle: the file and the environment either give a Config or throw Error(kInvalidArgument)
// that names its source and where the mistake is (a JSON pointer, or the line and column of
// malformed JSON); effective_settings never throws; the plan of five fixed physical devices
// either succeeds or throws Error(kInvalidArgument). Anything else (another exception, a
// crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "config/config_layers.hpp"
#include "devices/device_plan.hpp"
#include "hxrt/error.hpp"

namespace {

constexpr const char* kFileName = "fuzz.json";
constexpr std::string_view kVariablePrefix = "HXRT_";

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "config_fuzz: %s\n", what.c_str());
  std::abort();
}

// A mistake in a value is located: "<source>: /pointer: ..." or, for text that is not JSON,
// "<source>: malformed JSON at line L, column C: ..." (or the nesting limit's message).
bool located(const std::string& message) {
  const size_t colon = message.find(": ");
  if (colon == std::string::npos) return false;
  const std::string source = message.substr(0, colon);
  if (source != std::string("file ") + kFileName && source.rfind("environment HXRT_", 0) != 0) {
    return false;
  }
  const std::string_view rest = std::string_view(message).substr(colon + 2);
  return rest.rfind('/', 0) == 0 || rest.rfind("malformed JSON at ", 0) == 0 ||
         rest.rfind("nesting deeper than ", 0) == 0;
}

// Sets each "HXRT_NAME=value" line of `text` and unsets them all when it goes.
class FuzzedEnvironment {
 public:
  explicit FuzzedEnvironment(std::string_view text) {
    while (!text.empty()) {
      const size_t end = text.find('\n');
      const std::string_view line = text.substr(0, end);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
      const size_t equals = line.find('=');
      if (line.rfind(kVariablePrefix, 0) != 0 || equals == std::string_view::npos) continue;
      const std::string name(line.substr(0, equals));
      // setenv stops at a NUL; the readers never see one, as with a real environment.
      const std::string value(line.substr(equals + 1));
      if (setenv(name.c_str(), value.c_str(), 1) == 0) names_.push_back(name);
    }
  }
  ~FuzzedEnvironment() {
    for (const std::string& name : names_) unsetenv(name.c_str());
  }
  FuzzedEnvironment(const FuzzedEnvironment&) = delete;
  FuzzedEnvironment& operator=(const FuzzedEnvironment&) = delete;

 private:
  std::vector<std::string> names_;
};

hxrt::PhysicalDeviceInfo physical(const std::string& type, int id, uint64_t memory_total) {
  hxrt::PhysicalDeviceInfo device;
  device.short_name = type + ":" + std::to_string(id);
  device.name = "/physical_device:" + device.short_name;
  device.type = type;
  device.id = id;
  device.plugin = "fuzz";
  device.memory_total = memory_total;
  return device;
}

// Ordinary devices, one whose plugin reports no total memory (fractions of it are errors) and
// one that reports the most a uint64_t holds (the plan's arithmetic must not overflow).
const std::vector<hxrt::PhysicalDeviceInfo>& physical_devices() {
  static const std::vector<hxrt::PhysicalDeviceInfo> devices = {
      physical("CPU", 0, uint64_t{64} << 30), physical("GPU", 0, uint64_t{16} << 30),
      physical("GPU", 1, uint64_t{16} << 30), physical("SIM", 0, 0),
      physical("BIG", 0, UINT64_MAX)};
  return devices;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t separator = input.find('\0');
  const std::string text(input.substr(0, separator));
  const FuzzedEnvironment environment(
      separator == std::string_view::npos ? std::string_view() : input.substr(separator + 1));

  hxrt::detail::Config config;
  try {
    hxrt::detail::apply_config_text(text, kFileName, config);
    hxrt::detail::apply_environment(config);
  } catch (const hxrt::Error& error) {
    if (error.code() != hxrt::StatusCode::kInvalidArgument || !located(error.what())) {
      finding(std::string("a config error without code INVALID_ARGUMENT, its source and where "
                          "the mistake is: ") +
              hxrt::status_code_name(error.code()) + ": " + error.what());
    }
    return 0;
  }

  for (const hxrt::ConfigSetting& setting : hxrt::detail::effective_settings(config)) {
    if (setting.path.empty() || setting.path[0] != '/' || setting.value.empty()) {
      finding("effective setting without a path or a value: '" + setting.path + "' = '" +
              setting.value + "'");
    }
  }

  try {
    hxrt::detail::plan_devices(physical_devices(), config.devices);
  } catch (const hxrt::Error& error) {
    if (error.code() != hxrt::StatusCode::kInvalidArgument) {
      finding(std::string("a device plan error with code ") +
              hxrt::status_code_name(error.code()) + ": " + error.what());
    }
  }
  return 0;
}

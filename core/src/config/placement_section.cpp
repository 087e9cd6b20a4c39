#include <cctype>

#include "config/config_sections.hpp"
#include "base/device_name.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

std::vector<std::string> read_device_priority(const nlohmann::json& value,
                                              const std::string& source) {
  const std::string path = "/placement/device_priority";
  std::vector<std::string> types = read_strings(value, source, path);
  for (size_t i = 0; i < types.size(); ++i) {
    std::string& type = types[i];
    for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    bool valid = !type.empty() && std::isupper(static_cast<unsigned char>(type[0]));
    for (char c : type) {
      valid = valid && (std::isupper(static_cast<unsigned char>(c)) ||
                        std::isdigit(static_cast<unsigned char>(c)) || c == '_');
    }
    if (!valid) {
      fail(source, pointer_child(path, i),
           "expected a device type like \"GPU\" ([A-Z][A-Z0-9_]*), got \"" + shown(type) +
               "\"");
    }
  }
  return types;
}

}  // namespace

SoftPlacement read_soft_placement(const nlohmann::json& mode, const std::string& source) {
  for (SoftPlacement candidate : {SoftPlacement::kStrict, SoftPlacement::kFallbackOnMissingKernel,
                                  SoftPlacement::kSoft}) {
    if (mode.is_string() && mode.get<std::string>() == soft_placement_name(candidate)) {
      return candidate;
    }
  }
  fail(source, "/placement/soft_placement",
       "expected one of \"strict\", \"missing_kernel\", \"soft\", got " + type_of(mode));
}

nlohmann::json json_of(SoftPlacement mode) {
  switch (mode) {
    case SoftPlacement::kStrict:
    case SoftPlacement::kFallbackOnMissingKernel:
    case SoftPlacement::kSoft:
      return soft_placement_name(mode);
  }
  return static_cast<int64_t>(mode);
}

namespace {

// A device name as a scope takes it ("GPU:1", "/device:GPU:1", "GPU"); whether the device
// exists is known only once the devices are set up, when the first tensor needs it.
std::string read_tensor_device(const nlohmann::json& value, const std::string& source) {
  const std::string path = "/placement/tensor_device";
  if (!value.is_string()) {
    fail(source, path, "expected a device name like \"GPU:0\", got " + type_of(value));
  }
  try {
    parse_device_name(value.get<std::string>());
  } catch (const Error& e) {
    fail(source, path, e.what());
  }
  return value.get<std::string>();
}

GraphPlacer read_placer(const nlohmann::json& value, const std::string& source) {
  if (value == "simple") return GraphPlacer::kSimple;
  if (value == "dynamic") return GraphPlacer::kDynamic;
  fail(source, "/placement/placer", "expected \"simple\" or \"dynamic\", got " + type_of(value));
}

}  // namespace

void apply_placement_section(const nlohmann::json& placement, const std::string& source,
                             Config& config) {
  require_object(placement, source, "/placement");
  check_keys(placement,
             {"device_priority", "soft_placement", "tensor_device", "placer", "replace_every_runs",
              "replace_threshold"},
             source, "/placement");
  if (placement.contains("replace_every_runs")) {
    const std::optional<int64_t> runs = integer_in(placement["replace_every_runs"], 0, 1000000000);
    if (!runs) {
      fail(source, "/placement/replace_every_runs",
           "expected an integer from 0 (never) to 1000000000, got " +
               type_of(placement["replace_every_runs"]));
    }
    config.replace_every_runs = static_cast<uint64_t>(*runs);
    config.origins["/placement/replace_every_runs"] = source;
  }
  if (placement.contains("replace_threshold")) {
    const nlohmann::json& value = placement["replace_threshold"];
    if (!value.is_number() || value.get<double>() < 0 || value.get<double>() >= 1) {
      fail(source, "/placement/replace_threshold",
           "expected a number from 0 to below 1 (0.1: another placement must be 10% faster), "
           "got " + type_of(value));
    }
    config.replace_threshold = value.get<double>();
    config.origins["/placement/replace_threshold"] = source;
  }
  if (placement.contains("placer")) {
    config.placer = read_placer(placement["placer"], source);
    config.origins["/placement/placer"] = source;
  }
  if (placement.contains("device_priority")) {
    config.device_priority = read_device_priority(placement["device_priority"], source);
    config.origins["/placement/device_priority"] = source;
  }
  if (placement.contains("soft_placement")) {
    config.soft_placement = read_soft_placement(placement["soft_placement"], source);
    config.origins["/placement/soft_placement"] = source;
  }
  if (placement.contains("tensor_device")) {
    config.tensor_device = read_tensor_device(placement["tensor_device"], source);
    config.origins["/placement/tensor_device"] = source;
  }
}

}  // namespace hxrt::detail

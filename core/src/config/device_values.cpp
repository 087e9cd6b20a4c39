#include "config/device_values.hpp"

#include <climits>

#include "config/json_checks.hpp"

namespace hxrt::detail {

uint64_t read_limit_mib(const nlohmann::json& value, const std::string& source,
                        const std::string& path) {
  if (auto mib = integer_in(value, 1, static_cast<int64_t>(kMaxLimitMiB))) {
    return static_cast<uint64_t>(*mib);
  }
  if (value.is_number() && value.get<double>() > static_cast<double>(kMaxLimitMiB)) {
    fail(source, path,
         "expected a positive integer of at most " + std::to_string(kMaxLimitMiB) +
             " (MiB; more overflows a 64-bit byte count), got " + type_of(value));
  }
  fail(source, path, "expected a positive integer, got " + type_of(value));
}

double read_memory_fraction(const nlohmann::json& value, const std::string& source,
                            const std::string& path) {
  // Written so that NaN fails too.
  if (!value.is_number() || !(value.get<double>() > 0.0 && value.get<double>() <= 1.0)) {
    fail(source, path, "expected a number in (0, 1], got " + type_of(value));
  }
  return value.get<double>();
}

int read_device_count(const nlohmann::json& value, const std::string& source,
                      const std::string& path) {
  if (auto count = integer_in(value, 0, INT_MAX)) return static_cast<int>(*count);
  fail(source, path, "expected an integer from 0 to 2147483647, got " + type_of(value));
}

}  // namespace hxrt::detail

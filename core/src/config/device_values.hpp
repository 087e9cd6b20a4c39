// The checks on device setting values, shared by the file loader and Runtime's setters: a
// value from the API is checked as the JSON value it would be in a file, so both give the
// same message for the same mistake.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

// The most MiB a limit may name: 2^44 - 1, as more overflows a 64-bit byte count.
constexpr uint64_t kMaxLimitMiB = (uint64_t{1} << 44) - 1;

// A memory limit in MiB: a positive integer up to kMaxLimitMiB.
uint64_t read_limit_mib(const nlohmann::json& value, const std::string& source,
                        const std::string& path);
// A fraction of a device's memory: a number in (0, 1].
double read_memory_fraction(const nlohmann::json& value, const std::string& source,
                            const std::string& path);
// A device count: an integer from 0 to 2147483647.
int read_device_count(const nlohmann::json& value, const std::string& source,
                      const std::string& path);

}  // namespace hxrt::detail

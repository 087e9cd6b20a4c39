// Reading config values: every failure is an Error(kInvalidArgument) that reads
// "<source>: <JSON pointer>: expected <what>, got <what was there>", so a config author can
// find the value and see how to fix it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

// `source`: "file <path>", "environment <VARIABLE>" or "API"; `path`: a JSON pointer.
[[noreturn]] void fail(const std::string& source, const std::string& path,
                       const std::string& what);

// What a wrong value was, for messages: `string "4G"`, `number 3`, `array [1,2]`.
std::string type_of(const nlohmann::json& value);

// Fails on the first key of `object` that is not in `known`, suggesting the nearest known
// key ("did you mean 'limit_mb'?") or, when none is close, listing them.
void check_keys(const nlohmann::json& object, const std::vector<std::string>& known,
                const std::string& source, const std::string& path);

void require_object(const nlohmann::json& value, const std::string& source,
                    const std::string& path);
bool read_bool(const nlohmann::json& value, const std::string& source, const std::string& path);
std::vector<std::string> read_strings(const nlohmann::json& value, const std::string& source,
                                      const std::string& path);

// `value` as an integer when JSON Schema counts it as one (3 and 3.0 are; 3.5 and "3" are
// not) and it lies in [min, max]; nullopt otherwise. Accepting 3.0 keeps the loader and
// config/hxrt.schema.json in agreement.
std::optional<int64_t> integer_in(const nlohmann::json& value, int64_t min, int64_t max);

}  // namespace hxrt::detail

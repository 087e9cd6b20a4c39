// The generic reader of the settings table: one value checked against its row, and a section
// of the file read key by key from the rows under it. Every layer (the file, the environment,
// RuntimeOptions) goes through it, so a value is checked the same way whichever gives it, and
// errors read "<source>: <JSON pointer>: expected <what>, got <what was there>".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/settings_table.hpp"

namespace hxrt::detail {

// A range's bound as a config author writes it: 4096, not 4096.0; also the config reference's.
std::string bound_text(double bound);

// What an error about `row`'s value says after "expected ": the row's own text, else its
// kind's ("true or false", "an integer from 1 to 100000000", "one of \"a\", \"b\"").
std::string expected_text(const SettingRow& row);

// Checks `value` against `row` (kind, then the row's check, then length), lands it in `config`
// and records `source` as its origin. `row` must not be structured.
void apply_setting(const SettingRow& row, const nlohmann::json& value, const std::string& source,
                   Config& config);

// The object at `path` of the file ("/placement"; "" for the whole file): unknown keys fail
// with the nearest known key, then each key present is read by its row, by the rows under it
// (a nested section) or by its structured rows' reader, in the table's order.
void apply_section(const std::string& path, const nlohmann::json& object,
                   const std::string& source, Config& config);

}  // namespace hxrt::detail

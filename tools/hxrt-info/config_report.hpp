// hxrt-info --config: the effective configuration, every setting with its value and where
// the value came from (default, file, environment, API).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "hxrt/config_setting.hpp"

namespace hxrt_info {

// One aligned row per setting: path, value (JSON text), source.
void print_config_text(std::ostream& out, const std::vector<hxrt::ConfigSetting>& settings);

// An array of {"path", "value", "source"}, each value parsed, so that a script reads
// 1024 as a number and ["GPU:1"] as an array rather than as text.
nlohmann::ordered_json config_json(const std::vector<hxrt::ConfigSetting>& settings);

}  // namespace hxrt_info

// JSON laid out for people to read and diff, as the committed config/hxrt.schema.json is: one
// member per line, but an array or object that fits the line and holds no description written
// on one line ({"type": "string"}). nlohmann's dump puts every scalar on a line of its own, or
// everything on one.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hxrt::detail {

// `value` laid out within `width` columns where its strings allow, without a final newline.
std::string laid_out_json(const nlohmann::ordered_json& value, size_t width = 100);

}  // namespace hxrt::detail

// An environment variable's text as the JSON value the config file would hold at the same
// place, so that the variable is then checked as the file's value is, naming its JSON pointer.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/settings_table.hpp"

namespace hxrt::detail {

// `text` without the blanks around it.
std::string trimmed(const std::string& text);

// "/a:/b::/c" -> {"/a", "/b", "/c"}: empty entries are skipped, as in $PATH.
nlohmann::json split_path_list(const std::string& text);
// " GPU:1, GPU:0 " -> {"GPU:1", "GPU:0"}. An empty item stays, for the setter to reject with
// its position.
nlohmann::json split_device_list(const std::string& text);

// The variable's text as `row`'s JSON: its from_env if it has one, else by its kind: a flag
// (1, 0, true, false, yes, no, on, off, any case) for a bool, a number when the text reads as
// one for an integer or a number, the trimmed text for an enum, the text as it is for a
// string. `source` and the row's path name a flag that is neither.
nlohmann::json environment_json(const SettingRow& row, const std::string& text,
                                 const std::string& source);

}  // namespace hxrt::detail

// The settings table of docs/configuration.md ("The settings"), generated: one line per
// setting of the config file, from the settings table's rows (settings_table.hpp). The table
// sits between two marker comments in the committed page; the rest of the page is written by
// hand, and only the text between the markers is rewritten.
#pragma once

#include <optional>
#include <string>

#include "config/settings_table.hpp"

namespace hxrt::detail {

extern const std::string kSettingsTableBegin;
extern const std::string kSettingsTableEnd;

// The table's markdown: a header and a line per row of the file, ending in a newline.
std::string settings_table_markdown();

// The docs' text for a row's value: its kind, or its type_text, with its range and default
// ("integer 1 to 3600000, default `5000`").
std::string settings_type_text(const SettingRow& row);

// `page` with the text between the markers (each on a line of its own) replaced by the table;
// nullopt when the page lacks either marker.
std::optional<std::string> with_settings_table(const std::string& page);

}  // namespace hxrt::detail

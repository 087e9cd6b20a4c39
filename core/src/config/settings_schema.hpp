// config/hxrt.schema.json, generated: the config file's JSON Schema (2020-12) rendered from
// the settings table (settings_table.hpp), the groups that hold its rows (setting_groups.hpp)
// and the loader's own grammar of device names (device_keys.hpp), so that the schema an
// editor checks a file against cannot drift from what the loader accepts.
// tests/config/check_schema.py checks that both accept the same files.
#pragma once

#include <string>

namespace hxrt::detail {

// The whole file's text, ending in a newline. Fails with std::logic_error on a row whose path
// has a shape the renderer does not know (a section nested deeper than the ones it draws).
std::string settings_schema_text();

// `markdown` as plain text, each [link](page.md) reduced to its text: what an editor shows
// of a description, where the docs' relative pages lead nowhere. Code spans are kept.
std::string without_links(const std::string& markdown);

}  // namespace hxrt::detail

// What the config reference says of the objects that hold settings rather than of a setting:
// the file itself, its sections ("plugins", "placement", ...) and the parts of the per-device
// settings. Beside the settings table (settings_table.hpp), whose rows say what each setting
// does, so that the schema's every description is written in this folder and nowhere else.
#pragma once

#include <string>
#include <vector>

namespace hxrt::detail {

struct SettingGroup {
  // A pointer into the file's layout, with a row's placeholders: "" (the whole file),
  // "/plugins", "/devices/<type>", "/devices/<type or device>/memory"; and
  // "/visible_devices/<item>" for one device name, wherever one is given.
  std::string path;
  std::string description;  // one line of restricted markdown, as a row's description
};

// The schema's title for the whole file.
extern const char* const kConfigSchemaTitle;

const std::vector<SettingGroup>& setting_groups();

// The description of the group at `path`; fails with std::logic_error when there is none, so
// that a section added to the table without its group fails the reference's generation.
const std::string& group_description(const std::string& path);

}  // namespace hxrt::detail

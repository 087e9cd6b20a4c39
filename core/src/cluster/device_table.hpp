// A task's devices as the tasks of a cluster tell each other at start-up: DeviceInfo to JSON
// text and back. What a task reads is checked: a table that does not parse, or lacks a field,
// is an error naming the task that sent it.
#pragma once

#include <string>
#include <vector>

#include "hxrt/device_info.hpp"

namespace hxrt::detail {

std::string device_table_text(const std::vector<DeviceInfo>& devices);
// The devices of `text`, each marked as not local; Error(kInternal) naming `sender` when the
// text is not a table this version writes.
std::vector<DeviceInfo> read_device_table(const std::string& text, const std::string& sender);

}  // namespace hxrt::detail

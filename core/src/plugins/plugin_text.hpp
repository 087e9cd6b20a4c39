// Text a plugin hands the core (messages, device properties, registrations) read with a bound
// and escaped with printable() (logger.hpp) before the core keeps it, so that nothing a plugin
// writes can move the cursor, recolour or retitle the terminal that shows hxrt's log or
// hxrt-info.
#pragma once

#include <cstddef>
#include <string>

namespace hxrt::detail {

// At most `max_bytes` of the NUL-terminated `text` ("" for NULL), unescaped: the bound stops
// the core from reading on through a plugin's string without end, or from copying a
// gigabyte. A caller that must know whether it was cut reads one byte more than it keeps.
std::string read_bounded(const char* text, size_t max_bytes);

// printable(read_bounded(text, max_bytes)), marked "..." when it was cut.
std::string plugin_text(const char* text, size_t max_bytes);

}  // namespace hxrt::detail

// Text from elsewhere (a plugin, a file name) made safe to show on a terminal.
#pragma once

#include <string>
#include <string_view>

#include "hxrt/export.hpp"

namespace hxrt {

// `text` with C0 controls, DEL, C1 controls (U+0080..U+009F, U+009B being CSI) and bytes that
// are not UTF-8 written as \xNN; other UTF-8 is kept. Everything hxrt quotes from a plugin
// passes through here, so that no plugin can move the cursor, recolour or retitle the terminal
// that shows hxrt's log or hxrt-info; a host app printing plugin-given text can do the same.
HXRT_API std::string printable(std::string_view text);

}  // namespace hxrt

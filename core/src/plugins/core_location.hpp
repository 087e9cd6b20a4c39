// Where libhxrt.so itself lies. Its plugin folder and hxrt-probe are found relative to it, so
// that a build tree and an installed tree work wherever they are, and after they are moved.
#pragma once

#include <string>

namespace hxrt::detail {

// The canonical folder holding the core library (found with dladdr); "" when it cannot be told.
std::string core_library_dir();

}  // namespace hxrt::detail

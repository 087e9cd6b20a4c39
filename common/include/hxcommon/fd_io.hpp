// Writing to a file descriptor as POSIX leaves it to the caller: write may take less than it
// was given, and a signal may interrupt it.
#pragma once

#include <string>

namespace hxcommon {

// Writes all of `text` to `fd`, going on after short writes and EINTR; false on any other
// failure (errno says which).
bool write_all(int fd, const std::string& text);

}  // namespace hxcommon

// What a path is when it is not the regular file hxrt wanted ("a FIFO", "a directory"), for
// the messages that refuse it: the config file and the timeline trace's file read it alike.
#pragma once

#include <sys/types.h>

namespace hxrt::detail {

// "a directory", "a FIFO", "a character device", "a block device", "a socket", or "of an
// unknown kind", from stat's st_mode; "a regular file" for one.
const char* file_kind(mode_t mode);

}  // namespace hxrt::detail

// Where hxrt keeps what it learns about the machine between runs ($XDG_CACHE_HOME/hxrt), and
// how such a file is read and replaced: a cache that cannot be read or written costs time,
// never a failed start-up, and a reader never sees half a file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace hxcommon {

// $XDG_CACHE_HOME/hxrt/<name>, else $HOME/.cache/hxrt/<name> (the XDG base directory rule);
// "" when neither variable gives an absolute folder.
std::string cache_file_path(const std::string& name);

// The whole text of `path`; nullopt when it is missing, unreadable or over `max_bytes` (a cache
// file larger than its writer ever makes is somebody else's). Reads to the end of files that
// report no size (those under /proc).
std::optional<std::string> read_small_file(const std::string& path, size_t max_bytes);

// "<device>:<inode> <size> <mtime> <ctime>" of the file at `path`, the times to the
// nanosecond: what a cache keys a file by, as it changes when the file is rebuilt, replaced
// (even by `cp -p`, which keeps the modification time but not the change time) or touched.
// nullopt when the file cannot be stat'ed.
std::optional<std::string> file_identity(const std::string& path);

// Makes the folder and writes `text` beside `path`, renamed over it. Returns "" or why not.
std::string replace_cache_file(const std::string& path, const std::string& text);

}  // namespace hxcommon

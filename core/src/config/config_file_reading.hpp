// Reading the config file's text. Only a regular file is read: a FIFO would block start-up
// until some writer came, /dev/zero would never end, and a directory reads as nothing, so
// each is refused, by name, before any byte is read.
#pragma once

#include <cstddef>
#include <string>

namespace hxrt::detail {

// The most bytes a config file may have: a config is a few kilobytes, and more than this is
// a wrong file (a log, a data set) that would only make a long parse and a long error.
constexpr size_t kMaxConfigFileBytes = size_t{16} << 20;

// The text of the file at `path`. `named_by` ("$HXRT_CONFIG" or "RuntimeOptions") says in
// errors what gave the path. Fails with kNotFound when there is no such file, and with
// kInvalidArgument when it is not a regular file or is larger than kMaxConfigFileBytes.
std::string read_config_file(const std::string& path, const std::string& named_by);

}  // namespace hxrt::detail

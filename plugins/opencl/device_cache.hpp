// The devices the last discovery found, kept in $XDG_CACHE_HOME/hxrt/opencl-devices beside the
// fingerprint of the OpenCL installation it ran in (installation.hpp). A start-up whose
// fingerprint matches lists those devices without touching OpenCL, and the platforms are
// opened when a device is first used (an allocation, a stream, a kernel): with PoCL installed,
// that is the difference between about 5 and 30 ms, and 9 and 77 MB, for every program that
// does not use the OpenCL devices.
//
// Only a discovery that found devices and skipped none is kept: a platform that failed is
// asked again at the next start-up rather than left out until the installation changes. A
// file that is missing, corrupt, of another format or not writable costs a discovery, never a
// failed start-up.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "device_facts.hpp"

namespace hxopencl {

// $XDG_CACHE_HOME/hxrt/opencl-devices (else under ~/.cache); "" when there is no such folder.
std::string device_cache_file();

// The devices kept in `file` for `fingerprint`; nullopt when the file is missing or unreadable,
// or was written for another fingerprint or in another format.
std::optional<std::vector<DeviceFacts>> read_device_cache(const std::string& file,
                                                          const std::string& fingerprint);

// Replaces `file` with `devices` under `fingerprint`. Returns "" or why it could not.
std::string write_device_cache(const std::string& file, const std::string& fingerprint,
                               const std::vector<DeviceFacts>& devices);

}  // namespace hxopencl

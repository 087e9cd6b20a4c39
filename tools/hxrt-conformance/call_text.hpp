// The words the checks use for the plugin's calls, so that every section names a size, a
// failed call and a call that gave nothing back the same way.
#pragma once

#include <cstddef>
#include <string>

#include "kit_core.hpp"

namespace hxrt_conformance {

// "1 byte", "1000 bytes".
std::string byte_count(size_t size);

// "copy_host_to_device of 4096 bytes failed: INVALID_ARGUMENT: ...".
std::string call_failed(const std::string& call, const Outcome& outcome);

// For a create or allocate call that returned OK and NULL: "stream_create returned no error
// but a NULL stream; return a stream, or a status saying why not".
std::string returned_null(const std::string& call, const std::string& result,
                          const std::string& wanted);

}  // namespace hxrt_conformance

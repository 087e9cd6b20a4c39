// Element types as every plugin describes them in messages and sizes its buffers by.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

namespace hxplugin {

// Bytes per element; 0 for a value outside the enum.
size_t dtype_size(hx_dtype dtype);
// "float32", "int64", ...; "invalid" for a value outside the enum.
const char* dtype_name(hx_dtype dtype);

}  // namespace hxplugin

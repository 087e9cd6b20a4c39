// The list of every hx_dtype, which the kernels that move elements by their size (Identity,
// Reshape, Transpose, ...) register for in every plugin.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>

namespace hxplugin {

// In value order. hxplugin::register_kernel leaves out those an older core predates.
inline constexpr int32_t kEveryDtype[] = {
    HX_DTYPE_F32,      HX_DTYPE_F64,        HX_DTYPE_F16, HX_DTYPE_BF16,       HX_DTYPE_I32,
    HX_DTYPE_I64,      HX_DTYPE_BOOL,       HX_DTYPE_I8,  HX_DTYPE_U8,         HX_DTYPE_I16,
    HX_DTYPE_U16,      HX_DTYPE_U32,        HX_DTYPE_U64, HX_DTYPE_F8E4M3FN,   HX_DTYPE_F8E4M3FNUZ,
    HX_DTYPE_F8E5M2,   HX_DTYPE_F8E5M2FNUZ};
static_assert(sizeof kEveryDtype / sizeof kEveryDtype[0] == HX_DTYPE_F8E5M2FNUZ,
              "a dtype was added to hx_dtype: list it here");

}  // namespace hxplugin

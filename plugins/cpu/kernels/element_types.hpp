// The C++ type kernels use for each element type, and dispatch from hx_dtype to it.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/plugin_vocabulary.h>

#include <cstddef>
#include <cstdint>

namespace hxcpu {

// f16, bf16 and bool get wrapper structs so that templates can tell them from uint16_t and
// uint8_t, and so that a stored bool byte is never read as a C++ bool (a byte other than 0 or
// 1 would be undefined behaviour there).
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
struct BoolByte {
  uint8_t byte;
};

template <class T>
struct TypeTag {
  using type = T;
};

// Calls visit(TypeTag<T>{}) for the element type T of an arithmetic dtype (f32, f64 and every
// integer type), else returns otherwise().
template <class Visit, class Otherwise>
hx_status* visit_arithmetic(int32_t dtype, Visit&& visit, Otherwise&& otherwise) {
  switch (dtype) {
    case HX_DTYPE_F32: return visit(TypeTag<float>{});
    case HX_DTYPE_F64: return visit(TypeTag<double>{});
    case HX_DTYPE_I32: return visit(TypeTag<int32_t>{});
    case HX_DTYPE_I64: return visit(TypeTag<int64_t>{});
    case HX_DTYPE_I8: return visit(TypeTag<int8_t>{});
    case HX_DTYPE_U8: return visit(TypeTag<uint8_t>{});
    case HX_DTYPE_I16: return visit(TypeTag<int16_t>{});
    case HX_DTYPE_U16: return visit(TypeTag<uint16_t>{});
    case HX_DTYPE_U32: return visit(TypeTag<uint32_t>{});
    case HX_DTYPE_U64: return visit(TypeTag<uint64_t>{});
    default: return otherwise();
  }
}

// The integer dtypes (not bool).
inline bool is_integer_dtype(int32_t dtype) {
  switch (dtype) {
    case HX_DTYPE_I32:
    case HX_DTYPE_I64:
    case HX_DTYPE_I8:
    case HX_DTYPE_U8:
    case HX_DTYPE_I16:
    case HX_DTYPE_U16:
    case HX_DTYPE_U32:
    case HX_DTYPE_U64: return true;
    default: return false;
  }
}

// Like visit_arithmetic, also for f16 and bf16: the dtypes of arithmetic, those two computed in
// float (element_convert.hpp's compute_in_float).
template <class Visit, class Otherwise>
hx_status* visit_numeric(int32_t dtype, Visit&& visit, Otherwise&& otherwise) {
  switch (dtype) {
    case HX_DTYPE_F16: return visit(TypeTag<Half>{});
    case HX_DTYPE_BF16: return visit(TypeTag<BFloat16>{});
    default: return visit_arithmetic(dtype, visit, otherwise);
  }
}

// Like visit_arithmetic, for every dtype.
template <class Visit, class Otherwise>
hx_status* visit_any(int32_t dtype, Visit&& visit, Otherwise&& otherwise) {
  switch (dtype) {
    case HX_DTYPE_BOOL: return visit(TypeTag<BoolByte>{});
    default: return visit_numeric(dtype, visit, otherwise);
  }
}

}  // namespace hxcpu

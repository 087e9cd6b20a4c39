// One element of a tensor of any hx_dtype, read as a double or as text and written from a
// double: how the core formats tensors and reads ONNX attributes, and how the conformance
// kit and the tests compare them. Like float_formats.hpp, the plugins' kernels keep their own
// conversions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hxcommon {

// Element `index` of an array of hx_dtype `dtype` at `data`, as a double: exact for the
// floating types and for integers up to 2^53 in magnitude; bool as 0 or 1; 0 for a value
// outside hx_dtype.
double element_to_double(const void* data, int32_t dtype, size_t index);

// Writes `value` as element `index` of an array of `dtype` at `data`, as Cast converts a
// floating value: to nearest even for the floating types (the 8-bit floats as Cast's
// `saturate` says); toward zero for the integer types, saturated at their limits (NaN gives
// 0); bool 1 for anything but 0. Writes nothing for a value outside hx_dtype.
void element_from_double(double value, int32_t dtype, void* data, size_t index,
                         bool saturate = true);

// Element `index` as NumPy prints it: integers exactly ("-3", "18446744073709551615"), "true"
// and "false", floating values with %g.
std::string element_text(const void* data, int32_t dtype, size_t index);

}  // namespace hxcommon

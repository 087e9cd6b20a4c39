// NumPy's .npy format (format versions 1.0 to 3.0), for hxrt-run's inputs and outputs: the
// dtypes hxrt has, C order, little-endian. bfloat16 is written and read as ml_dtypes names it
// ("bfloat16", a 2-byte void type to NumPy alone).
#pragma once

#include <string>

#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"

namespace hxrun {

struct NpyArray {
  hxrt::DType dtype = hxrt::DType::kF32;
  hxrt::Shape shape;
  std::string bytes;  // C order
};

// The array in the file at `path`. Throws hxrt::Error(kInvalidArgument) naming the file and
// what is wrong: not an .npy file, a dtype hxrt has no dtype for (listing those it reads),
// Fortran order, a byte count that does not match the shape.
NpyArray read_npy(const std::string& path);
// Writes `array` to `path` (format version 1.0). Throws hxrt::Error when it cannot.
void write_npy(const std::string& path, const NpyArray& array);

}  // namespace hxrun

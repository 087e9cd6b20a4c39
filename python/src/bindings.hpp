// The extension module _hxrt: one function per part of the C++ API it binds, and the
// conversions they share. The Python modules of python/hxrt build the guide's API on it; what
// is bound here is the C++ API as it is, no more.
#pragma once

#include <hxrt/hxrt.hpp>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <vector>

namespace hxpy {

namespace nb = nanobind;

void bind_errors(nb::module_& module);   // errors_binding.cpp
void bind_tensor(nb::module_& module);   // tensor_binding.cpp
void bind_runtime(nb::module_& module);  // runtime_binding.cpp
void bind_graphs(nb::module_& module);   // graph_binding.cpp
void bind_dlpack(nb::module_& module);   // dlpack_binding.cpp
void bind_op_functions(nb::module_& module);  // op_function_binding.cpp

// The package's default runtime, which hxrt._runtime makes and registers (tensor_binding.cpp);
// nullptr before that and after the interpreter's exit began.
hxrt::Runtime* default_runtime();

// A DLPack capsule of a tensor's own host memory that holds the tensor (Tensor.__dlpack__);
// BufferError for a tensor in a device's own memory. Waits for the work that writes it.
nb::object host_view(const hxrt::Tensor& tensor);

// A shape's extents as an ndarray takes them, and an array's shape as a Shape.
std::vector<size_t> ndarray_extents(const hxrt::Shape& shape);
template <class... Traits>
hxrt::Shape shape_of(const nb::ndarray<Traits...>& array) {
  std::vector<int64_t> extents(array.ndim());
  for (size_t axis = 0; axis < array.ndim(); ++axis) {
    extents[axis] = static_cast<int64_t>(array.shape(axis));
  }
  return hxrt::Shape(extents);
}

// A dict of Python values (bool, int, float, str, hxrt DType, a sequence of ints or of
// floats) as Attrs; TypeError naming the attribute for any other value.
hxrt::Attrs to_attrs(nb::handle dict);

// The NumPy dtype of the array a tensor of `dtype` is read into and made from: its own where
// NumPy has it, else one of its size (uint16 for bfloat16, uint8 for the 8-bit floats), which
// the Python side views as ml_dtypes' type.
nb::dlpack::dtype storage_dtype(hxrt::DType dtype);

}  // namespace hxpy

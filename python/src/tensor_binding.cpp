// hxrt::DType and hxrt::Tensor. A tensor is read into a new NumPy array (its storage dtype,
// bindings.hpp) by one copy from wherever it lives; the Python side views that array as the
// tensor's own dtype.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace hxpy {
namespace {

using nb::dlpack::dtype_code;

nb::tuple shape_tuple(const hxrt::Shape& shape) {
  nb::list extents;
  for (int axis = 0; axis < shape.rank(); ++axis) extents.append(shape[axis]);
  return nb::tuple(extents);
}

nb::ndarray<nb::numpy> to_host(const hxrt::Tensor& tensor) {
  const size_t bytes = tensor.byte_size();
  std::unique_ptr<unsigned char[]> data(new unsigned char[bytes == 0 ? 1 : bytes]);
  {
    const nb::gil_scoped_release unlocked;  // a device's copy may take a while
    tensor.copy_to_host(data.get(), bytes);
  }
  const hxrt::Shape& shape = tensor.shape();
  std::vector<size_t> extents(static_cast<size_t>(shape.rank()));
  for (int axis = 0; axis < shape.rank(); ++axis) {
    extents[static_cast<size_t>(axis)] = static_cast<size_t>(shape[axis]);
  }
  unsigned char* owned = data.release();
  nb::capsule owner(owned, [](void* held) noexcept { delete[] static_cast<unsigned char*>(held); });
  return nb::ndarray<nb::numpy>(owned, extents.size(), extents.data(), owner, nullptr,
                                storage_dtype(tensor.dtype()));
}

}  // namespace

nb::dlpack::dtype storage_dtype(hxrt::DType dtype) {
  const uint8_t bits = static_cast<uint8_t>(hxrt::dtype_size(dtype) * 8);
  if (dtype == hxrt::DType::kBool) return {static_cast<uint8_t>(dtype_code::Bool), 8, 1};
  if (dtype == hxrt::DType::kF32 || dtype == hxrt::DType::kF64 || dtype == hxrt::DType::kF16) {
    return {static_cast<uint8_t>(dtype_code::Float), bits, 1};
  }
  if (hxrt::is_integer(dtype)) {
    const dtype_code code = hxrt::is_unsigned(dtype) ? dtype_code::UInt : dtype_code::Int;
    return {static_cast<uint8_t>(code), bits, 1};
  }
  return {static_cast<uint8_t>(dtype_code::UInt), bits, 1};  // bfloat16, the 8-bit floats
}

void bind_tensor(nb::module_& module) {
  nb::enum_<hxrt::DType> dtypes(module, "DType", "An element type, named as NumPy names it.");
  for (hxrt::DType dtype : hxrt::kAllDTypes) dtypes.value(hxrt::dtype_name(dtype), dtype);
  module.def("dtype_size", &hxrt::dtype_size, nb::arg("dtype"), "Bytes per element.");
  module.def("parse_dtype", &hxrt::parse_dtype, nb::arg("name"),
             "The dtype of a NumPy name ('float32'); InvalidArgumentError for another.");

  nb::class_<hxrt::Tensor>(module, "Tensor", "A tensor of the runtime, on one of its devices.")
      .def_prop_ro("dtype", &hxrt::Tensor::dtype, "The element type.")
      .def_prop_ro(
          "shape", [](const hxrt::Tensor& tensor) { return shape_tuple(tensor.shape()); },
          "The extents, a tuple.")
      .def_prop_ro("device", &hxrt::Tensor::device,
                   "The full name of the device that holds it.")
      .def_prop_ro("num_elements", &hxrt::Tensor::num_elements)
      .def_prop_ro("byte_size", &hxrt::Tensor::byte_size)
      .def("_to_host", &to_host,
           "A new NumPy array of the elements, of the storage dtype (uint16 for bfloat16, "
           "uint8 for the 8-bit floats).")
      .def("wait", &hxrt::Tensor::wait, nb::call_guard<nb::gil_scoped_release>(),
           "Waits until the work that writes it is done.")
      .def("__str__", &hxrt::Tensor::to_string);
}

}  // namespace hxpy

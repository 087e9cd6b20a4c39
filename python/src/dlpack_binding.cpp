// DLPack both ways, without copies for host memory: a tensor on the CPU is handed to NumPy or
// PyTorch as a capsule of its own memory that holds the tensor (Tensor.__dlpack__), and an
// array of another library in host memory becomes a tensor whose elements are that array's
// (Runtime::view_of_host_memory), holding the array.
#include <Python.h>

#include <memory>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "gil_held.hpp"

namespace hxpy {
namespace {

using nb::dlpack::dtype_code;

struct DTypeCode {
  hxrt::DType dtype;
  dtype_code code;
};

// The DLPack type of each dtype (hxrt's 8-bit floats are ml_dtypes' and DLPack 1.1's).
constexpr DTypeCode kCodes[] = {
    {hxrt::DType::kF32, dtype_code::Float},         {hxrt::DType::kF64, dtype_code::Float},
    {hxrt::DType::kF16, dtype_code::Float},         {hxrt::DType::kBF16, dtype_code::Bfloat},
    {hxrt::DType::kI32, dtype_code::Int},           {hxrt::DType::kI64, dtype_code::Int},
    {hxrt::DType::kBool, dtype_code::Bool},         {hxrt::DType::kI8, dtype_code::Int},
    {hxrt::DType::kU8, dtype_code::UInt},           {hxrt::DType::kI16, dtype_code::Int},
    {hxrt::DType::kU16, dtype_code::UInt},          {hxrt::DType::kU32, dtype_code::UInt},
    {hxrt::DType::kU64, dtype_code::UInt},
    {hxrt::DType::kF8E4M3FN, dtype_code::Float8_E4M3FN},
    {hxrt::DType::kF8E4M3FNUZ, dtype_code::Float8_E4M3FNUZ},
    {hxrt::DType::kF8E5M2, dtype_code::Float8_E5M2},
    {hxrt::DType::kF8E5M2FNUZ, dtype_code::Float8_E5M2FNUZ},
};

nb::dlpack::dtype dlpack_dtype(hxrt::DType dtype) {
  for (const DTypeCode& entry : kCodes) {
    if (entry.dtype == dtype) {
      return {static_cast<uint8_t>(entry.code), static_cast<uint8_t>(hxrt::dtype_size(dtype) * 8),
              1};
    }
  }
  throw nb::type_error((std::string("no DLPack type for ") + hxrt::dtype_name(dtype)).c_str());
}

hxrt::DType hxrt_dtype(nb::dlpack::dtype type) {
  for (const DTypeCode& entry : kCodes) {
    if (static_cast<uint8_t>(entry.code) == type.code && type.lanes == 1 &&
        hxrt::dtype_size(entry.dtype) * 8 == type.bits) {
      return entry.dtype;
    }
  }
  throw nb::type_error(("hxrt has no dtype of DLPack type code " + std::to_string(type.code) +
                        " of " + std::to_string(type.bits) + " bits and " +
                        std::to_string(type.lanes) + " lanes")
                           .c_str());
}

}  // namespace

nb::object host_view(const hxrt::Tensor& tensor) {
  void* address = tensor.host_address();
  if (address == nullptr && tensor.byte_size() != 0) {
    PyErr_SetString(PyExc_BufferError,
                    ("the tensor lives in " + tensor.device() +
                     "'s own memory, which DLPack here does not reach; copy it to the CPU "
                     "first (hxrt.constant(x, device=\"/CPU:0\"))")
                        .c_str());
    throw nb::python_error();
  }
  {
    const nb::gil_scoped_release unlocked;
    tensor.wait();
  }
  const std::vector<size_t> extents = ndarray_extents(tensor.shape());
  nb::capsule owner(new hxrt::Tensor(tensor),
                    [](void* held) noexcept { delete static_cast<hxrt::Tensor*>(held); });
  // nanobind hands an ndarray of no framework over as a DLPack capsule.
  return nb::cast(nb::ndarray<>(address, extents.size(), extents.data(), owner, nullptr,
                                dlpack_dtype(tensor.dtype()), nb::device::cpu::value, 0));
}

namespace {

bool dense_row_major(const nb::ndarray<nb::ro>& array) {
  int64_t expected = 1;
  for (size_t axis = array.ndim(); axis-- > 0;) {
    if (array.shape(axis) != 1 && array.stride(axis) != expected) return false;
    expected *= static_cast<int64_t>(array.shape(axis));
  }
  return true;
}

// `array` (any object with __dlpack__, or the buffer protocol) as a tensor: its own memory
// where it is dense, in host memory and aligned as the device needs; else, unless
// copy=False, a copy. copy=True always copies.
hxrt::Tensor from_dlpack(hxrt::Runtime& runtime, nb::ndarray<nb::ro> array, nb::handle copy,
                         const std::string& device) {
  if (array.device_type() != nb::device::cpu::value) {
    PyErr_SetString(PyExc_BufferError,
                    ("the array is on DLPack device type " +
                     std::to_string(array.device_type()) +
                     ", not the host's; hxrt imports host memory (move it to the CPU first)")
                        .c_str());
    throw nb::python_error();
  }
  const hxrt::DType dtype = hxrt_dtype(array.dtype());
  const hxrt::Shape shape = shape_of(array);
  const bool always_copy = !copy.is_none() && nb::cast<bool>(copy);
  const bool never_copy = !copy.is_none() && !nb::cast<bool>(copy);
  if (!always_copy && dense_row_major(array)) {
    try {
      auto held = std::make_shared<GilHeld<nb::ndarray<nb::ro>>>(array);
      return runtime.view_of_host_memory(dtype, shape, const_cast<void*>(array.data()),
                                         std::move(held), device);
    } catch (const hxrt::Error& error) {
      if (error.code() != hxrt::StatusCode::kInvalidArgument) throw;
      if (never_copy) {
        PyErr_SetString(PyExc_BufferError,
                        (std::string(error.what()) + " (copy=False asked for no copy)").c_str());
        throw nb::python_error();
      }
    }
  } else if (never_copy) {
    PyErr_SetString(PyExc_BufferError,
                    "the array is not dense and row-major: hxrt can only take it by a copy "
                    "(copy=None or True)");
    throw nb::python_error();
  }
  // A copy: the array's elements read at its strides into a dense array, then uploaded.
  nb::object dense = nb::module_::import_("numpy").attr("ascontiguousarray")(
      nb::module_::import_("numpy").attr("from_dlpack")(nb::cast(array)));
  return nb::cast<hxrt::Tensor>(
      nb::module_::import_("hxrt._tensor").attr("constant")(dense, nb::none(), device));
}

}  // namespace

void bind_dlpack(nb::module_& module) {
  module.def("from_dlpack", &from_dlpack, nb::arg("runtime"), nb::arg("array"),
             nb::arg("copy").none() = nb::none(), nb::arg("device") = "",
             "An array of another library as a tensor, without a copy where it can be.");
}

}  // namespace hxpy

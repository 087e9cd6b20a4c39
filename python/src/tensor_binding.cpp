// hxrt::DType and hxrt::Tensor. A tensor is read into a new NumPy array (its storage dtype,
// bindings.hpp) by one copy from wherever it lives; the Python side views that array as the
// tensor's own dtype.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nanobind/stl/string_view.h>

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
  const std::vector<size_t> extents = ndarray_extents(tensor.shape());
  unsigned char* owned = data.release();
  nb::capsule owner(owned, [](void* held) noexcept { delete[] static_cast<unsigned char*>(held); });
  return nb::ndarray<nb::numpy>(owned, extents.size(), extents.data(), owner, nullptr,
                                storage_dtype(tensor.dtype()));
}

// hxrt._tensor's function `name`, which does the work of a Tensor method in Python (the
// extension defines the method, so that the type stubs stubgen makes show it). Looked up once;
// the module lives as long as the interpreter.
nb::object python_half(const char* name) {
  static PyObject* module = nullptr;
  if (module == nullptr) module = nb::module_::import_("hxrt._tensor").release().ptr();
  return nb::handle(module).attr(name);
}

// The default runtime of the package (hxrt._runtime sets it when it makes it, and clears it
// at exit), and the op handles the operators run on it, looked up once by their function
// names' ops. A handle holds the runtime's state: they are dropped with the runtime, so that
// the runtime ends with the interpreter rather than among the process's static destructors.
hxrt::Runtime* default_runtime_pointer = nullptr;

struct NamedOp {
  const char* function;
  const char* op;
};
constexpr NamedOp kOperatorOps[] = {
    {"add", "Add"},   {"sub", "Sub"},       {"mul", "Mul"},
    {"div", "Div"},   {"matmul", "MatMul"}, {"pow", "Pow"},
    {"less", "Less"}, {"less_or_equal", "LessOrEqual"},
    {"greater", "Greater"}, {"greater_or_equal", "GreaterOrEqual"}};
constexpr size_t kOperatorOpCount = sizeof(kOperatorOps) / sizeof(kOperatorOps[0]);
hxrt::Op operator_handles[kOperatorOpCount];

const hxrt::Op* default_op(const char* function) {
  if (default_runtime_pointer == nullptr) return nullptr;
  for (size_t i = 0; i < kOperatorOpCount; ++i) {
    if (std::strcmp(kOperatorOps[i].function, function) != 0) continue;
    if (!operator_handles[i].valid()) {
      operator_handles[i] = default_runtime_pointer->op(kOperatorOps[i].op);
    }
    return &operator_handles[i];
  }
  return nullptr;
}

void set_default_runtime(nb::handle runtime) {
  for (hxrt::Op& handle : operator_handles) handle = hxrt::Op();
  default_runtime_pointer = runtime.is_none() ? nullptr : nb::cast<hxrt::Runtime*>(runtime);
}

// Tensor's operators, each an op: __add__ runs hxrt.add, __rsub__ hxrt.sub with the operands
// swapped, and so on.
void bind_operators(nb::class_<hxrt::Tensor>& tensor) {
  struct Binary {
    const char* method;
    const char* op;
    bool reflected;
  };
  static const Binary kBinary[] = {
      {"__add__", "add", false},       {"__radd__", "add", true},
      {"__sub__", "sub", false},       {"__rsub__", "sub", true},
      {"__mul__", "mul", false},       {"__rmul__", "mul", true},
      {"__truediv__", "div", false},   {"__rtruediv__", "div", true},
      {"__matmul__", "matmul", false}, {"__rmatmul__", "matmul", true},
      {"__pow__", "pow", false},       {"__rpow__", "pow", true},
      {"__lt__", "less", false},       {"__le__", "less_or_equal", false},
      {"__gt__", "greater", false},    {"__ge__", "greater_or_equal", false},
  };
  for (const Binary& binary : kBinary) {
    const std::string signature =
        std::string("def ") + binary.method + "(self, other: object) -> Tensor";
    tensor.def(
        binary.method,
        [op = binary.op, reflected = binary.reflected](nb::handle self, nb::handle other) {
          // Two tensors: the op on the default runtime at once, as hxrt.matmul would run it
          // (a Python value on the other side goes through hxrt._tensor, which converts it).
          if (nb::isinstance<hxrt::Tensor>(other)) {
            if (const hxrt::Op* handle = default_op(op)) {
              const hxrt::Tensor& a = nb::cast<const hxrt::Tensor&>(self);
              const hxrt::Tensor& b = nb::cast<const hxrt::Tensor&>(other);
              const std::vector<hxrt::Tensor> inputs =
                  reflected ? std::vector<hxrt::Tensor>{b, a} : std::vector<hxrt::Tensor>{a, b};
              hxrt::Runtime& runtime = *default_runtime();
              const nb::gil_scoped_release unlocked;
              return nb::cast(runtime.execute(*handle, inputs));
            }
          }
          return python_half("binary")(op, self, other, reflected);
        },
        nb::arg("other"), nb::sig(signature.c_str()),
        (std::string("The op ") + binary.op + (binary.reflected ? ", operands swapped" : "") +
         "; a Python value becomes a tensor of this one's dtype.")
            .c_str());
  }
  tensor.def(
      "__neg__", [](nb::handle self) { return python_half("unary")("neg", self); },
      nb::sig("def __neg__(self) -> Tensor"), "The op Neg.");
}

}  // namespace

hxrt::Runtime* default_runtime() { return default_runtime_pointer; }

std::vector<size_t> ndarray_extents(const hxrt::Shape& shape) {
  std::vector<size_t> extents(static_cast<size_t>(shape.rank()));
  for (int axis = 0; axis < shape.rank(); ++axis) {
    extents[static_cast<size_t>(axis)] = static_cast<size_t>(shape[axis]);
  }
  return extents;
}

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
  module.def(
      "_set_default_runtime", &set_default_runtime, nb::arg("runtime").none(),
      "Tells the operators which runtime is the default (hxrt._runtime); None: none.");
  nb::enum_<hxrt::DType> dtypes(module, "DType", "An element type, named as NumPy names it.");
  for (hxrt::DType dtype : hxrt::kAllDTypes) dtypes.value(hxrt::dtype_name(dtype), dtype);
  module.def("dtype_size", &hxrt::dtype_size, nb::arg("dtype"), "Bytes per element.");
  module.def("parse_dtype", &hxrt::parse_dtype, nb::arg("name"),
             "The dtype of a NumPy name ('float32'); InvalidArgumentError for another.");

  nb::class_<hxrt::Tensor> tensor(module, "Tensor",
                                  "A tensor of the runtime, on one of its devices.");
  tensor
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
      // Before numpy(): in the stub, a later "numpy.ndarray" would name that method.
      .def(
          "__array__",
          [](nb::handle self, nb::handle dtype, nb::handle copy) {
            return python_half("array_of")(self, dtype, copy);
          },
          nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none(),
          nb::sig("def __array__(self, dtype: object = None, copy: object = None) -> "
                  "numpy.ndarray"))
      .def(
          "numpy",
          [](nb::handle self) { return python_half("numpy_of")(self); },
          nb::sig("def numpy(self) -> numpy.ndarray"),
          "The elements as a new NumPy array (bfloat16 and the 8-bit floats as ml_dtypes').")
      .def(
          "__getitem__",
          [](nb::handle self, nb::handle key) {
            return python_half("getitem")(self, key);
          },
          nb::arg("key"), nb::sig("def __getitem__(self, key: object) -> Tensor"),
          "x[1:3, ::2], x[0], x[..., -1]: NumPy's basic indexing, as Slice and Squeeze.")
      .def(
          "__len__",
          [](const hxrt::Tensor& self) {
            if (self.shape().rank() == 0) throw nb::type_error("len() of a tensor of rank 0");
            return self.shape()[0];
          },
          "The extent of the first axis.")
      .def(
          "__dlpack__",
          [](const hxrt::Tensor& self, nb::handle stream, nb::handle max_version,
             nb::handle dl_device, nb::handle copy) {
            // The host needs no stream; a copy or another device are not what this gives.
            (void)stream;
            (void)max_version;
            if ((!copy.is_none() && nb::cast<bool>(copy)) ||
                (!dl_device.is_none() && !dl_device.equal(nb::make_tuple(1, 0)))) {
              PyErr_SetString(PyExc_BufferError,
                              "hxrt's __dlpack__ gives the tensor's own host memory: no copy, "
                              "and no device but the CPU (1, 0)");
              throw nb::python_error();
            }
            return host_view(self);
          },
          nb::kw_only(), nb::arg("stream") = nb::none(), nb::arg("max_version") = nb::none(),
          nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none(),
          nb::sig("def __dlpack__(self, *, stream: object = None, max_version: object = None, "
                  "dl_device: object = None, copy: object = None) -> object"),
          "The tensor as a DLPack capsule, without a copy: its own host memory, which the "
          "capsule holds (a tensor in a device's own memory raises BufferError). Waits for "
          "the work that writes it; np.from_dlpack and torch.from_dlpack call it.")
      .def(
          "__dlpack_device__",
          [](const hxrt::Tensor& self) {
            if (self.host_address() == nullptr && self.byte_size() != 0) host_view(self);  // raises
            return nb::make_tuple(1, 0);
          },
          nb::sig("def __dlpack_device__(self) -> tuple[int, int]"),
          "(1, 0): DLPack's CPU, where a tensor of host memory is.")
      .def(
          "__str__", [](nb::handle self) { return python_half("str_of")(self); },
          nb::sig("def __str__(self) -> str"), "As tf.Tensor prints: values, shape, dtype.")
      .def(
          "__repr__", [](nb::handle self) { return python_half("repr_of")(self); },
          nb::sig("def __repr__(self) -> str"));
  bind_operators(tensor);
}

}  // namespace hxpy

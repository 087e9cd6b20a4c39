// hxrt::Error as the Python exception of its status: the classes are hxrt.errors' (OpError and
// a subclass per status, as tf.errors has them), which that module hands over when it is
// imported; each raised exception carries hxrt's message.
#include <Python.h>

#include <array>
#include <exception>

#include "bindings.hpp"

namespace hxpy {
namespace {

constexpr size_t kStatusCodes = static_cast<size_t>(hxrt::StatusCode::kInternal) + 1;
// Borrowed for the life of the interpreter: a reference is taken when they are registered and
// never dropped, since the translator may run until the module's last call.
std::array<PyObject*, kStatusCodes> error_classes{};

void translate(const std::exception_ptr& thrown, void*) {
  try {
    std::rethrow_exception(thrown);
  } catch (const hxrt::Error& error) {
    const size_t code = static_cast<size_t>(error.code());
    PyObject* type = code < kStatusCodes && error_classes[code] != nullptr ? error_classes[code]
                                                                          : PyExc_RuntimeError;
    PyErr_SetString(type, error.what());
  }
}

// `classes` maps a status code's name ("INVALID_ARGUMENT") to its exception class.
void register_error_classes(nb::dict classes) {
  for (size_t code = 1; code < kStatusCodes; ++code) {
    const char* name = hxrt::status_code_name(static_cast<hxrt::StatusCode>(code));
    if (!classes.contains(name)) {
      throw nb::value_error((std::string("no exception class for status ") + name).c_str());
    }
    nb::object type = classes[name];
    Py_XDECREF(error_classes[code]);
    error_classes[code] = type.release().ptr();
  }
}

}  // namespace

void bind_errors(nb::module_& module) {
  nb::register_exception_translator(translate);
  module.def("_register_error_classes", &register_error_classes, nb::arg("classes"),
             "Sets the exception class of each status code name (hxrt.errors calls it).");
}

}  // namespace hxpy

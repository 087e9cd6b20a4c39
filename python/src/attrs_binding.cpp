// Python attribute values as the C++ API's AttrValue: bool before int (a bool is an int in
// Python), a list by its first element (an empty list is ints, as ONNX's empty lists are).
#include <string>
#include <vector>

#include "bindings.hpp"

namespace hxpy {
namespace {

[[noreturn]] void refuse(const std::string& name, nb::handle value) {
  const std::string type = nb::cast<std::string>(nb::type_name(value.type()));
  throw nb::type_error(("attribute '" + name + "' is a " + type +
                        "; attributes are bool, int, float, str, a dtype, or a list of ints "
                        "or of floats")
                           .c_str());
}

hxrt::AttrValue list_value(const std::string& name, nb::handle list) {
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool as_floats = false;
  for (nb::handle item : list) {
    if (PyFloat_Check(item.ptr())) as_floats = true;
    else if (!PyLong_Check(item.ptr()) || PyBool_Check(item.ptr())) refuse(name, item);
  }
  for (nb::handle item : list) {
    if (as_floats) floats.push_back(nb::cast<double>(item));
    else ints.push_back(nb::cast<int64_t>(item));
  }
  if (as_floats) return floats;
  return ints;
}

hxrt::AttrValue to_attr_value(const std::string& name, nb::handle value) {
  if (PyBool_Check(value.ptr())) return nb::cast<bool>(value);
  if (PyLong_Check(value.ptr())) return nb::cast<int64_t>(value);
  if (PyFloat_Check(value.ptr())) return nb::cast<double>(value);
  if (PyUnicode_Check(value.ptr())) return nb::cast<std::string>(value);
  if (nb::isinstance<hxrt::DType>(value)) return nb::cast<hxrt::DType>(value);
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) return list_value(name, value);
  refuse(name, value);
}

}  // namespace

hxrt::Attrs to_attrs(nb::handle dict) {
  hxrt::Attrs attrs;
  if (dict.is_none()) return attrs;
  for (auto [key, value] : nb::borrow<nb::dict>(dict)) {
    const std::string name = nb::cast<std::string>(key);
    attrs.set(name, to_attr_value(name, value));
  }
  return attrs;
}

}  // namespace hxpy

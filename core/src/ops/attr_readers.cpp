#include <string>

#include "hxrt/error.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

namespace {

[[noreturn]] void wrong_type(const InferContext& call, const char* name, const char* expected,
                             const AttrValue& found) {
  throw Error(StatusCode::kInvalidArgument,
              call.op + ": attribute '" + name + "' must be " + expected + ", got " +
                  attr_type_name(found) + " (" + attr_value_to_string(found) + ")");
}

template <class T>
T read(const InferContext& call, const char* name, const char* expected, T default_value) {
  const AttrValue* value = call.attrs.find(name);
  if (!value) return default_value;
  if (const T* typed = std::get_if<T>(value)) return *typed;
  wrong_type(call, name, expected, *value);
}

}  // namespace

bool attr_bool(const InferContext& call, const char* name, bool default_value) {
  return read<bool>(call, name, "a bool", default_value);
}

std::string attr_string(const InferContext& call, const char* name,
                        const std::string& default_value) {
  return read<std::string>(call, name, "a string", default_value);
}

int64_t attr_int(const InferContext& call, const char* name, int64_t default_value) {
  return read<int64_t>(call, name, "an int", default_value);
}

double attr_float(const InferContext& call, const char* name, double default_value) {
  const AttrValue* value = call.attrs.find(name);
  if (!value) return default_value;
  // An int is accepted where a float is expected, as the ABI's attr_float does: Fill's value 1.
  if (const int64_t* integer = std::get_if<int64_t>(value)) return static_cast<double>(*integer);
  if (const double* real = std::get_if<double>(value)) return *real;
  wrong_type(call, name, "a float (or an int)", *value);
}

DType attr_dtype(const InferContext& call, const char* name, DType default_value) {
  return read<DType>(call, name, "a dtype", default_value);
}

std::vector<int64_t> attr_ints(const InferContext& call, const char* name,
                               const std::vector<int64_t>& default_value) {
  return read<std::vector<int64_t>>(call, name, "a list of ints", default_value);
}

std::vector<double> attr_floats(const InferContext& call, const char* name,
                                const std::vector<double>& default_value) {
  return read<std::vector<double>>(call, name, "a list of floats", default_value);
}

const AttrValue& required_attr(const InferContext& call, const char* name, const char* what) {
  const AttrValue* value = call.attrs.find(name);
  if (!value) {
    throw Error(StatusCode::kInvalidArgument, call.op + ": missing required attribute '" + name +
                                                  "' (" + what + ")");
  }
  return *value;
}

}  // namespace hxrt::detail

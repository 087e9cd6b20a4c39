#include "models/onnx/tensor_proto.hpp"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "hxrt/error.hpp"
#include "models/onnx/model_refusal.hpp"
#include "models/onnx/onnx_types.hpp"

namespace hxrt::detail {
namespace {

namespace fs = std::filesystem;

Shape shape_of(const onnx::TensorProto& tensor, const std::string& what) {
  std::vector<int64_t> dims(tensor.dims().begin(), tensor.dims().end());
  try {
    return Shape(dims);
  } catch (const Error& error) {
    refuse_model(what, std::string("its shape cannot be a tensor's: ") + error.what());
  }
}

// The elements of a typed field (float_data, int64_data, ...) as `Stored`, each converted to
// the tensor's `Element`.
template <class Element, class Field>
std::string from_field(const Field& field, size_t count, const std::string& what,
                       const char* field_name) {
  if (static_cast<size_t>(field.size()) != count) {
    refuse_model(what, "its " + std::string(field_name) + " holds " + std::to_string(field.size()) +
                           " values, but its shape has " + std::to_string(count) + " elements");
  }
  std::string bytes(count * sizeof(Element), '\0');
  for (size_t i = 0; i < count; ++i) {
    const auto element = static_cast<Element>(field.Get(static_cast<int>(i)));
    std::memcpy(&bytes[i * sizeof(Element)], &element, sizeof(Element));
  }
  return bytes;
}

// The file of external data `location`, inside `dir`: ONNX's own rule, so that a model
// cannot make its loader read files elsewhere.
fs::path external_file(const std::string& location, const std::string& dir,
                       const std::string& what) {
  if (dir.empty()) {
    refuse_model(what, "its data is stored in the external file '" + location +
                           "', and a model loaded from bytes has no folder to find it in; set "
                           "OnnxLoadOptions::external_data_dir, or load the model from its file");
  }
  const fs::path relative(location);
  if (location.empty() || relative.is_absolute()) {
    refuse_model(what, "its external data location '" + location +
                           "' must be a path relative to the model's folder");
  }
  for (const fs::path& part : relative) {
    if (part == "..") {
      refuse_model(what, "its external data location '" + location +
                             "' leaves the model's folder ('..'); keep the data beside the model");
    }
  }
  std::error_code error;
  const fs::path base = fs::weakly_canonical(fs::path(dir), error);
  const fs::path file = fs::weakly_canonical(fs::path(dir) / relative, error);
  if (error) refuse_model(what, "its external data file '" + location + "': " + error.message());
  const std::string base_text = base.string() + "/";
  if (file.string().compare(0, base_text.size(), base_text) != 0) {
    refuse_model(what, "its external data file '" + location +
                           "' resolves (through a link) to outside the model's folder");
  }
  return file;
}

uint64_t parse_number(const std::string& text, const std::string& key, const std::string& what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 19) {
    refuse_model(what, "its external data " + key + " '" + text + "' is not a non-negative number");
  }
  return std::stoull(text);
}

std::string read_external(const onnx::TensorProto& tensor, size_t expected,
                          const std::string& what, const std::string& dir) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const onnx::StringStringEntryProto& entry : tensor.external_data()) {
    if (entry.key() == "location") location = entry.value();
    if (entry.key() == "offset") offset = parse_number(entry.value(), "offset", what);
    if (entry.key() == "length") length = parse_number(entry.value(), "length", what);
  }
  if (length && *length != expected) {
    refuse_model(what, "its external data length is " + std::to_string(*length) +
                           " bytes, but its shape and type need " + std::to_string(expected));
  }
  const fs::path file = external_file(location, dir, what);
  std::error_code error;
  const uintmax_t size = fs::file_size(file, error);
  if (error)
    refuse_model(what, "cannot read its external data file '" + location + "': " + error.message());
  if (offset > size || expected > size - offset) {
    refuse_model(what, "its external data (" + std::to_string(expected) + " bytes from offset " +
                           std::to_string(offset) + ") runs past the end of '" + location + "' (" +
                           std::to_string(size) + " bytes)");
  }
  std::ifstream in(file, std::ios::binary);
  std::string bytes(expected, '\0');
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(expected));
  if (!in) refuse_model(what, "reading its external data from '" + location + "' failed");
  return bytes;
}

}  // namespace

TensorValue read_tensor_proto(const onnx::TensorProto& tensor, const std::string& what,
                              const std::string& external_dir) {
  const std::optional<DType> dtype = dtype_of_onnx(tensor.data_type());
  if (!dtype) {
    refuse_model(what, "its elements are " + onnx_type_name(tensor.data_type()) + "; " +
                           supported_onnx_types());
  }
  TensorValue value;
  value.dtype = *dtype;
  value.shape = shape_of(tensor, what);
  size_t bytes = 0;
  try {
    bytes = tensor_bytes(value.dtype, value.shape);
  } catch (const Error& error) {
    refuse_model(what, error.what());
  }
  const auto count = static_cast<size_t>(value.shape.num_elements());
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    value.bytes = read_external(tensor, bytes, what, external_dir);
  } else if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != bytes) {
      refuse_model(what, "its raw_data holds " + std::to_string(tensor.raw_data().size()) +
                             " bytes, but its shape and type need " + std::to_string(bytes));
    }
    value.bytes = tensor.raw_data();
  } else {
    switch (value.dtype) {
      case DType::kF32:
        value.bytes = from_field<float>(tensor.float_data(), count, what, "float_data");
        break;
      case DType::kF64:
        value.bytes = from_field<double>(tensor.double_data(), count, what, "double_data");
        break;
      case DType::kI32:
        value.bytes = from_field<int32_t>(tensor.int32_data(), count, what, "int32_data");
        break;
      case DType::kI64:
        value.bytes = from_field<int64_t>(tensor.int64_data(), count, what, "int64_data");
        break;
      case DType::kF16:
      case DType::kBF16:  // int32_data holds each element's 16 bits
        value.bytes = from_field<uint16_t>(tensor.int32_data(), count, what, "int32_data");
        break;
      case DType::kBool:
        value.bytes = from_field<bool>(tensor.int32_data(), count, what, "int32_data");
        break;
      // ONNX keeps the narrow integers in int32_data and the wide unsigned ones in
      // uint64_data; a value outside the type keeps its low bits, as C++ converts.
      case DType::kI8:
        value.bytes = from_field<int8_t>(tensor.int32_data(), count, what, "int32_data");
        break;
      case DType::kU8:
        value.bytes = from_field<uint8_t>(tensor.int32_data(), count, what, "int32_data");
        break;
      case DType::kI16:
        value.bytes = from_field<int16_t>(tensor.int32_data(), count, what, "int32_data");
        break;
      case DType::kU16:
        value.bytes = from_field<uint16_t>(tensor.int32_data(), count, what, "int32_data");
        break;
      case DType::kU32:
        value.bytes = from_field<uint32_t>(tensor.uint64_data(), count, what, "uint64_data");
        break;
      case DType::kU64:
        value.bytes = from_field<uint64_t>(tensor.uint64_data(), count, what, "uint64_data");
        break;
      case DType::kF8E4M3FN:
      case DType::kF8E4M3FNUZ:
      case DType::kF8E5M2:
      case DType::kF8E5M2FNUZ:  // int32_data holds each element's 8 bits
        value.bytes = from_field<uint8_t>(tensor.int32_data(), count, what, "int32_data");
        break;
    }
  }
  if (value.dtype == DType::kBool) {
    for (char& byte : value.bytes) byte = byte != 0 ? 1 : 0;
  }
  return value;
}

}  // namespace hxrt::detail

#include "models/onnx/onnx_file.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>

#include "base/file_kind.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

std::string read_model_file(const std::string& path) {
  const std::string what = "model file '" + path + "'";
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    const int error = errno;
    throw Error(error == ENOENT ? StatusCode::kNotFound : StatusCode::kInvalidArgument,
                what + ": " + std::strerror(error) + "; give the path of an .onnx file");
  }
  // Anything but a regular file could block the read (a FIFO) or never end (a device).
  if (!S_ISREG(info.st_mode)) {
    throw Error(StatusCode::kInvalidArgument, what + " is " + file_kind(info.st_mode) +
                                                  ", not a regular file; give an .onnx file");
  }
  if (static_cast<uintmax_t>(info.st_size) >= static_cast<uintmax_t>(INT_MAX)) {
    throw Error(StatusCode::kInvalidArgument,
                what + " is " + std::to_string(info.st_size) +
                    " bytes; protobuf reads models under 2 GiB. Save a larger model with its "
                    "weights as external data (onnx.save_model(model, path, "
                    "save_as_external_data=True)), which hxrt reads from beside the model");
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<size_t>(info.st_size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in || in.gcount() != static_cast<std::streamsize>(bytes.size())) {
    throw Error(StatusCode::kInvalidArgument, what + ": reading it failed");
  }
  return bytes;
}

onnx::ModelProto parse_model(const void* data, size_t size, const std::string& what) {
  if (size >= static_cast<size_t>(INT_MAX)) {
    throw Error(StatusCode::kInvalidArgument,
                what + " is " + std::to_string(size) +
                    " bytes; protobuf reads models under 2 GiB: keep the weights of a larger "
                    "model as external data");
  }
  onnx::ModelProto model;
  google::protobuf::io::CodedInputStream stream(static_cast<const uint8_t*>(data),
                                                static_cast<int>(size));
  if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage()) {
    throw Error(StatusCode::kInvalidArgument,
                what + " is not an ONNX model: protobuf cannot parse it as a ModelProto "
                       "(a truncated or corrupt file, or another format); export it again");
  }
  if (!model.has_graph()) {
    throw Error(StatusCode::kInvalidArgument, what + " has no graph: it is not a model");
  }
  return model;
}

}  // namespace hxrt::detail

// Reading an ONNX model's bytes into ONNX's own ModelProto (protobuf), with the limits a file
// from anyone needs.
#pragma once

#include <cstddef>
#include <string>

#include <onnx/onnx_pb.h>

namespace hxrt::detail {

// The bytes of the model file at `path`. Error(kNotFound) when there is none;
// Error(kInvalidArgument) for a folder, an unreadable file, or one of 2 GiB or more (which
// protobuf cannot parse: such a model keeps its weights as external data).
std::string read_model_file(const std::string& path);

// `size` bytes at `data` parsed as a ModelProto. `what` names the source in errors ("model
// file 'm.onnx'"). Error(kInvalidArgument) for bytes that are not one, with what to do.
onnx::ModelProto parse_model(const void* data, size_t size, const std::string& what);

}  // namespace hxrt::detail

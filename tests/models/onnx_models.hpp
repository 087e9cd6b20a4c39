// Small ONNX models built with ONNX's protobuf messages, for the import tests.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

#include <hxrt/hxrt.hpp>

namespace onnx_test {

// A model of ONNX's default domain at `opset`, with an empty graph named "g".
onnx::ModelProto model(int64_t opset = 17);

// Adds graph input `name` of element type `type` (onnx::TensorProto::FLOAT, ...) and `dims`,
// each an extent or, as a string, a named dimension ("batch"); "" for an unnamed open one.
struct Dim {
  Dim(int64_t extent) : value(extent) {}  // NOLINT: a dimension reads as its extent
  Dim(const char* param) : value(-1), name(param) {}  // NOLINT: or as its name
  int64_t value;
  std::string name;
};
void add_input(onnx::ModelProto& model, const std::string& name, int32_t type,
               const std::vector<Dim>& dims);
void add_output(onnx::ModelProto& model, const std::string& name);
// A float initializer.
void add_initializer(onnx::ModelProto& model, const std::string& name,
                     const std::vector<int64_t>& dims, const std::vector<float>& values);
onnx::NodeProto& add_node(onnx::ModelProto& model, const std::string& op,
                          const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "");
void set_int(onnx::NodeProto& node, const std::string& name, int64_t value);
void set_float(onnx::NodeProto& node, const std::string& name, float value);
void set_floats(onnx::NodeProto& node, const std::string& name, const std::vector<float>& values);

std::string bytes_of(const onnx::ModelProto& model);

// x [batch, 2] -> MatMul by w [2, 2] -> Add b [2] -> Relu -> y: w = [[1, 2], [3, 4]],
// b = [-10, 1].
onnx::ModelProto dense_model();

// A runtime with the CPU plugin and `gpus` sim GPUs, quiet.
hxrt::Runtime runtime(int gpus = 0);

}  // namespace onnx_test

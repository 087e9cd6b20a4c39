#include "onnx_models.hpp"

namespace onnx_test {

onnx::ModelProto model(int64_t opset) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("hxrt-tests");
  onnx::OperatorSetIdProto* import = model.add_opset_import();
  import->set_domain("");
  import->set_version(opset);
  model.mutable_graph()->set_name("g");
  return model;
}

void add_input(onnx::ModelProto& model, const std::string& name, int32_t type,
               const std::vector<Dim>& dims) {
  onnx::ValueInfoProto* input = model.mutable_graph()->add_input();
  input->set_name(name);
  onnx::TypeProto::Tensor* tensor = input->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(type);
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  for (const Dim& dim : dims) {
    onnx::TensorShapeProto::Dimension* added = shape->add_dim();
    if (dim.value >= 0) {
      added->set_dim_value(dim.value);
    } else if (!dim.name.empty()) {
      added->set_dim_param(dim.name);
    }
  }
}

void add_output(onnx::ModelProto& model, const std::string& name) {
  model.mutable_graph()->add_output()->set_name(name);
}

void add_initializer(onnx::ModelProto& model, const std::string& name,
                     const std::vector<int64_t>& dims, const std::vector<float>& values) {
  onnx::TensorProto* tensor = model.mutable_graph()->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t dim : dims) tensor->add_dims(dim);
  for (float value : values) tensor->add_float_data(value);
}

onnx::NodeProto& add_node(onnx::ModelProto& model, const std::string& op,
                          const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name) {
  onnx::NodeProto* node = model.mutable_graph()->add_node();
  node->set_op_type(op);
  node->set_name(name);
  for (const std::string& input : inputs) node->add_input(input);
  for (const std::string& output : outputs) node->add_output(output);
  return *node;
}

void set_int(onnx::NodeProto& node, const std::string& name, int64_t value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(value);
}

void set_float(onnx::NodeProto& node, const std::string& name, float value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::FLOAT);
  attribute->set_f(value);
}

void set_floats(onnx::NodeProto& node, const std::string& name,
                const std::vector<float>& values) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::FLOATS);
  for (float value : values) attribute->add_floats(value);
}

std::string bytes_of(const onnx::ModelProto& model) { return model.SerializeAsString(); }

onnx::ModelProto dense_model() {
  onnx::ModelProto dense = model();
  add_input(dense, "x", onnx::TensorProto::FLOAT, {"batch", 2});
  add_initializer(dense, "w", {2, 2}, {1, 2, 3, 4});
  add_initializer(dense, "b", {2}, {-10, 1});
  add_node(dense, "MatMul", {"x", "w"}, {"xw"}, "matmul");
  add_node(dense, "Add", {"xw", "b"}, {"z"}, "add");
  add_node(dense, "Relu", {"z"}, {"y"}, "relu");
  add_output(dense, "y");
  return dense;
}

hxrt::Runtime runtime(int gpus) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  if (gpus > 0) {
    options.plugin_paths.push_back(std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so");
    options.plugin_options = {
        {"sim", "{\"device_type\":\"GPU\",\"device_count\":" + std::to_string(gpus) + "}"}};
  }
  options.log_sink = [](hxrt::LogLevel, std::string_view) {};
  return hxrt::Runtime::create(options);
}

}  // namespace onnx_test

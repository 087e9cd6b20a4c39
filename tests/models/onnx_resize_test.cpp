// ONNX's Resize and Upsample through Runtime::load_onnx: roi, scales and sizes read from
// initializers as attributes (an empty one or a name left out is absent), each version's
// inputs, and the coordinates Resize 10 and Upsample imply.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "error_from.hpp"
#include "onnx_models.hpp"

using onnx_test::add_initializer;
using onnx_test::add_input;
using onnx_test::add_node;
using onnx_test::add_output;
using onnx_test::bytes_of;

namespace {

void add_int64s(onnx::ModelProto& proto, const std::string& name,
                const std::vector<int64_t>& values) {
  onnx::TensorProto* tensor = proto.mutable_graph()->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::INT64);
  tensor->add_dims(static_cast<int64_t>(values.size()));
  for (int64_t value : values) tensor->add_int64_data(value);
}

// y = Resize or Upsample of x [1, 4] = [1, 2, 3, 4], its other inputs as given.
onnx::ModelProto resize_model(int64_t opset, const std::string& op,
                              const std::vector<std::string>& inputs) {
  onnx::ModelProto proto = onnx_test::model(opset);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {1, 4});
  add_node(proto, op, inputs, {"y"}, "resize");
  add_output(proto, "y");
  return proto;
}

void set_text(onnx::NodeProto& node, const std::string& name, const std::string& value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::STRING);
  attribute->set_s(value);
}

std::vector<float> run_resize(const onnx::ModelProto& proto) {
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  const hxrt::Tensor x = rt.tensor<float>({1, 4}, {1, 2, 3, 4});
  return rt.compile(model.graph, model.outputs).run({{"x", x}})[0].to_vector<float>();
}

}  // namespace

TEST_CASE("Resize reads roi, scales and sizes from initializers, empty ones as absent",
          "[models][resize]") {
  // Opset 19 leaves roi out by name: nearest with half_pixel, [1, 2, 3, 4] at 0.75 samples
  // x_original 1/6, 3/2 and 17/6.
  onnx::ModelProto scaled = resize_model(19, "Resize", {"x", "", "scales"});
  add_initializer(scaled, "scales", {2}, {1, 0.75f});
  CHECK(run_resize(scaled) == std::vector<float>{1, 2, 4});
  // Opset 11 passes roi and an empty scales, and the sizes.
  onnx::ModelProto sized = resize_model(11, "Resize", {"x", "roi", "scales", "sizes"});
  add_initializer(sized, "roi", {0}, {});
  add_initializer(sized, "scales", {0}, {});
  add_int64s(sized, "sizes", {1, 8});
  onnx::NodeProto& node = *sized.mutable_graph()->mutable_node(0);
  set_text(node, "mode", "linear");
  CHECK(run_resize(sized) == std::vector<float>{1, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4});
}

TEST_CASE("Resize 10 and Upsample sample asymmetric coordinates, rounding as ONNX Runtime",
          "[models][resize]") {
  // x_original 0, 4/3 and 8/3, rounded up on an axis that shrinks.
  onnx::ModelProto shrunk = resize_model(10, "Resize", {"x", "scales"});
  add_initializer(shrunk, "scales", {2}, {1, 0.75f});
  CHECK(run_resize(shrunk) == std::vector<float>{1, 3, 4});
  // ... and down on one that grows: x_original 0, 2/3, 4/3, ...
  onnx::ModelProto grown = resize_model(9, "Upsample", {"x", "scales"});
  add_initializer(grown, "scales", {2}, {1, 1.5f});
  CHECK(run_resize(grown) == std::vector<float>{1, 1, 2, 3, 3, 4});
  // Upsample 7 takes its scales as an attribute.
  onnx::ModelProto attribute = resize_model(8, "Upsample", {"x"});
  onnx_test::set_floats(*attribute.mutable_graph()->mutable_node(0), "scales", {1, 2});
  set_text(*attribute.mutable_graph()->mutable_node(0), "mode", "linear");
  CHECK(run_resize(attribute) == std::vector<float>{1, 1.5, 2, 2.5, 3, 3.5, 4, 4});
  // Version 10 has no coordinate_transformation_mode: a node that sets it is refused.
  set_text(*shrunk.mutable_graph()->mutable_node(0), "coordinate_transformation_mode",
           "half_pixel");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(shrunk);
  const auto error = hxrt_test::error_from([&] { rt.load_onnx(bytes.data(), bytes.size()); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("node 'resize' (Resize) attribute "
                                            "'coordinate_transformation_mode' is not one of "
                                            "Resize version 10, which implies \"asymmetric\""));
}

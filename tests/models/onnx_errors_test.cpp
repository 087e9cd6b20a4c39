// What Runtime::load_onnx refuses, and how it says so: never a crash, never a model run with
// an op, version, attribute or value hxrt does not implement as ONNX means it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "error_from.hpp"
#include "temp_dir.hpp"
#include "onnx_models.hpp"

using hxrt_test::error_from;
using onnx_test::add_input;
using onnx_test::add_node;
using onnx_test::add_output;
using onnx_test::bytes_of;

namespace {

// The message load_onnx gives for `proto`, loaded from bytes; fails the test when it loads.
std::string refusal(const onnx::ModelProto& proto, const hxrt::OnnxLoadOptions& options = {}) {
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const auto error = error_from([&] { rt.load_onnx(bytes.data(), bytes.size(), options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  return error->what();
}

onnx::ModelProto relu_model(int64_t opset = 17) {
  onnx::ModelProto proto = onnx_test::model(opset);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {2});
  add_node(proto, "Relu", {"x"}, {"y"}, "relu");
  add_output(proto, "y");
  return proto;
}

}  // namespace

TEST_CASE("An open dimension must be bound, and a given shape must agree", "[models]") {
  const std::string prefix = "model (";
  CHECK_THAT(refusal(onnx_test::dense_model()),
             Catch::Contains("graph input 'x' has shape [batch, 2]: dimension 0 'batch' is "
                             "left open. Bind it: OnnxLoadOptions::dims[\"batch\"], or "
                             "OnnxLoadOptions::input_shapes[\"x\"]"));
  hxrt::OnnxLoadOptions options;
  options.input_shapes["x"] = hxrt::Shape({2, 3});
  CHECK_THAT(refusal(onnx_test::dense_model(), options),
             Catch::Contains("the shape given for it, [2, 3], disagrees with the model's "
                             "[batch, 2]"));
}

TEST_CASE("An op hxrt lacks is refused with the list of what it has", "[models]") {
  onnx::ModelProto proto = relu_model();
  proto.mutable_graph()->mutable_node(0)->set_op_type("Frobnicate");
  const std::string message = refusal(proto);
  CHECK_THAT(message, Catch::Contains("node 'relu' (Frobnicate): hxrt has no op Frobnicate. "
                                      "The ONNX ops it implements: "));
  CHECK_THAT(message, Catch::Contains("MatMul"));
}

TEST_CASE("A version older than hxrt implements is refused, naming the versions it has",
          "[models]") {
  CHECK_THAT(refusal(relu_model(12)),
             Catch::Contains("node 'relu' (Relu): at opset 12 this is a version of Relu older "
                             "than hxrt implements; hxrt implements its versions 14"));
  CHECK_THAT(refusal(relu_model(22)),
             Catch::Contains("the model uses opset 22, newer than the 21 hxrt knows"));
}

TEST_CASE("Another domain, an unknown attribute and an output hxrt does not compute are refused",
          "[models]") {
  onnx::ModelProto custom = relu_model();
  custom.mutable_graph()->mutable_node(0)->set_domain("com.microsoft");
  CHECK_THAT(refusal(custom), Catch::Contains("node 'relu' (Relu) is of domain 'com.microsoft', "
                                              "which hxrt does not implement"));
  onnx::ModelProto attribute = relu_model();
  onnx_test::set_float(*attribute.mutable_graph()->mutable_node(0), "alpha", 0.5f);
  CHECK_THAT(refusal(attribute),
             Catch::Contains("node 'relu' (Relu) attribute 'alpha' is not one hxrt's Relu "
                             "implements (it takes none); hxrt will not run a node with an "
                             "attribute it would ignore"));
  onnx::ModelProto outputs = relu_model();
  outputs.mutable_graph()->mutable_node(0)->add_output("extra");
  CHECK_THAT(refusal(outputs), Catch::Contains("node 'relu' (Relu) asks for output 1 ('extra'), "
                                               "which hxrt's Relu does not compute"));
}

TEST_CASE("A Split whose num_outputs disagrees with its outputs is refused", "[models]") {
  onnx::ModelProto proto = onnx_test::model(18);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {6});
  onnx_test::set_int(add_node(proto, "Split", {"x"}, {"a", "b"}, "halves"), "num_outputs", 3);
  add_output(proto, "a");
  CHECK_THAT(refusal(proto), Catch::Contains("node 'halves' (Split) has attribute 'num_outputs' "
                                             "3 but 2 outputs; ONNX asks for one output per "
                                             "part"));
}

TEST_CASE("A Split whose num_outputs is not an int is refused", "[models]") {
  onnx::ModelProto proto = onnx_test::model(18);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {6});
  onnx_test::set_float(add_node(proto, "Split", {"x"}, {"a", "b"}, "halves"), "num_outputs", 2);
  add_output(proto, "a");
  CHECK_THAT(refusal(proto), Catch::Contains("node 'halves' (Split)"));
  CHECK_THAT(refusal(proto), Catch::Contains("num_outputs"));
}

TEST_CASE("A value no earlier node defines, and a dtype hxrt lacks, are refused", "[models]") {
  onnx::ModelProto undefined = relu_model();
  undefined.mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
  CHECK_THAT(refusal(undefined), Catch::Contains("node 'relu' (Relu) input 0 reads 'nowhere', "
                                                 "which no initializer, graph input or earlier "
                                                 "node defines"));
  onnx::ModelProto strings = relu_model();
  strings.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::STRING);
  CHECK_THAT(refusal(strings),
             Catch::Contains("graph input 'x' has elements of STRING; hxrt reads tensors of "
                             "FLOAT, DOUBLE, FLOAT16, BFLOAT16, FLOAT8E4M3FN, FLOAT8E4M3FNUZ, "
                             "FLOAT8E5M2, FLOAT8E5M2FNUZ, INT8, UINT8, INT16, UINT16, INT32, "
                             "UINT32, INT64, UINT64 and BOOL"));
}

TEST_CASE("Bytes that are not a model, and paths that are not model files, are refused",
          "[models]") {
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string garbage = "\x0a\xff\xff\xff\xff\x0f not protobuf";
  auto error = error_from([&] { rt.load_onnx(garbage.data(), garbage.size()); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("is not an ONNX model: protobuf cannot parse it"));
  const std::string truncated = bytes_of(onnx_test::dense_model()).substr(0, 40);
  CHECK(error_from([&] { rt.load_onnx(truncated.data(), truncated.size()); }));
  error = error_from([&] { rt.load_onnx("/no/such/model.onnx"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  error = error_from([&] { rt.load_onnx("/tmp"); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("is a directory, not a regular file"));
}

TEST_CASE("A model file of 2 GiB or more is refused before it is read", "[models]") {
  hxrt_test::TempDir dir("hxrt_onnx");
  const std::string path = (dir.path() / "huge.onnx").string();
  // Sparse: it takes no disk, and the loader refuses it by its size alone.
  std::ofstream(path).close();
  std::filesystem::resize_file(path, uint64_t{2} << 30);
  hxrt::Runtime rt = onnx_test::runtime();
  const auto error = error_from([&] { rt.load_onnx(path); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("protobuf reads models under 2 GiB. Save a larger "
                                            "model with its weights as external data"));
}

TEST_CASE("External data must stay in the model's folder", "[models]") {
  onnx::ModelProto proto = onnx_test::dense_model();
  onnx::TensorProto& w = *proto.mutable_graph()->mutable_initializer(0);
  w.clear_float_data();
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  onnx::StringStringEntryProto* location = w.add_external_data();
  location->set_key("location");
  hxrt::OnnxLoadOptions options;
  options.dims["batch"] = 1;
  location->set_value("weights.bin");
  CHECK_THAT(refusal(proto, options),
             Catch::Contains("a model loaded from bytes has no folder to find it in"));
  options.external_data_dir = "/tmp";
  location->set_value("../etc/passwd");
  CHECK_THAT(refusal(proto, options), Catch::Contains("leaves the model's folder ('..')"));
  location->set_value("/etc/passwd");
  CHECK_THAT(refusal(proto, options),
             Catch::Contains("must be a path relative to the model's folder"));
  location->set_value("hxrt-no-such-weights.bin");
  CHECK_THAT(refusal(proto, options), Catch::Contains("cannot read its external data file"));
}

// Runtime::load_onnx on models that hxrt runs: the graph it builds (inputs and outputs by
// their ONNX names, initializers as constants, what is known at load computed then), and
// runs of it, on the CPU and on a GPU.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "error_from.hpp"
#include "temp_dir.hpp"

#include "onnx_models.hpp"

using hxrt::Tensor;
using onnx_test::add_initializer;
using onnx_test::add_input;
using onnx_test::add_node;
using onnx_test::add_output;
using onnx_test::bytes_of;

namespace {

std::vector<Tensor> run(hxrt::Runtime& rt, const hxrt::OnnxModel& model,
                        const std::map<std::string, Tensor>& feeds) {
  return rt.compile(model.graph, model.outputs).run(feeds);
}

}  // namespace

TEST_CASE("An ONNX MLP layer loads as a graph and runs", "[models]") {
  hxrt::Runtime rt = onnx_test::runtime();
  hxrt::OnnxLoadOptions options;
  options.dims["batch"] = 2;
  const std::string bytes = bytes_of(onnx_test::dense_model());
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size(), options);
  CHECK(model.inputs == std::vector<std::string>{"x"});
  CHECK(model.output_names == std::vector<std::string>{"y"});
  CHECK(model.opset == 17);
  CHECK(model.producer == "hxrt-tests");
  const hxrt::GraphNode* w = model.graph.find("w");
  REQUIRE(w != nullptr);
  CHECK(w->kind == hxrt::GraphNode::Kind::kConstant);
  CHECK(model.graph.find("x")->output_shapes[0] == hxrt::Shape({2, 2}));
  CHECK(model.graph.find("matmul")->op == "MatMul");
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs);
  for (int i = 0; i < 2; ++i) {
    const std::vector<Tensor> y = exe.run({{"x", rt.tensor<float>({2, 2}, {1, 1, 2, 1})}});
    CHECK(y[0].to_string() == "[[0, 7], [0, 9]]");
  }
}

TEST_CASE("A loaded model is placed as any graph: scopes apply to its nodes", "[models]") {
  hxrt::Runtime rt = onnx_test::runtime(1);
  hxrt::OnnxLoadOptions options;
  options.input_shapes["x"] = hxrt::Shape({1, 2});
  const std::string bytes = bytes_of(onnx_test::dense_model());
  hxrt::OnnxModel model;
  {
    const auto scope = rt.device("/GPU:0");
    model = rt.load_onnx(bytes.data(), bytes.size(), options);
  }
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs);
  for (const hxrt::NodePlacement& placement : exe.placement()) {
    CHECK(placement.device == "/job:localhost/replica:0/task:0/device:GPU:0");
  }
  CHECK(exe.run({{"x", rt.tensor<float>({1, 2}, {1, 1})}})[0].to_string() == "[[0, 7]]");
}

TEST_CASE("Nodes whose inputs are known at load are computed then", "[models]") {
  // y = x + Cast(Shape(x)) + c, where c comes from a Constant node: only the Add nodes remain.
  onnx::ModelProto proto = onnx_test::model(17);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {3});
  add_node(proto, "Shape", {"x"}, {"shape"}, "shape_of_x");
  onnx_test::set_int(add_node(proto, "Cast", {"shape"}, {"shape_f"}, "cast"), "to",
                     onnx::TensorProto::FLOAT);
  onnx_test::set_floats(add_node(proto, "Constant", {}, {"c"}, "c"), "value_floats",
                        {10, 20, 30});
  add_node(proto, "Add", {"x", "shape_f"}, {"x1"}, "add1");
  add_node(proto, "Add", {"x1", "c"}, {"y"}, "add2");
  add_output(proto, "y");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  CHECK(model.folded_nodes == 3);  // Shape, Cast, Constant
  CHECK(model.graph.find("cast") == nullptr);
  CHECK(model.graph.find("add1") != nullptr);
  CHECK(run(rt, model, {{"x", rt.tensor<float>({3}, {1, 2, 3})}})[0].to_string() ==
        "[14, 25, 36]");
}

TEST_CASE("Cast's ONNX attribute 'to' names an element type", "[models]") {
  onnx::ModelProto proto = onnx_test::model(19);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {2});
  onnx_test::set_int(add_node(proto, "Cast", {"x"}, {"y"}), "to", onnx::TensorProto::INT64);
  add_output(proto, "y");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  const std::vector<Tensor> y = run(rt, model, {{"x", rt.tensor<float>({2}, {1.5f, -2.5f})}});
  CHECK(y[0].dtype() == hxrt::DType::kI64);
  CHECK(y[0].to_string() == "[1, -2]");
  CHECK(model.graph.find("y") != nullptr);  // an unnamed node takes its output's name
}

TEST_CASE("Weights stored as external data are read from beside the model", "[models]") {
  const hxrt_test::TempDir scratch("hxrt_onnx");
  const std::filesystem::path dir = scratch.path();
  const float weights[] = {0, 0, 1, 2, 3, 4};  // 8 bytes of padding, then w
  std::ofstream(dir / "weights.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(weights), sizeof(weights));
  onnx::ModelProto proto = onnx_test::dense_model();
  onnx::TensorProto& w = *proto.mutable_graph()->mutable_initializer(0);
  w.clear_float_data();
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  const auto entry = [&](const char* key, const std::string& value) {
    onnx::StringStringEntryProto* added = w.add_external_data();
    added->set_key(key);
    added->set_value(value);
  };
  entry("location", "weights.bin");
  entry("offset", "8");
  entry("length", "16");
  std::ofstream(dir / "model.onnx", std::ios::binary) << bytes_of(proto);
  hxrt::Runtime rt = onnx_test::runtime();
  hxrt::OnnxLoadOptions options;
  options.dims["batch"] = 1;
  const hxrt::OnnxModel model = rt.load_onnx((dir / "model.onnx").string(), options);
  CHECK(run(rt, model, {{"x", rt.tensor<float>({1, 2}, {1, 1})}})[0].to_string() == "[[0, 7]]");
}

TEST_CASE("An input ONNX passes as a tensor is an attribute, known at load or computed at run",
          "[models]") {
  // y = Reshape(x, shape): from an initializer, from a value given for a graph input, and
  // from the value a run feeds.
  const auto reshape_model = [](bool shape_as_initializer) {
    onnx::ModelProto proto = onnx_test::model(17);
    add_input(proto, "x", onnx::TensorProto::FLOAT, {2, 3});
    if (shape_as_initializer) {
      onnx::TensorProto* shape = proto.mutable_graph()->add_initializer();
      shape->set_name("shape");
      shape->set_data_type(onnx::TensorProto::INT64);
      shape->add_dims(2);
      shape->add_int64_data(3);
      shape->add_int64_data(-1);
    } else {
      add_input(proto, "shape", onnx::TensorProto::INT64, {2});
    }
    add_node(proto, "Reshape", {"x", "shape"}, {"y"}, "reshape");
    add_output(proto, "y");
    return bytes_of(proto);
  };
  hxrt::Runtime rt = onnx_test::runtime();
  const Tensor x = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  const std::string with_initializer = reshape_model(true);
  hxrt::OnnxModel model = rt.load_onnx(with_initializer.data(), with_initializer.size());
  CHECK(model.graph.find("reshape")->attrs.find("shape") != nullptr);
  CHECK(run(rt, model, {{"x", x}})[0].shape() == hxrt::Shape({3, 2}));

  const std::string with_input = reshape_model(false);
  hxrt::OnnxLoadOptions options;
  options.input_values["shape"] = rt.tensor<int64_t>({2}, {1, 6});
  model = rt.load_onnx(with_input.data(), with_input.size(), options);
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs);
  CHECK(exe.inputs() == std::vector<std::string>{"x"});  // the shape is read at load only
  CHECK(exe.run({{"x", x}})[0].to_string() == "[[1, 2, 3, 4, 5, 6]]");

  // Without a value at load, the shape is the graph's to compute: fed at each run, and the
  // Reshape takes it as its attribute then (GraphNode::attr_inputs), each run its own.
  model = rt.load_onnx(with_input.data(), with_input.size());
  const hxrt::GraphNode& reshape = *model.graph.find("reshape");
  CHECK(reshape.attrs.find("shape") == nullptr);
  REQUIRE(reshape.attr_inputs.size() == 1);
  CHECK(reshape.attr_inputs[0].attr == "shape");
  CHECK(reshape.shapes_at_run);
  const hxrt::Executable at_run = rt.compile(model.graph, model.outputs);
  CHECK(at_run.inputs() == std::vector<std::string>{"x", "shape"});
  CHECK(at_run.run({{"x", x}, {"shape", rt.tensor<int64_t>({2}, {3, -1})}})[0].to_string() ==
        "[[1, 2], [3, 4], [5, 6]]");
  CHECK(at_run.run({{"x", x}, {"shape", rt.tensor<int64_t>({2}, {6, 1})}})[0].shape() ==
        hxrt::Shape({6, 1}));
  const auto error = hxrt_test::error_from(
      [&] { at_run.run({{"x", x}, {"shape", rt.tensor<int64_t>({2}, {4, -1})}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("graph node 'reshape' (Reshape)"));
}

TEST_CASE("Range takes its dtype from the dtype of ONNX's inputs", "[models]") {
  onnx::ModelProto proto = onnx_test::model(17);
  const auto scalar = [&](const char* name, int64_t value) {
    onnx::TensorProto* tensor = proto.mutable_graph()->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(onnx::TensorProto::INT64);
    tensor->add_int64_data(value);
  };
  scalar("start", 2);
  scalar("limit", 8);
  scalar("delta", 2);
  add_node(proto, "Range", {"start", "limit", "delta"}, {"r"}, "range");
  add_output(proto, "r");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  CHECK(model.folded_nodes == 1);
  const std::vector<Tensor> r = run(rt, model, {});
  CHECK(r[0].dtype() == hxrt::DType::kI64);
  CHECK(r[0].to_string() == "[2, 4, 6]");
}

TEST_CASE("A node's outputs are the op's by position, and an unnamed one is left unused",
          "[models]") {
  // LayerNormalization with outputs (y, "", inv): Mean is computed and read by nothing;
  // InvStdDev, output 2, is read by a Mul downstream. With x a graph input the node is a graph
  // node; with x an initializer it is computed at load.
  const auto layer_norm_model = [](bool x_known) {
    onnx::ModelProto proto = onnx_test::model(17);
    if (x_known) {
      add_initializer(proto, "x", {2, 3}, {1, 2, 3, 4, 6, 8});
    } else {
      add_input(proto, "x", onnx::TensorProto::FLOAT, {2, 3});
    }
    add_initializer(proto, "scale", {3}, {1, 1, 1});
    add_initializer(proto, "two", {}, {2});
    onnx_test::set_float(add_node(proto, "LayerNormalization", {"x", "scale"}, {"y", "", "inv"},
                                  "norm"),
                         "epsilon", 0);
    add_node(proto, "Mul", {"inv", "two"}, {"inv2"}, "twice");
    add_output(proto, "y");
    add_output(proto, "inv2");
    return bytes_of(proto);
  };
  hxrt::Runtime rt = onnx_test::runtime();
  // Rows [1, 2, 3] and [4, 6, 8]: variances 2/3 and 8/3.
  const std::vector<float> y_expected = {-1.2247449f, 0, 1.2247449f, -1.2247449f, 0, 1.2247449f};
  const std::vector<float> inv2_expected = {2 * 1.2247449f, 2 * 0.61237244f};
  for (const bool x_known : {false, true}) {
    INFO((x_known ? "x known at load" : "x a graph input"));
    const std::string bytes = layer_norm_model(x_known);
    const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
    CHECK(model.folded_nodes == (x_known ? 2 : 0));
    if (!x_known) {
      const hxrt::GraphNode* norm = model.graph.find("norm");
      REQUIRE(norm != nullptr);
      CHECK(norm->output_shapes ==
            std::vector<hxrt::Shape>{hxrt::Shape({2, 3}), hxrt::Shape({2, 1}),
                                     hxrt::Shape({2, 1})});
      CHECK(model.graph.find("twice")->inputs[0].node == "norm");
      CHECK(model.graph.find("twice")->inputs[0].index == 2);
    }
    std::map<std::string, Tensor> feeds;
    if (!x_known) feeds["x"] = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 6, 8});
    const std::vector<Tensor> outputs = run(rt, model, feeds);
    REQUIRE(outputs.size() == 2);
    CHECK(outputs[1].shape() == hxrt::Shape({2, 1}));
    const std::vector<float> y = outputs[0].to_vector<float>();
    const std::vector<float> inv2 = outputs[1].to_vector<float>();
    for (size_t i = 0; i < y.size(); ++i) CHECK(y[i] == Approx(y_expected[i]).margin(1e-6));
    for (size_t i = 0; i < inv2.size(); ++i) CHECK(inv2[i] == Approx(inv2_expected[i]));
  }
}

TEST_CASE("Split makes as many parts as the node has outputs, or as its split input lists",
          "[models]") {
  // Opset 13 without the split input: the node's three outputs give three equal parts. With
  // it (an initializer), its sizes.
  hxrt::Runtime rt = onnx_test::runtime();
  const Tensor x = rt.tensor<float>({6}, {1, 2, 3, 4, 5, 6});
  for (const bool listed : {false, true}) {
    INFO((listed ? "split listed" : "split by the outputs"));
    onnx::ModelProto proto = onnx_test::model(13);
    add_input(proto, "x", onnx::TensorProto::FLOAT, {6});
    std::vector<std::string> inputs = {"x"};
    if (listed) {
      onnx::TensorProto* split = proto.mutable_graph()->add_initializer();
      split->set_name("split");
      split->set_data_type(onnx::TensorProto::INT64);
      split->add_dims(3);
      for (int64_t size : {1, 0, 5}) split->add_int64_data(size);
      inputs.push_back("split");
    }
    add_node(proto, "Split", inputs, {"a", "b", "c"}, "split_x");
    for (const char* output : {"a", "b", "c"}) add_output(proto, output);
    const std::string bytes = bytes_of(proto);
    const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
    CHECK(model.graph.find("split_x")->attrs.find("num_outputs") != nullptr);
    const std::vector<Tensor> parts = run(rt, model, {{"x", x}});
    REQUIRE(parts.size() == 3);
    CHECK(parts[0].to_string() == (listed ? "[1]" : "[1, 2]"));
    CHECK(parts[1].to_string() == (listed ? "[]" : "[3, 4]"));
    CHECK(parts[2].to_string() == (listed ? "[2, 3, 4, 5, 6]" : "[5, 6]"));
  }
}

TEST_CASE("TopK reads K from an initializer and gives values and indices", "[models]") {
  onnx::ModelProto proto = onnx_test::model(11);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {2, 3});
  onnx::TensorProto* k = proto.mutable_graph()->add_initializer();
  k->set_name("k");
  k->set_data_type(onnx::TensorProto::INT64);
  k->add_dims(1);
  k->add_int64_data(2);
  add_node(proto, "TopK", {"x", "k"}, {"values", "indices"}, "top");
  add_output(proto, "values");
  add_output(proto, "indices");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  CHECK(model.graph.find("top")->attrs.find("k") != nullptr);
  const std::vector<Tensor> top =
      run(rt, model, {{"x", rt.tensor<float>({2, 3}, {1, 3, 2, 6, 5, 6})}});
  CHECK(top[0].to_string() == "[[3, 2], [6, 6]]");
  CHECK(top[1].dtype() == hxrt::DType::kI64);
  CHECK(top[1].to_string() == "[[1, 2], [0, 2]]");
}

TEST_CASE("Integer initializers are read from ONNX's typed fields of each integer type",
          "[models]") {
  // ONNX keeps int8, uint8, int16 and uint16 in int32_data, uint32 and uint64 in uint64_data:
  // y = x + c for each, with c = [-2, 3] (or [2, 3] unsigned) in its typed field.
  struct Case {
    int32_t type;
    hxrt::DType dtype;
    bool in_uint64_data;
    bool is_unsigned;
  };
  const Case cases[] = {{onnx::TensorProto::INT8, hxrt::DType::kI8, false, false},
                        {onnx::TensorProto::UINT8, hxrt::DType::kU8, false, true},
                        {onnx::TensorProto::INT16, hxrt::DType::kI16, false, false},
                        {onnx::TensorProto::UINT16, hxrt::DType::kU16, false, true},
                        {onnx::TensorProto::UINT32, hxrt::DType::kU32, true, true},
                        {onnx::TensorProto::UINT64, hxrt::DType::kU64, true, true}};
  hxrt::Runtime rt = onnx_test::runtime();
  for (const Case& c : cases) {
    INFO(hxrt::dtype_name(c.dtype));
    onnx::ModelProto proto = onnx_test::model(17);
    add_input(proto, "x", c.type, {2});
    onnx::TensorProto* constant = proto.mutable_graph()->add_initializer();
    constant->set_name("c");
    constant->set_data_type(c.type);
    constant->add_dims(2);
    const int first = c.is_unsigned ? 2 : -2;
    if (c.in_uint64_data) {
      constant->add_uint64_data(static_cast<uint64_t>(first));
      constant->add_uint64_data(3);
    } else {
      constant->add_int32_data(first);
      constant->add_int32_data(3);
    }
    add_node(proto, "Add", {"x", "c"}, {"y"}, "add");
    add_output(proto, "y");
    const std::string bytes = bytes_of(proto);
    const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
    std::vector<uint8_t> x(2 * hxrt::dtype_size(c.dtype), 0);
    x[0] = 10;  // little-endian: the first element is 10, the second 0
    const Tensor y = run(rt, model, {{"x", rt.from_host(c.dtype, {2}, x.data(), x.size())}})[0];
    CHECK(y.dtype() == c.dtype);
    CHECK(y.to_string() == (c.is_unsigned ? "[12, 3]" : "[8, 3]"));
  }
}

TEST_CASE("An 8-bit float initializer is read from int32_data and cast by ONNX's Cast",
          "[models]") {
  // float8_e4m3fn's 1 is 0x38, -2 is 0xC0; onnx 1.12's enum has no name for type 17.
  onnx::ModelProto proto = onnx_test::model(19);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {2});
  onnx::TensorProto* constant = proto.mutable_graph()->add_initializer();
  constant->set_name("c");
  constant->set_data_type(17);
  constant->add_dims(2);
  constant->add_int32_data(0x38);
  constant->add_int32_data(0xC0);
  onnx_test::set_int(add_node(proto, "Cast", {"c"}, {"c_f"}, "widen"), "to",
                     onnx::TensorProto::FLOAT);
  onnx_test::set_int(add_node(proto, "Cast", {"x"}, {"x8"}, "narrow"), "to", 17);
  add_node(proto, "Add", {"x", "c_f"}, {"y"}, "add");
  add_output(proto, "y");
  add_output(proto, "x8");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  const std::vector<Tensor> outputs = run(rt, model, {{"x", rt.tensor<float>({2}, {0.5f, 1000})}});
  CHECK(outputs[0].to_string() == "[1.5, 998]");
  CHECK(outputs[1].dtype() == hxrt::DType::kF8E4M3FN);
  CHECK(outputs[1].to_string() == "[0.5, 448]");  // 1000 saturates to the largest, 448
}

TEST_CASE("NonZero's output and its Shape are computed by each run, not at load", "[models]") {
  onnx::ModelProto proto = onnx_test::model(13);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {2, 3});
  add_node(proto, "NonZero", {"x"}, {"nz"});
  add_node(proto, "Transpose", {"nz"}, {"rows"});
  add_node(proto, "Shape", {"nz"}, {"extents"}, "extents_of_nz");
  add_output(proto, "rows");
  add_output(proto, "extents");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  // Not folded from the most NonZero may find: a node of the graph.
  REQUIRE(model.graph.find("extents_of_nz") != nullptr);
  CHECK(model.graph.find("extents_of_nz")->op == "Shape");
  const std::vector<Tensor> out =
      run(rt, model, {{"x", rt.tensor<float>({2, 3}, {0, 2, 0, 0, 0, 3})}});
  CHECK(out[0].to_string() == "[[0, 1], [1, 2]]");
  CHECK(out[1].to_vector<int64_t>() == std::vector<int64_t>{2, 2});
}

TEST_CASE("A Reshape whose shape comes from the shape of NonZero's output runs at run time",
          "[models]") {
  // nz = NonZero(x) [2, N]; y = Reshape(nz, Shape(Transpose(nz))): [N, 2], whatever N a run
  // finds, with the Reshape's shape attribute read from a value the run computed.
  onnx::ModelProto proto = onnx_test::model(13);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {2, 3});
  add_node(proto, "NonZero", {"x"}, {"nz"});
  add_node(proto, "Transpose", {"nz"}, {"t"});
  add_node(proto, "Shape", {"t"}, {"extents"});
  add_node(proto, "Reshape", {"nz", "extents"}, {"y"}, "reshape");
  add_output(proto, "y");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  REQUIRE(model.graph.find("reshape")->attr_inputs.size() == 1);
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs);
  // Non-zeros at (0, 1), (1, 0), (1, 2): nz = [[0, 1, 1], [1, 0, 2]].
  CHECK(exe.run({{"x", rt.tensor<float>({2, 3}, {0, 1, 0, 2, 0, 3})}})[0].to_string() ==
        "[[0, 1], [1, 1], [0, 2]]");
  CHECK(exe.run({{"x", rt.tensor<float>({2, 3}, {0, 0, 0, 0, 0, 5})}})[0].to_string() ==
        "[[1, 2]]");
}

TEST_CASE("TopK's k fed as a graph input is read at each run", "[models]") {
  onnx::ModelProto proto = onnx_test::model(13);
  add_input(proto, "x", onnx::TensorProto::FLOAT, {5});
  add_input(proto, "k", onnx::TensorProto::INT64, {1});
  add_node(proto, "TopK", {"x", "k"}, {"values", "indices"}, "topk");
  add_output(proto, "values");
  add_output(proto, "indices");
  hxrt::Runtime rt = onnx_test::runtime();
  const std::string bytes = bytes_of(proto);
  const hxrt::OnnxModel model = rt.load_onnx(bytes.data(), bytes.size());
  const hxrt::GraphNode& top_k = *model.graph.find("topk");
  CHECK(top_k.output_dtypes == std::vector<hxrt::DType>{hxrt::DType::kF32, hxrt::DType::kI64});
  const hxrt::Executable exe = rt.compile(model.graph, model.outputs);
  const Tensor x = rt.tensor<float>({5}, {3, 9, 1, 7, 5});
  std::vector<Tensor> out = exe.run({{"x", x}, {"k", rt.tensor<int64_t>({1}, {2})}});
  CHECK(out[0].to_string() == "[9, 7]");
  CHECK(out[1].to_string() == "[1, 3]");
  out = exe.run({{"x", x}, {"k", rt.tensor<int64_t>({1}, {4})}});
  CHECK(out[0].to_string() == "[9, 7, 5, 3]");
  const auto error =
      hxrt_test::error_from([&] { exe.run({{"x", x}, {"k", rt.tensor<int64_t>({1}, {6})}}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("graph node 'topk' (TopK)"));
}

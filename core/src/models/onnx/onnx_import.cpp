#include "models/onnx/onnx_import.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <unordered_map>
#include <variant>

#include "hxrt/error.hpp"
#include "models/onnx/onnx_attributes.hpp"
#include "models/onnx/model_refusal.hpp"
#include "models/onnx/onnx_types.hpp"
#include "ops/attr_from_elements.hpp"
#include "ops/declared_attr.hpp"
#include "ops/shape_value.hpp"

namespace hxrt::detail {
namespace {

// The most a tensor made at load (ConstantOfShape) may hold: weights come from the file, and a
// shape arithmetic's tensors are small; more is a hostile or mistaken model.
constexpr size_t kMaxLoadTimeBytes = size_t{1} << 30;

bool default_domain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// One value of the ONNX graph (a name any node may read): known at load (an initializer, a
// Constant, a folded node), or computed by the graph when it runs, or both once a known
// value is read by a graph node (a constant of the graph).
struct Value {
  DType dtype = DType::kF32;
  Shape shape;
  Tensor known;                      // valid when known at load
  std::optional<NodeOutput> output;  // in the graph
  // A graph input whose value OnnxLoadOptions::input_values gives: known to the nodes that
  // take it as an attribute, an input of the graph to the others (never folded).
  bool fed = false;
};

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string version_list(const std::vector<int>& versions) {
  std::string text;
  for (int version : versions) text += (text.empty() ? "" : ", ") + std::to_string(version);
  return text;
}

class Importer {
 public:
  Importer(const onnx::ModelProto& model, GraphBuilder& builder, const OpRegistry& ops,
           const ImportServices& services, const OnnxLoadOptions& options,
           const std::string& external_dir)
      : model_(model),
        builder_(builder),
        services_(services),
        options_(options),
        external_dir_(external_dir) {
    for (const OpSchema* schema : ops.all()) {
      if (schema->onnx.versions.empty()) continue;
      schemas_[schema->onnx.op.empty() ? schema->name : schema->onnx.op] = schema;
    }
  }

  OnnxModel import() {
    result_.producer = model_.producer_name() +
                       (model_.producer_version().empty() ? "" : " " + model_.producer_version());
    read_opset();
    const onnx::GraphProto& graph = model_.graph();
    for (const onnx::TensorProto& initializer : graph.initializer()) add_initializer(initializer);
    for (const onnx::ValueInfoProto& input : graph.input()) {
      if (values_.count(input.name()) == 0) add_input(input);
    }
    for (const onnx::NodeProto& node : graph.node()) add_node(node);
    for (const onnx::ValueInfoProto& output : graph.output()) {
      result_.output_names.push_back(output.name());
      result_.outputs.push_back(in_graph(output.name(), "graph output '" + output.name() + "'"));
    }
    result_.graph = builder_.build();
    return std::move(result_);
  }

 private:
  void read_opset() {
    bool found = false;
    for (const onnx::OperatorSetIdProto& opset : model_.opset_import()) {
      if (!default_domain(opset.domain())) continue;
      result_.opset = opset.version();
      found = true;
    }
    if (!found) {
      refuse_model(
          "the model imports no opset of ONNX's default domain; hxrt runs models of "
          "ONNX's standard ops (opset_import with domain \"\")");
    }
    if (result_.opset > kMaxOnnxOpset) {
      refuse_model("the model uses opset " + std::to_string(result_.opset) + ", newer than the " +
                   std::to_string(kMaxOnnxOpset) +
                   " hxrt knows: an op may have a version hxrt has not implemented. Export it with "
                   "opset " +
                   std::to_string(kMaxOnnxOpset) +
                   " or lower (torch.onnx.export(..., "
                   "opset_version=" +
                   std::to_string(kMaxOnnxOpset) + "))");
    }
  }

  void add_initializer(const onnx::TensorProto& initializer) {
    const std::string what = "initializer '" + initializer.name() + "'";
    if (initializer.name().empty()) refuse_model("an initializer has no name");
    set_known(initializer.name(), read_tensor_proto(initializer, what, external_dir_));
  }

  void set_known(const std::string& name, const TensorValue& value) {
    set_known(name, services_.host_tensor(value));
  }

  void set_known(const std::string& name, const Tensor& tensor) {
    Value& entry = values_[name];
    entry.dtype = tensor.dtype();
    entry.shape = tensor.shape();
    entry.known = tensor;
    entry.output.reset();
  }

  void add_input(const onnx::ValueInfoProto& input) {
    const std::string what = "graph input '" + input.name() + "'";
    if (!input.type().has_tensor_type())
      refuse_model(what + " is not a tensor; hxrt feeds tensors");
    const onnx::TypeProto::Tensor& type = input.type().tensor_type();
    const std::optional<DType> dtype = dtype_of_onnx(type.elem_type());
    if (!dtype) {
      refuse_model(what + " has elements of " + onnx_type_name(type.elem_type()) + "; " +
                   supported_onnx_types());
    }
    const Shape shape = bound_shape(input.name(), type);
    Value& value = values_[input.name()];
    value.dtype = *dtype;
    value.shape = shape;
    value.output = builder_.input(input.name(), *dtype, shape);
    result_.inputs.push_back(input.name());
    const auto given = options_.input_values.find(input.name());
    if (given != options_.input_values.end()) {
      if (!given->second.valid() || given->second.dtype() != *dtype ||
          given->second.shape() != shape) {
        refuse_model(what + ": the value given for it in OnnxLoadOptions::input_values must be a " +
                     dtype_name(*dtype) + " tensor of shape " + shape.to_string());
      }
      value.known = given->second;
      value.fed = true;
    }
  }

  // The shape an input is bound to: as the model fixes it, its named dimensions from
  // OnnxLoadOptions::dims, or the whole shape from input_shapes.
  Shape bound_shape(const std::string& name, const onnx::TypeProto::Tensor& type) {
    const std::string what = "graph input '" + name + "'";
    const auto given = options_.input_shapes.find(name);
    if (!type.has_shape()) {
      if (given != options_.input_shapes.end()) return given->second;
      refuse_model(what +
                   " has no shape in the model; give it one with "
                   "OnnxLoadOptions::input_shapes (hxrt-run: --shape " +
                   name + "=2x3)");
    }
    const auto& dims = type.shape().dim();
    if (given != options_.input_shapes.end()) {
      const Shape& shape = given->second;
      bool agrees = shape.rank() == dims.size();
      for (int i = 0; agrees && i < dims.size(); ++i) {
        if (dims[i].has_dim_value()) agrees = dims[i].dim_value() == shape[i];
      }
      if (!agrees) {
        refuse_model(what + ": the shape given for it, " + shape.to_string() +
                     ", disagrees with the model's " + model_shape_text(type) +
                     " (rank and fixed extents must match)");
      }
      return shape;
    }
    std::vector<int64_t> extents;
    for (int i = 0; i < dims.size(); ++i) {
      const onnx::TensorShapeProto::Dimension& dim = dims[i];
      if (dim.has_dim_value()) {
        extents.push_back(dim.dim_value());
        continue;
      }
      const auto bound = dim.has_dim_param() ? options_.dims.find(dim.dim_param())
                                             : options_.dims.end();
      if (bound == options_.dims.end()) {
        const std::string dim_name =
            dim.has_dim_param() ? "'" + dim.dim_param() + "'" : "(unnamed)";
        refuse_model(what + " has shape " + model_shape_text(type) + ": dimension " +
                     std::to_string(i) + " " + dim_name + " is left open. Bind it: " +
                     (dim.has_dim_param()
                          ? "OnnxLoadOptions::dims[\"" + dim.dim_param() + "\"], or "
                          : std::string()) +
                     "OnnxLoadOptions::input_shapes[\"" + name + "\"] (hxrt-run: " +
                     (dim.has_dim_param() ? "--dim " + dim.dim_param() + "=N, " : std::string()) +
                     "--shape " + name + "=..., or --input " + name + "=file.npy)");
      }
      extents.push_back(bound->second);
    }
    try {
      return Shape(extents);
    } catch (const Error& error) {
      refuse_model(what + ": " + error.what());
    }
  }

  static std::string model_shape_text(const onnx::TypeProto::Tensor& type) {
    std::string text = "[";
    for (int i = 0; i < type.shape().dim_size(); ++i) {
      const auto& dim = type.shape().dim(i);
      text += (i == 0 ? "" : ", ") + (dim.has_dim_value() ? std::to_string(dim.dim_value())
                                      : dim.has_dim_param() ? dim.dim_param()
                                                            : std::string("?"));
    }
    return text + "]";
  }

  // The value `name` as a graph node's input: a known value becomes a constant of the graph
  // the first time one reads it.
  NodeOutput in_graph(const std::string& name, const std::string& reader) {
    Value& value = value_of(name, reader);  // a fed input has its output already
    if (!value.output) value.output = builder_.constant(unique_name(name), value.known);
    return *value.output;
  }

  Value& value_of(const std::string& name, const std::string& reader) {
    auto found = values_.find(name);
    if (found == values_.end()) {
      refuse_model(reader + " reads '" + name +
                   "', which no initializer, graph input or earlier node defines (ONNX lists nodes "
                   "in an order where each comes after what it reads)");
    }
    return found->second;
  }

  // A name no node of the graph has; the caller adds its node at once.
  std::string unique_name(const std::string& wanted) {
    const std::string name = wanted.empty() ? "node" : wanted;
    if (builder_.graph().find(name) == nullptr) return name;
    for (int suffix = 1;; ++suffix) {
      const std::string candidate = name + "_" + std::to_string(suffix);
      if (builder_.graph().find(candidate) == nullptr) return candidate;
    }
  }

  static std::string node_label(const onnx::NodeProto& node) {
    const std::string name = !node.name().empty()      ? node.name()
                             : node.output_size() > 0 ? node.output(0)
                                                      : std::string("(unnamed)");
    return "node '" + name + "' (" + node.op_type() + ")";
  }

  TensorValue host_value(const Tensor& tensor) {
    TensorValue value;
    value.dtype = tensor.dtype();
    value.shape = tensor.shape();
    value.bytes.resize(tensor.byte_size());
    tensor.copy_to_host(value.bytes.data(), value.bytes.size());
    return value;
  }

  void define(const onnx::NodeProto& node, int output, const Tensor& known) {
    if (output >= node.output_size() || node.output(output).empty()) return;
    set_known(node.output(output), known);
  }

  void add_node(const onnx::NodeProto& node) {
    const std::string label = node_label(node);
    if (!default_domain(node.domain())) {
      refuse_model(label + " is of domain '" + node.domain() +
                   "', which hxrt does not implement; hxrt runs ONNX's default domain");
    }
    const std::string& op = node.op_type();
    if (op == "Constant") return add_constant(node, label);
    // Shape and Size of a value whose extents a run decides (NonZero's) run then, as ops.
    if ((op == "Shape" || op == "Size") && !extents_at_run(node, label)) {
      return add_shape_of(node, label);
    }
    if (op == "ConstantOfShape") return add_constant_of_shape(node, label);
    const auto found = schemas_.find(op);
    if (found == schemas_.end()) {
      std::set<std::string> known = {"Constant", "ConstantOfShape"};
      for (const auto& entry : schemas_) known.insert(entry.first);
      const std::vector<std::string> names(known.begin(), known.end());
      refuse_model(label + ": hxrt has no op " + op +
                   ". The ONNX ops it implements: " + join(names));
    }
    const OpSchema& schema = *found->second;
    const int version = resolve_version(schema, label);
    Attrs attrs = node_attributes(node, schema, label);
    set_implied_attrs(schema, version, label, attrs);
    std::vector<const Value*> input_values;
    bool all_known = true;
    bool trailing = false;  // an optional input was left out: only absent ones may follow
    std::optional<DType> attribute_input_dtype;
    std::vector<AttrInput> attr_inputs;  // attributes the graph computes, read at run
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string& name = node.input(i);
      const std::string what = label + " input " + std::to_string(i);
      if (const OnnxAttributeInput* as_attr = attribute_input(schema, i, version)) {
        if (name.empty()) continue;
        const Value& value = value_of(name, what);
        if (!attribute_input_dtype) attribute_input_dtype = value.dtype;
        if (!value.known.valid()) {
          attr_inputs.push_back({as_attr->attr, in_graph(name, label)});
          continue;
        }
        const TensorValue known = host_value(value.known);
        attrs.set(as_attr->attr,
                  attr_from_elements(known.dtype, known.shape, known.bytes.data(),
                                     declared_type(schema, as_attr->attr),
                                     what + " ('" + name + "')"));
        continue;
      }
      if (name.empty()) {
        trailing = true;
        continue;
      }
      if (trailing) {
        refuse_model(what + " ('" + name + "') follows an input left out, which hxrt's " +
                     schema.name + " cannot take: only its last inputs are optional");
      }
      const Value& value = value_of(name, what);
      input_values.push_back(&value);
      all_known = all_known && value.known.valid() && !value.fed;
    }
    // An op whose T is a dtype attribute and whose values all come as attributes (Range)
    // takes T from the dtype ONNX gives those inputs.
    const TypeParameter& t = schema.type_parameter;
    if (t.source == TypeParameter::Source::kAttribute && attribute_input_dtype &&
        attrs.find(t.attribute) == nullptr) {
      attrs.set(t.attribute, *attribute_input_dtype);
    }
    if (!schema.onnx.output_count_attr.empty()) set_output_count(node, schema, label, attrs);
    // Outputs are the op's by position; one the node leaves unnamed is computed and unused.
    int outputs = 0;
    try {
      outputs = num_outputs_of(schema, attrs, static_cast<size_t>(node.input_size()));
    } catch (const Error& error) {
      refuse_model(label + ": " + error.what());
    }
    for (int i = outputs; i < node.output_size(); ++i) {
      if (!node.output(i).empty()) {
        refuse_model(label + " asks for output " + std::to_string(i) + " ('" + node.output(i) +
                     "'), which hxrt's " + schema.name + " does not compute (it has " +
                     std::to_string(outputs) + ")");
      }
    }
    if (all_known && attr_inputs.empty() && fold(node, schema, input_values, attrs)) return;
    std::vector<NodeOutput> inputs;
    for (int i = 0; i < node.input_size(); ++i) {
      if (attribute_input(schema, i, version) || node.input(i).empty()) continue;
      inputs.push_back(in_graph(node.input(i), label));
    }
    const std::string name =
        unique_name(!node.name().empty() ? node.name()
                                         : node.output_size() > 0 ? node.output(0) : op);
    builder_.add(name, schema.name, inputs, attrs, {}, {}, attr_inputs);
    for (int i = 0; i < node.output_size() && i < outputs; ++i) {
      if (node.output(i).empty()) continue;
      const GraphNode& added = *builder_.graph().find(name);
      Value& value = values_[node.output(i)];
      value.dtype = added.output_dtypes[static_cast<size_t>(i)];
      value.shape = added.output_shapes[static_cast<size_t>(i)];
      value.known = Tensor();
      value.output = NodeOutput{name, i};
    }
  }

  // The node's number of outputs as the attribute of an op whose calls decide theirs.
  static void set_output_count(const onnx::NodeProto& node, const OpSchema& schema,
                               const std::string& label, Attrs& attrs) {
    const std::string& attr = schema.onnx.output_count_attr;
    const int64_t count = node.output_size();
    const AttrValue* given = attrs.find(attr);
    if (given == nullptr) {
      attrs.set(attr, count);
      return;
    }
    // A hostile model may give the attribute any type: refused here, not by std::get.
    const int64_t* given_count = std::get_if<int64_t>(given);
    if (given_count == nullptr) {
      refuse_model(label + " has attribute '" + attr + "' of another type than int; ONNX's is an " +
                   "int, the number of outputs");
    } else if (*given_count != count) {
      refuse_model(label + " has attribute '" + attr + "' " + std::to_string(*given_count) +
                   " but " + std::to_string(count) + " outputs; ONNX asks for one output per part");
    }
  }

  // Computes a node whose inputs are all known, on the host. False when it cannot: it then
  // becomes a graph node, whose checks (GraphBuilder::add) name what is wrong, or which runs
  // where there is a kernel for it.
  bool fold(const onnx::NodeProto& node, const OpSchema& schema,
            const std::vector<const Value*>& inputs, const Attrs& attrs) {
    std::vector<Tensor> tensors;
    for (const Value* value : inputs) tensors.push_back(value->known);
    std::vector<Tensor> outputs;
    try {
      outputs = services_.run_on_host(schema.name, tensors, attrs);
    } catch (const Error&) {
      return false;
    }
    for (size_t i = 0; i < outputs.size(); ++i) define(node, static_cast<int>(i), outputs[i]);
    ++result_.folded_nodes;
    return true;
  }

  int resolve_version(const OpSchema& schema, const std::string& label) const {
    const std::vector<int>& versions = schema.onnx.versions;
    int version = 0;
    for (int candidate : versions) {
      if (candidate <= result_.opset) version = candidate;
    }
    if (version == 0) {
      refuse_model(label + ": at opset " + std::to_string(result_.opset) +
                   " this is a version of " +
                   (schema.onnx.op.empty() ? schema.name : schema.onnx.op) +
                   " older than hxrt implements; hxrt implements its versions " +
                   version_list(versions) + " (opsets " + std::to_string(versions.front()) +
                   " to " + std::to_string(kMaxOnnxOpset) + "). Export the model with opset " +
                   std::to_string(std::max(versions.front(), 13)) + " or later");
    }
    return version;
  }

  static const OnnxAttributeInput* attribute_input(const OpSchema& schema, int input,
                                                   int version) {
    for (const OnnxAttributeInput& entry : schema.onnx.attribute_inputs) {
      if (entry.input == input && entry.since <= version) return &entry;
    }
    return nullptr;
  }

  // What a node's version implies for the attributes a later version made settable, which a
  // node of that version has no business setting.
  static void set_implied_attrs(const OpSchema& schema, int version, const std::string& label,
                                Attrs& attrs) {
    for (const OnnxImpliedAttr& implied : schema.onnx.implied_attrs) {
      if (version >= implied.until) continue;
      if (attrs.find(implied.attr) != nullptr) {
        refuse_model(label + " attribute '" + implied.attr + "' is not one of " +
                     (schema.onnx.op.empty() ? schema.name : schema.onnx.op) + " version " +
                     std::to_string(version) + ", which implies " +
                     attr_value_to_string(implied.value));
      }
      attrs.set(implied.attr, implied.value);
    }
  }

  static AttrType declared_type(const OpSchema& schema, const std::string& attr) {
    if (const OpAttrInfo* declared = declared_attr(schema, attr)) return declared->type;
    throw Error(StatusCode::kInternal,
                schema.name + "'s ONNX form names attribute '" + attr + "', which it lacks");
  }

  static Attrs node_attributes(const onnx::NodeProto& node, const OpSchema& schema,
                               const std::string& label) {
    Attrs attrs;
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      std::string name = attribute.name();
      for (const auto& [onnx_name, hxrt_name] : schema.onnx.renamed_attrs) {
        if (onnx_name == name) name = hxrt_name;
      }
      const std::string what = label + " attribute '" + attribute.name() + "'";
      if (!attribute.ref_attr_name().empty()) {
        refuse_model(what + " refers to a function's attribute; hxrt does not run ONNX functions");
      }
      const OpAttrInfo* declared = declared_attr(schema, name);
      if (declared == nullptr) {
        std::vector<std::string> known;
        for (const OpAttrInfo& info : schema.attrs) known.push_back(info.name);
        refuse_model(what + " is not one hxrt's " + schema.name + " implements (" +
                     (known.empty() ? std::string("it takes none") : "it takes " + join(known)) +
                     "); hxrt will not run a node with an attribute it would ignore");
      }
      attrs.set(name, attr_from_onnx(attribute, declared->type, what));
    }
    return attrs;
  }

  void add_constant(const onnx::NodeProto& node, const std::string& label) {
    if (node.attribute_size() != 1) {
      refuse_model(label + " must have exactly one attribute giving its value");
    }
    const onnx::AttributeProto& attribute = node.attribute(0);
    const std::string what = label + " attribute '" + attribute.name() + "'";
    TensorValue value;
    if (attribute.name() == "value" && attribute.type() == onnx::AttributeProto::TENSOR) {
      value = read_tensor_proto(attribute.t(), what, external_dir_);
    } else if (attribute.name() == "value_float" &&
               attribute.type() == onnx::AttributeProto::FLOAT) {
      const float number = attribute.f();
      value = scalar_value(DType::kF32, &number, sizeof(number));
    } else if (attribute.name() == "value_int" && attribute.type() == onnx::AttributeProto::INT) {
      const int64_t number = attribute.i();
      value = scalar_value(DType::kI64, &number, sizeof(number));
    } else if (attribute.name() == "value_floats" &&
               attribute.type() == onnx::AttributeProto::FLOATS) {
      value = list_value(DType::kF32, attribute.floats().data(), attribute.floats_size(), 4);
    } else if (attribute.name() == "value_ints" &&
               attribute.type() == onnx::AttributeProto::INTS) {
      value = list_value(DType::kI64, attribute.ints().data(), attribute.ints_size(), 8);
    } else {
      refuse_model(what +
                   " is not one hxrt reads: value (a tensor), value_float, value_floats, "
                   "value_int or value_ints (strings and sparse tensors are not supported)");
    }
    if (node.output_size() > 0) set_known(node.output(0), value);
    ++result_.folded_nodes;
  }

  static TensorValue scalar_value(DType dtype, const void* data, size_t size) {
    TensorValue value;
    value.dtype = dtype;
    value.bytes.assign(static_cast<const char*>(data), size);
    return value;
  }

  static TensorValue list_value(DType dtype, const void* data, int count, size_t size) {
    TensorValue value;
    value.dtype = dtype;
    value.shape = Shape({static_cast<int64_t>(count)});
    value.bytes.assign(static_cast<const char*>(data), static_cast<size_t>(count) * size);
    return value;
  }

  // Whether the one input of `node` has extents a run decides (GraphNode::shapes_at_run).
  bool extents_at_run(const onnx::NodeProto& node, const std::string& label) {
    if (node.input_size() != 1) return false;  // add_shape_of names the error
    const Value& input = value_of(node.input(0), label);
    return input.output && builder_.graph().find(input.output->node)->shapes_at_run;
  }

  // Shape and Size read only their input's shape, which is static once the inputs are bound.
  void add_shape_of(const onnx::NodeProto& node, const std::string& label) {
    if (node.input_size() != 1 || node.output_size() != 1) {
      refuse_model(label + " must have one input and one output");
    }
    const Shape& shape = value_of(node.input(0), label).shape;
    std::vector<int64_t> out;
    if (node.op_type() == "Size") {
      out.push_back(shape.num_elements());
      set_known(node.output(0), scalar_value(DType::kI64, out.data(), sizeof(int64_t)));
    } else {
      const int rank = shape.rank();
      int64_t start = 0;
      int64_t end = rank;
      for (const onnx::AttributeProto& attribute : node.attribute()) {
        if (attribute.name() == "start" && attribute.type() == onnx::AttributeProto::INT) {
          start = attribute.i();
        } else if (attribute.name() == "end" && attribute.type() == onnx::AttributeProto::INT) {
          end = attribute.i();
        } else {
          refuse_model(label + " attribute '" + attribute.name() + "' is not Shape's start or end");
        }
      }
      out = shape_value(shape, start, end);
      set_known(node.output(0), list_value(DType::kI64, out.data(), static_cast<int>(out.size()),
                                           sizeof(int64_t)));
    }
    ++result_.folded_nodes;
  }

  void add_constant_of_shape(const onnx::NodeProto& node, const std::string& label) {
    if (node.input_size() != 1 || node.output_size() != 1) {
      refuse_model(label + " must have one input and one output");
    }
    const Value& input = value_of(node.input(0), label);
    if (!input.known.valid()) {
      refuse_model(label + ": its shape input '" + node.input(0) +
                   "' is computed at run time; hxrt needs it known when the model is loaded");
    }
    const TensorValue shape = host_value(input.known);
    const AttrValue dims = attr_from_elements(shape.dtype, shape.shape, shape.bytes.data(),
                                              AttrType::kInts,
                                              label + " input 0 ('" + node.input(0) + "')");
    TensorValue fill;  // ONNX's default: one float 0
    fill.dtype = DType::kF32;
    fill.bytes.assign(sizeof(float), '\0');
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      const std::string what = label + " attribute '" + attribute.name() + "'";
      if (attribute.name() != "value" || attribute.type() != onnx::AttributeProto::TENSOR) {
        refuse_model(what + " is not ConstantOfShape's value (a tensor of one element)");
      }
      fill = read_tensor_proto(attribute.t(), what, external_dir_);
      if (fill.shape.num_elements() != 1) refuse_model(what + " must hold one element");
    }
    TensorValue value;
    value.dtype = fill.dtype;
    size_t bytes = 0;
    try {
      value.shape = Shape(std::get<std::vector<int64_t>>(dims));
      bytes = tensor_bytes(value.dtype, value.shape);
    } catch (const Error& error) {
      refuse_model(label + ": " + error.what());
    }
    if (bytes > kMaxLoadTimeBytes) {
      refuse_model(label + " makes a tensor of " + value.shape.to_string() + " " +
                   dtype_name(value.dtype) + " at load, more than hxrt computes then (1 GiB)");
    }
    value.bytes.resize(bytes);
    // Doubling copies: a large fill costs a few memcpys, not an append per element.
    size_t filled = std::min(fill.bytes.size(), bytes);
    std::memcpy(value.bytes.data(), fill.bytes.data(), filled);
    while (filled < bytes) {
      const size_t chunk = std::min(filled, bytes - filled);
      std::memcpy(value.bytes.data() + filled, value.bytes.data(), chunk);
      filled += chunk;
    }
    set_known(node.output(0), value);
    ++result_.folded_nodes;
  }

  const onnx::ModelProto& model_;
  GraphBuilder& builder_;
  const ImportServices& services_;
  const OnnxLoadOptions& options_;
  const std::string external_dir_;
  std::map<std::string, const OpSchema*> schemas_;  // by ONNX op name
  std::unordered_map<std::string, Value> values_;
  OnnxModel result_;
};

}  // namespace

OnnxModel import_onnx(const onnx::ModelProto& model, GraphBuilder& builder,
                      const OpRegistry& ops, const ImportServices& services,
                      const OnnxLoadOptions& options, const std::string& external_dir) {
  return Importer(model, builder, ops, services, options, external_dir).import();
}

}  // namespace hxrt::detail

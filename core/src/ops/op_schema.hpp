// Op schemas: what the core knows about an op before any kernel runs — its arity, how its
// outputs' dtypes and shapes follow from its inputs and attributes (shape inference), where its
// type parameter T comes from (the dtype kernels are registered for and chosen by), and its
// specification as plugin authors read it (hxrt/op_info.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/op_info.hpp"
#include "hxrt/op_reference.hpp"
#include "hxrt/plugin_api.h"
#include "hxrt/shape.hpp"
#include "base/tensor_meta.hpp"

namespace hxrt::detail {

struct OpSchema;

// What shape inference sees of one call. Borrowed for the duration of the call.
struct InferContext {
  const std::string& op;
  const TensorMeta* inputs;
  size_t num_inputs;
  const Attrs& attrs;
  const OpSchema* schema = nullptr;  // set by infer_outputs
  int num_outputs = 0;               // set by infer_outputs: the call's (num_outputs_of)
};

// Checks the call and writes outputs[0 .. call.num_outputs). Throws Error(kInvalidArgument)
// whose message names the op, what it expects and what it got, e.g.
// "MatMul: incompatible shapes [2, 3] and [2, 3]: ...". A plain function, not a std::function:
// a plugin's custom op reaches its own through the schema (OpSchema::plugin_infer).
using InferFn = void (*)(const InferContext& call, TensorMeta* outputs);

// The number of outputs of one call of an op whose count the call decides (Split: as many
// parts as its attributes ask for; ReduceScatter: one per input), read from the call's
// attributes and its number of inputs alone: the eager path sizes its outputs before it knows
// anything else of the call. Throws Error(kInvalidArgument) naming the op when the call asks
// for no count it can make.
using OutputCountFn = int (*)(const std::string& op, const Attrs& attrs, size_t num_inputs);

class RandomValues;  // ops/reference/random_values.hpp
// A core op's reference cases (hxrt/op_reference.hpp) for type parameter `type`; `output_type`
// is the dtype an op whose output dtype is an attribute (Cast) converts to. Inputs are drawn
// from `random`. Called only with a `type` the op's shape inference accepts.
using ReferenceCasesFn = std::vector<ReferenceCase> (*)(DType type, DType output_type,
                                                       RandomValues& random);

// An ONNX input that an op takes as an attribute: a value the kernels need when they are
// created (Reshape's shape, Slice's starts, TopK's k), which ONNX passes as a tensor since
// opset 10 to 18. The importer (models/onnx) requires it to be a constant when the model is
// loaded, or computable from constants and static shapes, and converts it to `attr`. A
// position whose meaning changed between versions has an entry per meaning, the newest first:
// the importer takes the first entry whose `since` the node's version reaches.
struct OnnxAttributeInput {
  int input = 0;      // its position among the ONNX node's inputs
  std::string attr;   // the attribute it becomes, declared by the schema
  int since = 0;      // the first ONNX version that passes it as an input (before: an attribute)
};

// An attribute value that the versions of an ONNX op before `until` imply, where a later
// version made it settable with another default: Resize 10 maps coordinates as "asymmetric",
// and 11 added coordinate_transformation_mode, "half_pixel" when absent. The importer sets it
// on the nodes of those versions, which cannot set it themselves.
struct OnnxImpliedAttr {
  int until = 0;
  std::string attr;  // declared by the schema
  AttrValue value;
};

// How a node of ONNX's default domain becomes a call of this op. An op with no `versions` is
// not importable. The op's inputs are the ONNX node's inputs that are not attribute inputs, in
// order; ONNX's attributes keep their names (bar `renamed_attrs`), and every attribute a node
// carries must be one the schema declares, so that a model is never run with an attribute
// hxrt would ignore.
struct OnnxForm {
  std::string op;  // ONNX's name of the op; "" : the schema's own name
  // Every since-version ONNX defines for the op from the first one hxrt implements through
  // opset kMaxOnnxOpset, ascending: a node's version is the largest of them not above the
  // model's opset, and hxrt implements the semantics of each.
  std::vector<int> versions;
  std::vector<OnnxAttributeInput> attribute_inputs;
  std::vector<OnnxImpliedAttr> implied_attrs;
  std::vector<std::pair<std::string, std::string>> renamed_attrs;  // ONNX name -> schema name
  // For an op whose calls decide their number of outputs (OpSchema::output_count): the int
  // attribute that carries the ONNX node's number of outputs (Split's num_outputs), which
  // ONNX gives by the node's outputs alone before some version. The importer sets it; a node
  // that sets it itself must agree with its outputs.
  std::string output_count_attr;
};

// The most outputs an op has (hx_op_def.num_outputs' limit): every call of an op allocates its
// outputs' specs before shape inference runs, so a plugin's num_outputs of two billion would be
// an allocation of that many on each call.
inline constexpr int kMaxOutputs = 64;

// The newest ONNX opset whose versions of the importable ops OnnxForm::versions covers.
inline constexpr int kMaxOnnxOpset = 21;

struct OpSchema {
  OpSchema() = default;
  // The ABI's part of a schema; the rest is set field by field.
  OpSchema(std::string op_name, int min, int max, int outputs, InferFn infer_fn,
           std::string owner_name)
      : name(std::move(op_name)),
        min_inputs(min),
        max_inputs(max),
        num_outputs(outputs),
        infer(std::move(infer_fn)),
        owner(std::move(owner_name)) {}

  std::string name;
  int min_inputs = 0;
  int max_inputs = 0;  // -1: no upper bound
  // The outputs of every call; with output_count, the most a call may have.
  int num_outputs = 1;
  // Set for an op whose calls decide how many outputs they have (num_outputs_of); its
  // specification's last output is then variadic. nullptr: every call has num_outputs.
  OutputCountFn output_count = nullptr;
  InferFn infer = nullptr;
  // A plugin's custom op: its shape-inference function and user data, which its `infer`
  // (plugins/core_services.cpp) calls through the ABI.
  hx_shape_inference_fn plugin_infer = nullptr;
  void* plugin_infer_data = nullptr;
  std::string owner;  // "" for core ops, the plugin's name for custom ops
  // Where T comes from. A custom op's is its hx_op_def.type_input: an input index, or -1
  // (Source::kOutput).
  TypeParameter type_parameter;
  bool broadcasts = false;  // see OpInfo::broadcasts
  bool extents_at_run = false;  // see OpInfo::extents_at_run
  // The specification, written once here for the core's ops (a custom op has only its summary).
  std::string summary;
  std::vector<OpArgInfo> inputs;
  std::vector<OpArgInfo> outputs;
  std::vector<OpAttrInfo> attrs;
  std::string shape_rule;
  // The executable specification, beside the written one: every core op has one
  // (tests/ops/reference_cases_test.cpp), a custom op none.
  ReferenceCasesFn reference_cases = nullptr;
  OnnxForm onnx;
};

// The number of outputs of a call of `schema` with `attrs` and `num_inputs` inputs:
// schema.num_outputs, or what its output_count says, which must be 1 to schema.num_outputs
// (Error(kInvalidArgument) naming the op otherwise).
int num_outputs_of(const OpSchema& schema, const Attrs& attrs, size_t num_inputs);

// Checks arity (the message names the op and the arity it expects), runs infer, then
// check_outputs. `outputs` must hold num_outputs_of(schema, call.attrs, call.num_inputs) entries.
void infer_outputs(const OpSchema& schema, const InferContext& call, TensorMeta* outputs);
// What every op's outputs must be before anything is allocated for them, whoever inferred
// them (the core or a plugin's custom op): a dtype of the enum and a size tensor_bytes accepts,
// which it writes to each output's `bytes`. Error(kInvalidArgument) naming the op, the output,
// its shape and dtype, and the limit.
void check_outputs(const InferContext& call, TensorMeta* outputs);

// T of one call that infer_outputs accepted (`outputs` as it wrote them), from where the
// schema says T is carried; an absent dtype attribute gives its declared default.
DType type_parameter(const OpSchema& schema, const InferContext& call, const TensorMeta* outputs);

// The specification of one schema, without kernels; owner "core" for the core's ops.
OpInfo op_info(const OpSchema& schema);

class OpRegistry {
 public:
  // Throws Error(kAlreadyExists) when the name is taken, naming both owners, and
  // Error(kInvalidArgument) for a schema the ABI's hx_op_def rules reject (name, arity,
  // num_outputs, missing infer, a type_input that is not an input every call has) or whose T
  // or output dtype is carried by an attribute it does not declare as a dtype. Invalidates
  // the pointers handed out by find() and all(): fill the registry at start-up, then only
  // read it.
  void add(OpSchema schema);
  // nullptr when unknown. Reads a few words of the name (name_index_), not all of it: the
  // eager path looks up the op of every call made by name.
  const OpSchema* find(std::string_view name) const;
  // Sorted by name.
  std::vector<const OpSchema*> all() const;
  size_t size() const { return schemas_.size(); }

 private:
  void index_names();

  std::vector<OpSchema> schemas_;  // sorted by name
  // Open addressing over schemas_ (index + 1; 0 is an empty slot), keyed by name_key: a
  // power of two at least twice the ops, rebuilt by add.
  std::vector<uint32_t> name_index_;
};

// The core's ops, every family of builtin_op_families.hpp.
void add_builtin_ops(OpRegistry& registry);

// Attribute readers for shape inference and for the core's attribute getters. Absent: the
// default. Present with the wrong type: Error(kInvalidArgument) naming op, attribute, the
// expected and the actual type.
bool attr_bool(const InferContext& call, const char* name, bool default_value);
int64_t attr_int(const InferContext& call, const char* name, int64_t default_value);
double attr_float(const InferContext& call, const char* name, double default_value);
DType attr_dtype(const InferContext& call, const char* name, DType default_value);
std::string attr_string(const InferContext& call, const char* name,
                        const std::string& default_value);
std::vector<int64_t> attr_ints(const InferContext& call, const char* name,
                               const std::vector<int64_t>& default_value);
// As the ABI's attr_floats: a list of ints is another type.
std::vector<double> attr_floats(const InferContext& call, const char* name,
                                const std::vector<double>& default_value);
// Present or Error(kInvalidArgument) "Fill: missing required attribute 'shape' (a list of ints)".
const AttrValue& required_attr(const InferContext& call, const char* name, const char* what);
// The type names the readers' messages use: "bool", "int", "float", "string", "dtype",
// "list of ints", "list of floats".
inline const char* attr_type_name(const AttrValue& value) {
  return hxrt::attr_type_name(attr_type_of(value));
}

}  // namespace hxrt::detail

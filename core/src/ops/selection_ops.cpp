// Ops that pick each output element from one of their operands, which broadcast as NumPy's:
// Min and Max (the least or greatest of any number of tensors) and Where (x or y by a
// condition).
#include <string>

#include "ops/broadcast.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

constexpr const char* kBroadcastRule =
    "aligned at their last axes (a missing leading axis counts as 1), each axis's extents are "
    "equal or 1, and the output takes the one that is not 1; [2, 3] and [3] give [2, 3], [2, 1] "
    "and [1, 3] give [2, 3], [2, 3] and [4] are refused. Kernels receive the inputs already "
    "broadcast to the output's shape, with stride 0 along the axes where they repeat.";

void infer_extremum(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  require_same_dtype(call);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = broadcast_inputs(call);
}

void infer_where(const InferContext& call, TensorMeta* outputs) {
  if (call.inputs[0].dtype != DType::kBool) {
    reject_call(call, std::string("the condition (input 0) has dtype ") +
                          dtype_name(call.inputs[0].dtype) +
                          "; it must be bool (compare, or Cast to bool, first)");
  }
  if (call.inputs[2].dtype != call.inputs[1].dtype) {
    reject_call(call, std::string("y (input 2) has dtype ") + dtype_name(call.inputs[2].dtype) +
                          " but x (input 1) has " + dtype_name(call.inputs[1].dtype) +
                          "; Where needs x and y of one dtype (convert with Cast first)");
  }
  outputs[0].dtype = call.inputs[1].dtype;
  outputs[0].shape = broadcast_inputs(call);
}

OpSchema extremum_schema(const char* name, const char* summary, const char* which,
                         ReferenceCasesFn cases) {
  OpSchema schema{name, 1, -1, 1, infer_extremum, ""};
  schema.broadcasts = true;
  schema.summary = summary;
  schema.inputs = {{"data", "T", numeric_dtypes(),
                    "one or more tensors of one dtype whose shapes broadcast together", true}};
  schema.outputs = {{"result", "T", numeric_dtypes(),
                     std::string("the ") + which + " of the inputs' elements, element by element",
                     false}};
  schema.shape_rule =
      std::string("result has the shape the inputs broadcast to, as NumPy broadcasts: ") +
      kBroadcastRule + " One input gives itself. NaN in any input gives NaN.";
  schema.reference_cases = cases;
  schema.onnx.versions = {13};
  return schema;
}

}  // namespace

void add_selection_ops(OpRegistry& registry) {
  registry.add(extremum_schema("Min", "The element-wise minimum of one or more tensors.",
                               "least", min_cases));
  registry.add(extremum_schema("Max", "The element-wise maximum of one or more tensors.",
                               "greatest", max_cases));

  OpSchema where{"Where", 3, 3, 1, infer_where, ""};
  where.broadcasts = true;
  where.summary = "Picks x where the condition is true and y elsewhere, element by element.";
  where.type_parameter.input = 1;
  where.inputs = {
      {"condition", "bool", {DType::kBool}, "true where the output takes x's element", false},
      {"x", "T", all_dtypes(), "the elements taken where condition is true", false},
      {"y", "T", all_dtypes(), "the elements taken where condition is false, of x's dtype",
       false},
  };
  where.outputs = {{"output", "T", all_dtypes(), "x where condition, else y", false}};
  where.shape_rule =
      std::string("output has the shape condition, x and y broadcast to, as NumPy broadcasts: ") +
      kBroadcastRule;
  where.reference_cases = where_cases;
  where.onnx.versions = {16};
  registry.add(std::move(where));
}

}  // namespace hxrt::detail

// The pools of ONNX: MaxPool and AveragePool over a sliding window, GlobalMaxPool and
// GlobalAveragePool over every spatial element of each channel.
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"
#include "ops/window_geometry.hpp"

namespace hxrt::detail {

namespace {

// MaxPool also takes the 8-bit integers (ONNX 12): a maximum needs no arithmetic.
const std::vector<DType>& pool_dtypes(const std::string& op) {
  static const std::vector<DType> max_pool = {DType::kF32, DType::kF64, DType::kF16,
                                              DType::kBF16, DType::kI8, DType::kU8};
  return op == "MaxPool" ? max_pool : floating_dtypes();
}

void require_spatial_input(const InferContext& call) {
  require_inputs_in(call, pool_dtypes(call.op));
  const Shape& x = call.inputs[0].shape;
  if (x.rank() < 3) {
    reject_call(call, "input X has shape " + x.to_string() + "; " + call.op +
                          " takes [N, C, D1, ...] with at least one spatial axis");
  }
  for (int axis = 2; axis < x.rank(); ++axis) {
    if (x[axis] == 0) {
      reject_call(call, "input X has shape " + x.to_string() +
                            "; a pool's windows need spatial extents of at least 1");
    }
  }
}

void infer_pool(const InferContext& call, TensorMeta* outputs) {
  require_spatial_input(call);
  const bool ceil_mode = int_flag(call, "ceil_mode", 0);
  if (call.op == "MaxPool") int_flag(call, "storage_order", 0);
  if (call.op == "AveragePool") int_flag(call, "count_include_pad", 0);
  const Shape& x = call.inputs[0].shape;
  const WindowGeometry window = window_geometry(call, x, {}, ceil_mode);
  for (size_t axis = 0; axis < window.spatial(); ++axis) {
    const int64_t reach = (window.kernel[axis] - 1) * window.dilations[axis] + 1;
    if (window.pads_begin[axis] >= reach || window.pads_end[axis] >= reach) {
      reject_call(call, "on spatial axis " + std::to_string(axis) + " the pads (" +
                            std::to_string(window.pads_begin[axis]) + ", " +
                            std::to_string(window.pads_end[axis]) +
                            ") are not smaller than the window's span " +
                            std::to_string(reach) + ", so a window could hold only padding");
    }
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = windowed_output(call, x[0], x[1], window);
  if (call.num_outputs == 2) outputs[1] = {DType::kI64, outputs[0].shape};
}

// MaxPool's outputs: Y, or Y and Indices, as its attribute num_outputs (which the importer
// sets from the ONNX node's outputs) asks.
int max_pool_count(const std::string& op, const Attrs& attrs, size_t) {
  const InferContext call{op, nullptr, 0, attrs};
  const int64_t count = attr_int(call, "num_outputs", 1);
  if (count != 1 && count != 2) {
    reject_call(call, "attribute 'num_outputs' is " + std::to_string(count) +
                          "; MaxPool has 1 output (Y) or 2 (Y and Indices)");
  }
  return static_cast<int>(count);
}

void infer_global_pool(const InferContext& call, TensorMeta* outputs) {
  require_spatial_input(call);
  const Shape& x = call.inputs[0].shape;
  Shape y{x[0], x[1]};
  for (int axis = 2; axis < x.rank(); ++axis) y.push_back(1);
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = y;
}

OpSchema pool_schema(const char* name, const char* summary, ReferenceCasesFn cases) {
  OpSchema schema{name, 1, 1, 1, infer_pool, ""};
  schema.summary = summary;
  schema.inputs = {{"X", "T", pool_dtypes(name), "[N, C, D1, ..., Dn]: n >= 1 spatial axes",
                    false}};
  schema.outputs = {{"Y", "T", pool_dtypes(name), "[N, C, O1, ..., On]", false}};
  schema.attrs = window_attrs(true);
  schema.attrs[1].required = true;  // kernel_shape
  schema.attrs.push_back({"ceil_mode", AttrType::kInt, false, AttrValue(int64_t{0}),
                          "1: round the output's extents up (a last window that would start in "
                          "the end padding is dropped)"});
  schema.shape_rule =
      "X's spatial extents are at least 1; kernel_shape has one extent per spatial axis. The "
      "window spans (k - 1) * dilation + 1 "
      "elements, each pad is smaller than it; with auto_pad NOTSET or VALID, O = floor((D + "
      "pad_begin + pad_end - span) / stride) + 1 (ceil with ceil_mode, less a last window "
      "starting in the end padding); with SAME_UPPER or SAME_LOWER, O = ceil(D / stride).";
  schema.reference_cases = cases;
  return schema;
}

OpSchema global_schema(const char* name, const char* summary, ReferenceCasesFn cases) {
  OpSchema schema{name, 1, 1, 1, infer_global_pool, ""};
  schema.summary = summary;
  schema.inputs = {{"X", "T", floating_dtypes(), "[N, C, D1, ..., Dn]: n >= 1 spatial axes",
                    false}};
  schema.outputs = {{"Y", "T", floating_dtypes(), "[N, C, 1, ..., 1]", false}};
  schema.shape_rule = "X's spatial extents are at least 1. Y keeps X's rank, N and C; every "
                      "spatial extent is 1.";
  schema.reference_cases = cases;
  schema.onnx.versions = {1};
  return schema;
}

}  // namespace

void add_pool_ops(OpRegistry& registry) {
  OpSchema max_pool = pool_schema(
      "MaxPool",
      "The maximum of each window of X's spatial axes, padding excluded, and where it was "
      "found (Indices, when asked for).",
      max_pool_cases);
  max_pool.num_outputs = 2;
  max_pool.output_count = max_pool_count;
  max_pool.outputs.push_back(
      {"Indices", "int64", {DType::kI64},
       "Y's shape: the index in X, flattened over all of X's axes, of each window's maximum "
       "(the first of equal ones, in the window's row-major order)",
       true});
  max_pool.attrs.push_back({"storage_order", AttrType::kInt, false, AttrValue(int64_t{0}),
                            "how Indices flattens the spatial axes: 0 row-major, 1 "
                            "column-major (the first spatial axis fastest); no effect on Y"});
  max_pool.attrs.push_back({"num_outputs", AttrType::kInt, false, AttrValue(int64_t{1}),
                            "1: Y; 2: Y and Indices (set from an ONNX node's outputs)"});
  max_pool.onnx.versions = {12};
  max_pool.onnx.output_count_attr = "num_outputs";
  registry.add(std::move(max_pool));

  OpSchema average_pool = pool_schema(
      "AveragePool",
      "The mean of each window of X's spatial axes, over the input elements it covers, or over "
      "its whole span inside the padded input with count_include_pad.",
      average_pool_cases);
  average_pool.attrs.push_back({"count_include_pad", AttrType::kInt, false,
                                AttrValue(int64_t{0}),
                                "1: divide by the window's taps inside the padded input (pads "
                                "count as zeros); 0: by its taps inside the input"});
  average_pool.onnx.versions = {11, 19};
  registry.add(std::move(average_pool));

  registry.add(global_schema("GlobalMaxPool", "The maximum of each channel's spatial elements.",
                             global_max_pool_cases));
  registry.add(global_schema("GlobalAveragePool", "The mean of each channel's spatial elements.",
                             global_average_pool_cases));
}

}  // namespace hxrt::detail

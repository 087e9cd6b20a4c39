// The ops that pick parts of tensors, or join them: Concat, Slice, Gather, GatherElements and
// ScatterElements. Indices are i32 or i64 and may count from the end; an index out of range
// is the kernel's error, since shape inference never sees values.
#include <optional>
#include <string>

#include <hxcommon/slice_bounds.hpp>

#include "ops/axis_checks.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

const std::vector<DType>& index_dtypes() {
  static const std::vector<DType> dtypes = {DType::kI32, DType::kI64};
  return dtypes;
}

void require_index_dtype(const InferContext& call, size_t input, const char* name) {
  const DType dtype = call.inputs[input].dtype;
  if (dtype != DType::kI32 && dtype != DType::kI64) {
    reject_call(call, std::string(name) + " (input " + std::to_string(input) + ") has dtype " +
                          dtype_name(dtype) + "; indices are int32 or int64");
  }
}

void infer_concat(const InferContext& call, TensorMeta* outputs) {
  require_same_dtype(call);
  required_attr(call, "axis", "an int");
  const Shape& first = call.inputs[0].shape;
  const int axis = resolve_axis(call, "axis", attr_int(call, "axis", 0), first.rank());
  std::vector<int64_t> dims = first.to_vector();
  for (size_t i = 1; i < call.num_inputs; ++i) {
    const Shape& shape = call.inputs[i].shape;
    bool fits = shape.rank() == first.rank();
    for (int d = 0; fits && d < shape.rank(); ++d) fits = d == axis || shape[d] == first[d];
    if (!fits) {
      reject_call(call, "input " + std::to_string(i) + " has shape " + shape.to_string() +
                            " but input 0 has " + first.to_string() + "; inputs must have " +
                            "one rank and equal extents on every axis but axis " +
                            std::to_string(axis));
    }
    if (__builtin_add_overflow(dims[static_cast<size_t>(axis)], shape[axis],
                               &dims[static_cast<size_t>(axis)])) {
      reject_call(call, "the inputs' extents along axis " + std::to_string(axis) +
                            " add up to more than fits in 64 bits");
    }
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the joined shape")};
}

void infer_slice(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "starts", "a list of ints");
  required_attr(call, "ends", "a list of ints");
  const std::vector<int64_t> starts = attr_ints(call, "starts", {});
  const std::vector<int64_t> ends = attr_ints(call, "ends", {});
  const Shape& input = call.inputs[0].shape;
  std::vector<int64_t> axes;
  for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  axes = attr_ints(call, "axes", axes);
  const std::vector<int64_t> steps =
      attr_ints(call, "steps", std::vector<int64_t>(starts.size(), 1));
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    reject_call(call, "starts " + ints_text(starts) + ", ends " + ints_text(ends) + ", axes " +
                          ints_text(axes) + " and steps " + ints_text(steps) +
                          " must have one length (absent axes and steps have that of starts)");
  }
  const std::vector<int> resolved = resolve_axes(call, "axes", axes, input.rank());
  Shape output = input;
  for (size_t i = 0; i < resolved.size(); ++i) {
    if (steps[i] == 0) {
      reject_call(call, "steps " + ints_text(steps) + " has a 0; a step is a nonzero int");
    }
    const int axis = resolved[i];
    output.set_dim(axis, hxcommon::slice_axis(input[axis], starts[i], ends[i], steps[i]).count);
  }
  outputs[0] = {call.inputs[0].dtype, output};
}

void infer_gather(const InferContext& call, TensorMeta* outputs) {
  require_index_dtype(call, 1, "indices");
  const Shape& data = call.inputs[0].shape;
  const int axis = resolve_axis(call, "axis", attr_int(call, "axis", 0), data.rank());
  std::vector<int64_t> dims;
  for (int d = 0; d < axis; ++d) dims.push_back(data[d]);
  for (int64_t extent : call.inputs[1].shape.to_vector()) dims.push_back(extent);
  for (int d = axis + 1; d < data.rank(); ++d) dims.push_back(data[d]);
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the gathered shape")};
}

// GatherElements' and ScatterElements' indices: of data's rank, and no larger than data
// on the axes they do not index.
int elementwise_axis(const InferContext& call) {
  require_index_dtype(call, 1, "indices");
  const Shape& data = call.inputs[0].shape;
  const Shape& indices = call.inputs[1].shape;
  const int axis = resolve_axis(call, "axis", attr_int(call, "axis", 0), data.rank());
  bool fits = indices.rank() == data.rank();
  for (int d = 0; fits && d < data.rank(); ++d) fits = d == axis || indices[d] <= data[d];
  if (!fits) {
    reject_call(call, "indices " + indices.to_string() + " must have the rank of data " +
                          data.to_string() + " and extents no larger than data's on every " +
                          "axis but axis " + std::to_string(axis));
  }
  return axis;
}

void infer_gather_elements(const InferContext& call, TensorMeta* outputs) {
  elementwise_axis(call);
  outputs[0] = {call.inputs[0].dtype, call.inputs[1].shape};
}

void infer_scatter_elements(const InferContext& call, TensorMeta* outputs) {
  elementwise_axis(call);
  if (call.inputs[2].dtype != call.inputs[0].dtype ||
      call.inputs[2].shape != call.inputs[1].shape) {
    reject_call(call, "updates is " + std::string(dtype_name(call.inputs[2].dtype)) + " " +
                          call.inputs[2].shape.to_string() + "; it must have data's dtype (" +
                          dtype_name(call.inputs[0].dtype) + ") and the shape of indices " +
                          call.inputs[1].shape.to_string());
  }
  const std::string reduction = attr_string(call, "reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" &&
      reduction != "min") {
    reject_call(call, "attribute 'reduction' is \"" + reduction +
                          "\"; expected \"none\", \"add\", \"mul\", \"max\" or \"min\"");
  }
  outputs[0] = call.inputs[0];
}

OpArgInfo data_arg(const char* description) {
  return {"data", "T", all_dtypes(), description, false};
}
OpArgInfo indices_arg(const char* description) {
  return {"indices", "Tind", index_dtypes(), description, false};
}
OpAttrInfo axis_attr(const char* description) {
  return {"axis", AttrType::kInt, false, AttrValue(int64_t{0}), description};
}

}  // namespace

void add_indexing_ops(OpRegistry& registry) {
  OpSchema concat{"Concat", 1, -1, 1, infer_concat, ""};
  concat.summary = "Joins the inputs along axis, in order.";
  concat.inputs = {{"inputs", "T", all_dtypes(),
                    "one or more tensors of one dtype and rank, with equal extents on every "
                    "axis but axis",
                    true}};
  concat.outputs = {{"y", "T", all_dtypes(), "the inputs joined", false}};
  concat.attrs = {{"axis", AttrType::kInt, true, std::nullopt,
                   "the axis to join along, from -rank to rank-1 (negative counts from the "
                   "end)"}};
  concat.shape_rule = "y has the inputs' shape, with the sum of their extents on axis.";
  concat.reference_cases = concat_cases;
  concat.onnx.versions = {13};
  registry.add(std::move(concat));

  OpSchema slice{"Slice", 1, 1, 1, infer_slice, ""};
  slice.summary = "Takes every step-th element of x from start towards end, on the listed axes.";
  slice.inputs = {data_arg("any tensor")};
  slice.outputs = {{"y", "T", all_dtypes(), "the slice", false}};
  slice.attrs = {
      {"starts", AttrType::kInts, true, std::nullopt,
       "the first index on each axis; negative counts from the end"},
      {"ends", AttrType::kInts, true, std::nullopt,
       "the index before which each axis stops (exclusive); negative counts from the end"},
      {"axes", AttrType::kInts, false, std::nullopt,
       "the axes starts and ends apply to, from -rank to rank-1, none twice; absent: 0, 1, ..."
       " as many as starts"},
      {"steps", AttrType::kInts, false, std::nullopt,
       "the step on each axis, nonzero; a negative one walks backwards; absent: all 1"},
  };
  slice.shape_rule =
      "As ONNX defines it: after negative starts and ends are counted from the end, stepping "
      "forward clamps both to [0, extent], stepping back clamps start to [0, extent-1] and "
      "end to [-1, extent-1]; an axis then has ceil((end - start) / step) elements, or 0. "
      "Axes not listed are whole.";
  slice.reference_cases = slice_cases;
  slice.onnx.versions = {13};
  slice.onnx.attribute_inputs = {
      {1, "starts", 10}, {2, "ends", 10}, {3, "axes", 10}, {4, "steps", 10}};
  registry.add(std::move(slice));

  OpSchema gather{"Gather", 2, 2, 1, infer_gather, ""};
  gather.summary = "Picks the entries of data along axis that indices name.";
  gather.inputs = {data_arg("a tensor of rank >= 1"),
                   indices_arg("any tensor of indices into data's axis, each from -extent to "
                               "extent-1 (negative counts from the end)")};
  gather.outputs = {{"y", "T", all_dtypes(), "the picked entries", false}};
  gather.attrs = {axis_attr("the axis of data that indices index, from -rank to rank-1")};
  gather.shape_rule = "y is data's shape with its axis replaced by indices' shape. An index "
                      "out of range fails the call, from the kernel.";
  gather.reference_cases = gather_cases;
  gather.onnx.versions = {13};
  registry.add(std::move(gather));

  OpSchema gather_elements{"GatherElements", 2, 2, 1, infer_gather_elements, ""};
  gather_elements.summary =
      "Picks one element of data per element of indices: y[i][j][k] = data[indices[i][j][k]][j]"
      "[k] for axis 0, and likewise for the others.";
  gather_elements.inputs = {
      data_arg("a tensor of rank >= 1"),
      indices_arg("indices along axis, of data's rank, no larger than data on the other axes; "
                  "each from -extent to extent-1")};
  gather_elements.outputs = {{"y", "T", all_dtypes(), "the picked elements", false}};
  gather_elements.attrs = {axis_attr("the axis indices index, from -rank to rank-1")};
  gather_elements.shape_rule = "y has the shape of indices. An index out of range fails the "
                               "call, from the kernel.";
  gather_elements.reference_cases = gather_elements_cases;
  gather_elements.onnx.versions = {13};
  registry.add(std::move(gather_elements));

  OpSchema scatter{"ScatterElements", 3, 3, 1, infer_scatter_elements, ""};
  scatter.summary =
      "A copy of data in which each element of updates replaces (or is combined by reduction "
      "with) the element indices names: y[indices[i][j]][j] = updates[i][j] for axis 0.";
  scatter.inputs = {
      data_arg("a tensor of rank >= 1"),
      indices_arg("indices along axis, of data's rank, no larger than data on the other axes; "
                  "each from -extent to extent-1"),
      {"updates", "T", all_dtypes(), "the values, of data's dtype and the shape of indices",
       false}};
  scatter.outputs = {{"y", "T", all_dtypes(), "data with the updates applied", false}};
  scatter.attrs = {
      axis_attr("the axis indices index, from -rank to rank-1"),
      {"reduction", AttrType::kString, false, AttrValue(std::string("none")),
       "how an update combines with the element: \"none\" replaces it, \"add\", \"mul\", "
       "\"max\" and \"min\" combine (on bool: or, and, or, and)"},
  };
  scatter.shape_rule =
      "y has data's shape. Updates apply in indices' row-major order, so with reduction "
      "\"none\" the last of several to one element wins. An index out of range fails the "
      "call, from the kernel. Integer add and mul wrap modulo 2^bits.";
  scatter.reference_cases = scatter_elements_cases;
  scatter.onnx.versions = {13, 16, 18};
  registry.add(std::move(scatter));
}

}  // namespace hxrt::detail

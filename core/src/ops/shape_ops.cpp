// The ops that give a tensor's elements another shape without reordering them (Reshape,
// Flatten, Squeeze, Unsqueeze), or reorder or repeat them by a rule of axes (Transpose,
// Expand, Tile). They move data without arithmetic, so they take every dtype.
#include <algorithm>
#include <optional>
#include <string>

#include "ops/axis_checks.hpp"
#include "ops/broadcast.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

// Reshape's target: 0 copies the input's extent on that axis (unless allowzero), one -1 is
// what the element count leaves.
void infer_reshape(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "shape", "a list of ints");
  const std::vector<int64_t> given = attr_ints(call, "shape", {});
  const bool allow_zero = attr_bool(call, "allowzero", false);
  const Shape& input = call.inputs[0].shape;
  std::vector<int64_t> dims = given;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      if (inferred) {
        reject_call(call, "attribute 'shape' " + ints_text(given) +
                              " has more than one -1; at most one extent may be inferred");
      }
      inferred = i;
    } else if (dims[i] < -1) {
      reject_call(call, "attribute 'shape' " + ints_text(given) + " has extent " +
                            std::to_string(dims[i]) + "; extents are >= 0, or -1 for the one "
                            "the element count decides");
    } else if (dims[i] == 0 && !allow_zero) {
      if (static_cast<int>(i) >= input.rank()) {
        reject_call(call, "attribute 'shape' " + ints_text(given) + " has 0 at index " +
                              std::to_string(i) + ", which copies the input's extent there, "
                              "but the input " + input.to_string() + " has rank " +
                              std::to_string(input.rank()) + "; set allowzero for an extent "
                              "of 0");
      }
      dims[i] = input[static_cast<int>(i)];
    }
  }
  if (inferred && allow_zero && std::find(given.begin(), given.end(), 0) != given.end()) {
    reject_call(call, "attribute 'shape' " + ints_text(given) + " has both -1 and 0 with "
                          "allowzero set, which leaves the -1 undetermined");
  }
  const int64_t count = input.num_elements();
  if (inferred) {
    int64_t others = 1;
    bool overflow = false;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i != *inferred) overflow = overflow || __builtin_mul_overflow(others, dims[i], &others);
    }
    if (overflow || others == 0 || count % others != 0) {
      reject_call(call, "cannot infer the -1 of attribute 'shape' " + ints_text(given) +
                            ": the input " + input.to_string() + " has " +
                            std::to_string(count) + " elements, which the product of the "
                            "other extents does not divide");
    }
    dims[*inferred] = count / others;
  }
  const Shape output = checked_shape(call, dims, "attribute 'shape' resolves to");
  if (output.num_elements() != count) {
    reject_call(call, "cannot reshape " + input.to_string() + " (" + std::to_string(count) +
                          " elements) to " + output.to_string() + " (" +
                          std::to_string(output.num_elements()) + " elements); the counts "
                          "must be equal");
  }
  outputs[0] = {call.inputs[0].dtype, output};
}

void infer_flatten(const InferContext& call, TensorMeta* outputs) {
  const Shape& input = call.inputs[0].shape;
  const int64_t axis = attr_int(call, "axis", 1);
  if (axis < -input.rank() || axis > input.rank()) {
    reject_call(call, "attribute 'axis' is " + std::to_string(axis) + ", out of range for " +
                          "input " + input.to_string() + "; it is from " +
                          std::to_string(-input.rank()) + " to " + std::to_string(input.rank()));
  }
  const int split = static_cast<int>(axis < 0 ? axis + input.rank() : axis);
  int64_t outer = 1;
  int64_t inner = 1;
  for (int i = 0; i < input.rank(); ++i) (i < split ? outer : inner) *= input[i];
  outputs[0] = {call.inputs[0].dtype, Shape{outer, inner}};
}

void infer_squeeze(const InferContext& call, TensorMeta* outputs) {
  const Shape& input = call.inputs[0].shape;
  std::vector<bool> removed(static_cast<size_t>(input.rank()), false);
  if (call.attrs.find("axes")) {
    for (int axis : resolve_axes(call, "axes", attr_ints(call, "axes", {}), input.rank())) {
      if (input[axis] != 1) {
        reject_call(call, "axis " + std::to_string(axis) + " of input " + input.to_string() +
                              " has extent " + std::to_string(input[axis]) +
                              "; only axes of extent 1 can be squeezed");
      }
      removed[static_cast<size_t>(axis)] = true;
    }
  } else {
    for (int axis = 0; axis < input.rank(); ++axis) {
      removed[static_cast<size_t>(axis)] = input[axis] == 1;
    }
  }
  Shape output;
  for (int axis = 0; axis < input.rank(); ++axis) {
    if (!removed[static_cast<size_t>(axis)]) output.push_back(input[axis]);
  }
  outputs[0] = {call.inputs[0].dtype, output};
}

void infer_unsqueeze(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "axes", "a list of ints");
  const std::vector<int64_t> axes = attr_ints(call, "axes", {});
  const Shape& input = call.inputs[0].shape;
  const int rank = input.rank() + static_cast<int>(axes.size());
  if (rank > Shape::kMaxRank) {
    reject_call(call, "inserting " + std::to_string(axes.size()) + " axes into " +
                          input.to_string() + " makes rank " + std::to_string(rank) +
                          "; at most " + std::to_string(Shape::kMaxRank) + " are supported");
  }
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int axis : resolve_axes(call, "axes", axes, rank)) {
    inserted[static_cast<size_t>(axis)] = true;
  }
  Shape output;
  int next = 0;
  for (int axis = 0; axis < rank; ++axis) {
    output.push_back(inserted[static_cast<size_t>(axis)] ? 1 : input[next++]);
  }
  outputs[0] = {call.inputs[0].dtype, output};
}

void infer_transpose(const InferContext& call, TensorMeta* outputs) {
  const Shape& input = call.inputs[0].shape;
  const int rank = input.rank();
  if (!call.attrs.find("perm")) {
    Shape output;
    for (int axis = rank - 1; axis >= 0; --axis) output.push_back(input[axis]);
    outputs[0] = {call.inputs[0].dtype, output};
    return;
  }
  const std::vector<int64_t> perm = attr_ints(call, "perm", {});
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  bool permutation = static_cast<int>(perm.size()) == rank;
  for (size_t i = 0; permutation && i < perm.size(); ++i) {
    permutation = perm[i] >= 0 && perm[i] < rank && !seen[static_cast<size_t>(perm[i])];
    if (permutation) seen[static_cast<size_t>(perm[i])] = true;
  }
  if (!permutation) {
    reject_call(call, "attribute 'perm' " + ints_text(perm) + " is not a permutation of the " +
                          std::to_string(rank) + " axes of input " + input.to_string() +
                          "; it lists each of 0 to " + std::to_string(rank - 1) + " once");
  }
  Shape output;
  for (int64_t axis : perm) output.push_back(input[static_cast<int>(axis)]);
  outputs[0] = {call.inputs[0].dtype, output};
}

void infer_expand(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "shape", "a list of ints");
  const Shape target = checked_shape(call, attr_ints(call, "shape", {}), "attribute 'shape'");
  outputs[0] = {call.inputs[0].dtype, broadcast_shapes(call, call.inputs[0].shape, target)};
}

void infer_tile(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "repeats", "a list of ints");
  const std::vector<int64_t> repeats = attr_ints(call, "repeats", {});
  const Shape& input = call.inputs[0].shape;
  if (static_cast<int>(repeats.size()) != input.rank()) {
    reject_call(call, "attribute 'repeats' " + ints_text(repeats) + " has " +
                          std::to_string(repeats.size()) + " entries for input " +
                          input.to_string() + "; it needs one per axis");
  }
  std::vector<int64_t> dims(repeats.size());
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 0 ||
        __builtin_mul_overflow(input[static_cast<int>(i)], repeats[i], &dims[i])) {
      reject_call(call, "attribute 'repeats' " + ints_text(repeats) + " has " +
                            std::to_string(repeats[i]) + " for axis " + std::to_string(i) +
                            "; repeats are >= 0 and leave each extent within 64 bits");
    }
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the tiled shape")};
}

OpSchema moving_schema(const char* name, int max_inputs, InferFn infer, const char* summary,
                       const char* output) {
  OpSchema schema{name, 1, max_inputs, 1, infer, ""};
  schema.summary = summary;
  schema.inputs = {{"x", "T", all_dtypes(), "any tensor", false}};
  schema.outputs = {{"y", "T", all_dtypes(), output, false}};
  return schema;
}

}  // namespace

void add_shape_ops(OpRegistry& registry) {
  OpSchema reshape = moving_schema(
      "Reshape", 1, infer_reshape,
      "Gives x's elements, in row-major order, another shape with as many elements.",
      "x's elements in the shape the attribute shape gives");
  reshape.attrs = {
      {"shape", AttrType::kInts, true, std::nullopt,
       "the output's extents: 0 copies x's extent on that axis (unless allowzero), at most "
       "one -1 is the extent the element count leaves"},
      {"allowzero", AttrType::kBool, false, AttrValue(false),
       "a 0 in shape is an extent of 0 rather than a copy of x's extent; shape may then not "
       "also hold -1"},
  };
  reshape.shape_rule = "y has the shape the attribute shape resolves to, with x's element "
                       "count and dtype.";
  reshape.reference_cases = reshape_cases;
  reshape.onnx.versions = {13, 14, 19, 21};
  reshape.onnx.attribute_inputs = {{1, "shape", 5}};
  registry.add(std::move(reshape));

  OpSchema flatten = moving_schema("Flatten", 1, infer_flatten,
                                   "Flattens x into a matrix, splitting its axes at axis.",
                                   "a matrix of x's elements");
  flatten.attrs = {{"axis", AttrType::kInt, false, AttrValue(int64_t{1}),
                    "where x's axes split, from -rank to rank (negative counts from the end)"}};
  flatten.shape_rule = "y is [product of x's extents before axis, product of the rest]; an "
                       "empty product is 1.";
  flatten.reference_cases = flatten_cases;
  flatten.onnx.versions = {13, 21};
  registry.add(std::move(flatten));

  OpSchema squeeze = moving_schema("Squeeze", 1, infer_squeeze,
                                   "Removes axes of extent 1 from x's shape.",
                                   "x's elements without the removed axes");
  squeeze.attrs = {{"axes", AttrType::kInts, false, std::nullopt,
                    "the axes to remove, each of extent 1, from -rank to rank-1, none twice; "
                    "absent: every axis of extent 1"}};
  squeeze.shape_rule = "y is x's shape without the removed axes.";
  squeeze.reference_cases = squeeze_cases;
  squeeze.onnx.versions = {13, 21};
  squeeze.onnx.attribute_inputs = {{1, "axes", 13}};
  registry.add(std::move(squeeze));

  OpSchema unsqueeze = moving_schema("Unsqueeze", 1, infer_unsqueeze,
                                     "Inserts axes of extent 1 into x's shape.",
                                     "x's elements with the inserted axes");
  unsqueeze.attrs = {{"axes", AttrType::kInts, true, std::nullopt,
                      "where the new axes are in y, each from -r to r-1 for y's rank r "
                      "(negative counts from the end), none twice"}};
  unsqueeze.shape_rule = "y has rank x's rank plus the number of axes: extent 1 on each of "
                         "axes, x's extents in order on the others.";
  unsqueeze.reference_cases = unsqueeze_cases;
  unsqueeze.onnx.versions = {13, 21};
  unsqueeze.onnx.attribute_inputs = {{1, "axes", 13}};
  registry.add(std::move(unsqueeze));

  OpSchema transpose = moving_schema("Transpose", 1, infer_transpose,
                                     "Permutes x's axes: y's axis i is x's axis perm[i].",
                                     "x with its axes permuted");
  transpose.attrs = {{"perm", AttrType::kInts, false, std::nullopt,
                      "each of x's axes 0 to rank-1 once, in y's order; absent: reversed"}};
  transpose.shape_rule = "y's extent i is x's extent perm[i].";
  transpose.reference_cases = transpose_cases;
  transpose.onnx.versions = {13, 21};
  registry.add(std::move(transpose));

  OpSchema expand = moving_schema("Expand", 1, infer_expand,
                                  "Repeats x along axes to the shape x and the attribute shape "
                                  "broadcast to.",
                                  "x broadcast to the output's shape");
  expand.broadcasts = true;
  expand.attrs = {{"shape", AttrType::kInts, true, std::nullopt,
                   "a shape that broadcasts with x's; it may have extents of 1 where x's are "
                   "larger, and fewer axes"}};
  expand.shape_rule = "y has the shape x's shape and the attribute shape broadcast to, as "
                      "NumPy broadcasts two operands (so not always shape itself).";
  expand.reference_cases = expand_cases;
  expand.onnx.versions = {13};
  expand.onnx.attribute_inputs = {{1, "shape", 8}};
  registry.add(std::move(expand));

  OpSchema tile = moving_schema("Tile", 1, infer_tile,
                                "Repeats x along each axis as many times as repeats says.",
                                "x tiled");
  tile.attrs = {{"repeats", AttrType::kInts, true, std::nullopt,
                 "how often x repeats along each axis, one entry >= 0 per axis"}};
  tile.shape_rule = "y's extent on each axis is x's times its repeats; y[i] = x[i mod x's "
                    "extents].";
  tile.reference_cases = tile_cases;
  tile.onnx.versions = {13};
  tile.onnx.attribute_inputs = {{1, "repeats", 6}};
  registry.add(std::move(tile));
}

}  // namespace hxrt::detail

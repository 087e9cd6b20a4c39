// The ops that lay a tensor's elements out anew: Pad grows (or crops) axes, DepthToSpace and
// SpaceToDepth trade channels for blocks of pixels. Every dtype: nothing is computed.
#include <optional>
#include <string>

#include "ops/axis_checks.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

void infer_pad(const InferContext& call, TensorMeta* outputs) {
  required_attr(call, "pads", "a list of ints");
  const std::vector<int64_t> pads = attr_ints(call, "pads", {});
  const std::string mode = attr_string(call, "mode", "constant");
  attr_float(call, "constant_value", 0);  // checks the type; the kernel reads the value
  const Shape& input = call.inputs[0].shape;
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap") {
    reject_call(call, "attribute 'mode' is \"" + mode +
                          "\"; expected \"constant\", \"reflect\", \"edge\" or \"wrap\"");
  }
  std::vector<int> axes;
  for (int axis = 0; axis < input.rank(); ++axis) axes.push_back(axis);
  if (call.attrs.find("axes")) {
    axes = resolve_axes(call, "axes", attr_ints(call, "axes", {}), input.rank());
  }
  if (pads.size() != 2 * axes.size()) {
    reject_call(call, "attribute 'pads' " + ints_text(pads) + " has " +
                          std::to_string(pads.size()) + " entries; it needs 2 per padded axis "
                          "(" + std::to_string(2 * axes.size()) + " for input " +
                          input.to_string() + "): every axis's begin, then every axis's end");
  }
  std::vector<int64_t> dims = input.to_vector();
  for (size_t i = 0; i < axes.size(); ++i) {
    const auto axis = static_cast<size_t>(axes[i]);
    int64_t grown = 0;
    if (__builtin_add_overflow(dims[axis], pads[i], &grown) ||
        __builtin_add_overflow(grown, pads[i + axes.size()], &dims[axis]) || dims[axis] < 0) {
      reject_call(call, "attribute 'pads' " + ints_text(pads) + " gives axis " +
                            std::to_string(axis) + " of input " + input.to_string() +
                            " no valid extent; negative pads may crop at most the whole axis");
    }
    if (mode != "constant" && input[axes[i]] == 0 && dims[axis] != 0) {
      reject_call(call, "mode \"" + mode + "\" cannot pad axis " + std::to_string(axis) +
                            ", which is empty in input " + input.to_string() +
                            "; only mode \"constant\" has values to pad it with");
    }
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the padded shape")};
}

// DepthToSpace's and SpaceToDepth's blocksize, and their input of rank 4.
int64_t block_size(const InferContext& call) {
  required_attr(call, "blocksize", "an int");
  const int64_t block = attr_int(call, "blocksize", 1);
  if (block < 1 || block > (int64_t{1} << 31)) {
    reject_call(call, "attribute 'blocksize' is " + std::to_string(block) +
                          "; it is an int from 1 to 2^31");
  }
  if (call.inputs[0].shape.rank() != 4) {
    reject_call(call, "input " + call.inputs[0].shape.to_string() +
                          " must have rank 4: [N, C, H, W]");
  }
  return block;
}

void infer_depth_to_space(const InferContext& call, TensorMeta* outputs) {
  const int64_t block = block_size(call);
  const std::string mode = attr_string(call, "mode", "DCR");
  if (mode != "DCR" && mode != "CRD") {
    reject_call(call, "attribute 'mode' is \"" + mode + "\"; expected \"DCR\" or \"CRD\"");
  }
  const Shape& x = call.inputs[0].shape;
  if (x[1] % (block * block) != 0) {
    reject_call(call, "input " + x.to_string() + " has " + std::to_string(x[1]) +
                          " channels, not a multiple of blocksize^2 = " +
                          std::to_string(block * block));
  }
  std::vector<int64_t> dims = {x[0], x[1] / (block * block), 0, 0};
  if (__builtin_mul_overflow(x[2], block, &dims[2]) ||
      __builtin_mul_overflow(x[3], block, &dims[3])) {
    reject_call(call, "input " + x.to_string() + " times blocksize " + std::to_string(block) +
                          " is too large a shape");
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the output shape")};
}

void infer_space_to_depth(const InferContext& call, TensorMeta* outputs) {
  const int64_t block = block_size(call);
  const Shape& x = call.inputs[0].shape;
  if (x[2] % block != 0 || x[3] % block != 0) {
    reject_call(call, "input " + x.to_string() + " has height and width that are not both "
                          "multiples of blocksize " + std::to_string(block));
  }
  std::vector<int64_t> dims = {x[0], 0, x[2] / block, x[3] / block};
  if (__builtin_mul_overflow(x[1], block * block, &dims[1])) {
    reject_call(call, "input " + x.to_string() + " has too many channels for blocksize " +
                          std::to_string(block));
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the output shape")};
}

OpAttrInfo blocksize_attr() {
  return {"blocksize", AttrType::kInt, true, std::nullopt,
          "the side of the square blocks, >= 1"};
}

}  // namespace

void add_layout_ops(OpRegistry& registry) {
  OpSchema pad{"Pad", 1, 1, 1, infer_pad, ""};
  pad.summary = "Adds elements before and after x along its axes (or removes them, for "
                "negative pads).";
  pad.inputs = {{"x", "T", all_dtypes(), "any tensor", false}};
  pad.outputs = {{"y", "T", all_dtypes(), "x padded", false}};
  pad.attrs = {
      {"pads", AttrType::kInts, true, std::nullopt,
       "how many elements to add at the begin of each padded axis, then at the end of each: "
       "[b1, b2, ..., e1, e2, ...]; a negative one removes elements"},
      {"mode", AttrType::kString, false, AttrValue(std::string("constant")),
       "\"constant\" (constant_value), \"reflect\" (mirrored about the edge element, "
       "repeating for pads beyond the axis), \"edge\" (the edge element) or \"wrap\" (from "
       "the other end, cyclically)"},
      {"constant_value", AttrType::kFloat, false, AttrValue(0.0),
       "the value of mode \"constant\", converted to x's dtype as Cast converts"},
      {"axes", AttrType::kInts, false, std::nullopt,
       "the axes pads applies to, from -rank to rank-1, none twice; absent: every axis"},
  };
  pad.shape_rule =
      "y's extent on a padded axis is x's plus its begin and end pads (at least 0); the other "
      "axes are x's. Negative pads crop what the positive ones pad: the padding is computed "
      "from the whole of x. Only mode \"constant\" pads an empty axis.";
  pad.reference_cases = pad_cases;
  pad.onnx.versions = {13, 18, 19, 21};
  pad.onnx.attribute_inputs = {{1, "pads", 11}, {2, "constant_value", 11}, {3, "axes", 18}};
  registry.add(std::move(pad));

  OpSchema depth_to_space{"DepthToSpace", 1, 1, 1, infer_depth_to_space, ""};
  depth_to_space.summary =
      "Moves channels into blocks of blocksize x blocksize pixels: [N, C, H, W] becomes "
      "[N, C / blocksize^2, H * blocksize, W * blocksize].";
  depth_to_space.inputs = {{"x", "T", all_dtypes(),
                            "[N, C, H, W] with C a multiple of blocksize^2", false}};
  depth_to_space.outputs = {{"y", "T", all_dtypes(), "x rearranged", false}};
  depth_to_space.attrs = {
      blocksize_attr(),
      {"mode", AttrType::kString, false, AttrValue(std::string("DCR")),
       "\"DCR\": y[n, c, h*b + i, w*b + j] = x[n, (i*b + j) * C/b^2 + c, h, w]; \"CRD\": "
       "x[n, c*b^2 + i*b + j, h, w]"},
  };
  depth_to_space.shape_rule = "y is [N, C / blocksize^2, H * blocksize, W * blocksize].";
  depth_to_space.reference_cases = depth_to_space_cases;
  depth_to_space.onnx.versions = {13};
  registry.add(std::move(depth_to_space));

  OpSchema space_to_depth{"SpaceToDepth", 1, 1, 1, infer_space_to_depth, ""};
  space_to_depth.summary =
      "Moves blocks of blocksize x blocksize pixels into channels, DepthToSpace's DCR "
      "inverse: y[n, (i*b + j) * C + c, h, w] = x[n, c, h*b + i, w*b + j].";
  space_to_depth.inputs = {{"x", "T", all_dtypes(),
                            "[N, C, H, W] with H and W multiples of blocksize", false}};
  space_to_depth.outputs = {{"y", "T", all_dtypes(), "x rearranged", false}};
  space_to_depth.attrs = {blocksize_attr()};
  space_to_depth.shape_rule = "y is [N, C * blocksize^2, H / blocksize, W / blocksize].";
  space_to_depth.reference_cases = space_to_depth_cases;
  space_to_depth.onnx.versions = {13};
  registry.add(std::move(space_to_depth));
}

}  // namespace hxrt::detail

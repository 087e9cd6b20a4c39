#include <optional>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

std::string list_to_string(const std::vector<int64_t>& values) {
  return attr_value_to_string(AttrValue(values));
}

// Which axes of `input` Sum reduces: absent "axes" means all of them, an empty list none.
std::vector<bool> reduced_axes(const InferContext& call, const Shape& input) {
  const int rank = input.rank();
  if (!call.attrs.find("axes")) return std::vector<bool>(static_cast<size_t>(rank), true);
  const std::vector<int64_t> axes = attr_ints(call, "axes", {});
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t axis : axes) {
    if (rank == 0) {
      reject_call(call, "axes " + list_to_string(axes) + " name axis " + std::to_string(axis) +
                            ", but the input is a scalar, which has no axes; pass axes [] or "
                            "leave axes out");
    }
    if (axis < -rank || axis >= rank) {
      reject_call(call, "axis " + std::to_string(axis) + " is out of range for input of shape " +
                            input.to_string() + "; axes must be from " +
                            std::to_string(-rank) + " to " + std::to_string(rank - 1));
    }
    const auto index = static_cast<size_t>(axis < 0 ? axis + rank : axis);
    if (reduced[index]) {
      reject_call(call, "axes " + list_to_string(axes) + " name axis " + std::to_string(index) +
                            " twice (negative axes count from the end)");
    }
    reduced[index] = true;
  }
  return reduced;
}

void infer_sum(const InferContext& call, TensorMeta* outputs) {
  require_numeric_inputs(call);
  const bool keep_dims = attr_bool(call, "keep_dims", false);
  const Shape& input = call.inputs[0].shape;
  const std::vector<bool> reduced = reduced_axes(call, input);
  Shape output;
  for (int i = 0; i < input.rank(); ++i) {
    if (!reduced[static_cast<size_t>(i)]) {
      output.push_back(input[i]);
    } else if (keep_dims) {
      output.push_back(1);
    }
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = output;
}

}  // namespace

void add_reduction_ops(OpRegistry& registry) {
  OpSchema sum{"Sum", 1, 1, 1, infer_sum, ""};
  sum.summary = "Sums the elements of x along the given axes (all of them by default).";
  sum.inputs = {{"x", "T", numeric_dtypes(), "any tensor", false}};
  sum.outputs = {{"y", "T", numeric_dtypes(), "the sums", false}};
  sum.attrs = {
      {"axes", AttrType::kInts, false, std::nullopt,
       "the axes to reduce, each from -rank to rank-1 (negative ones count from the end), none "
       "twice; absent: every axis; []: none (y is a copy of x)"},
      {"keep_dims", AttrType::kBool, false, AttrValue(false),
       "keep each reduced axis as an axis of extent 1"},
  };
  sum.shape_rule = "y is x's shape without the reduced axes, or with extent 1 in their place "
                   "when keep_dims is true; reducing every axis gives a scalar. The sum over an "
                   "axis of extent 0 is 0. Integer sums wrap modulo 2^bits.";
  sum.reference_cases = sum_cases;
  registry.add(std::move(sum));
}

}  // namespace hxrt::detail

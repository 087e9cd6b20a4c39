// Split: a tensor cut along an axis into consecutive parts, one output each, as ONNX's Split
// 13 and 18 define it: the parts' extents listed by `split`, or `num_outputs` parts of
// ceil(extent / num_outputs), the last smaller. The call decides how many outputs it has
// (OpSchema::output_count), from those two attributes alone.
#include <cstdint>
#include <string>
#include <vector>

#include "ops/axis_checks.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

// The parts a call asks for: split's length, else num_outputs, else 1. A count out of
// [1, kMaxOutputs] is refused here, saying which attribute asked for it.
int split_count(const std::string& op, const Attrs& attrs, size_t) {
  const InferContext call{op, nullptr, 0, attrs};
  const bool listed = attrs.find("split") != nullptr;
  const bool counted = attrs.find("num_outputs") != nullptr;
  const std::vector<int64_t> split = attr_ints(call, "split", {});
  const int64_t parts = listed ? static_cast<int64_t>(split.size())
                               : attr_int(call, "num_outputs", 1);
  if (listed && counted && attr_int(call, "num_outputs", 1) != parts) {
    reject_call(call, "attribute 'split' " + ints_text(split) + " lists " +
                          std::to_string(parts) + " parts but 'num_outputs' is " +
                          std::to_string(attr_int(call, "num_outputs", 1)) +
                          "; give one of them, or both agreeing");
  }
  const char* attr = listed ? "split" : "num_outputs";
  if (parts < 1) {
    reject_call(call, std::string("attribute '") + attr + "' asks for " +
                          std::to_string(parts) + " parts; a split makes at least one");
  }
  if (parts > kMaxOutputs) {
    reject_call(call, std::string("attribute '") + attr + "' asks for " +
                          std::to_string(parts) + " parts; hxrt's ops have at most " +
                          std::to_string(kMaxOutputs) + " outputs");
  }
  return static_cast<int>(parts);
}

// Each part's extent along an axis of extent `extent`.
std::vector<int64_t> part_extents(const InferContext& call, int axis, int64_t extent) {
  const std::vector<int64_t> split = attr_ints(call, "split", {});
  const auto parts = static_cast<int64_t>(call.num_outputs);
  if (!split.empty()) {
    int64_t sum = 0;
    for (int64_t size : split) {
      if (size < 0) {
        reject_call(call, "attribute 'split' " + ints_text(split) +
                              " has a negative size; each part has 0 or more elements");
      }
      if (__builtin_add_overflow(sum, size, &sum)) sum = INT64_MAX;
    }
    if (sum != extent) {
      reject_call(call, "attribute 'split' " + ints_text(split) + " adds up to " +
                            std::to_string(sum) + ", but axis " + std::to_string(axis) +
                            " has extent " + std::to_string(extent) +
                            "; the sizes must add up to it");
    }
    return split;
  }
  // ONNX's rule (opset 18): every part but the last has ceil(extent / parts).
  const int64_t chunk = extent / parts + (extent % parts != 0 ? 1 : 0);
  int64_t before_last = 0;
  const bool overflows = __builtin_mul_overflow(chunk, parts - 1, &before_last);
  const int64_t last = overflows ? -1 : extent - before_last;
  if (last < 0) {
    reject_call(call, "axis " + std::to_string(axis) + " of extent " + std::to_string(extent) +
                          " cannot be cut into " + std::to_string(parts) + " parts of " +
                          std::to_string(chunk) + " (ceil(" + std::to_string(extent) + " / " +
                          std::to_string(parts) + ")) and a smaller last one; list the "
                          "sizes in 'split' instead");
  }
  std::vector<int64_t> extents(static_cast<size_t>(parts), chunk);
  extents.back() = last;
  return extents;
}

void infer_split(const InferContext& call, TensorMeta* outputs) {
  const Shape& x = call.inputs[0].shape;
  if (x.rank() == 0) reject_call(call, "input is a scalar; it needs an axis to split along");
  const int axis = resolve_axis(call, "axis", attr_int(call, "axis", 0), x.rank());
  const std::vector<int64_t> extents = part_extents(call, axis, x[axis]);
  std::vector<int64_t> dims = x.to_vector();
  for (size_t i = 0; i < extents.size(); ++i) {
    dims[static_cast<size_t>(axis)] = extents[i];
    outputs[i] = {call.inputs[0].dtype, Shape(dims)};
  }
}

}  // namespace

void add_split_op(OpRegistry& registry) {
  OpSchema split{"Split", 1, 1, kMaxOutputs, infer_split, ""};
  split.output_count = split_count;
  split.summary = "Cuts input along axis into consecutive parts, one output each.";
  split.inputs = {{"input", "T", all_dtypes(), "a tensor of rank >= 1", false}};
  split.outputs = {{"outputs", "T", all_dtypes(),
                    "the parts in order, input's shape but for their extents along axis",
                    true}};
  split.attrs = {
      {"axis", AttrType::kInt, false, AttrValue(int64_t{0}),
       "the axis to cut, from -rank to rank-1 (negative counts from the end)"},
      {"split", AttrType::kInts, false, std::nullopt,
       "each part's extent along axis, each >= 0, adding up to axis' extent; one output per "
       "entry"},
      {"num_outputs", AttrType::kInt, false, std::nullopt,
       "the number of parts when split is absent: each ceil(extent / num_outputs), the last "
       "smaller (ONNX 18); with split, its length. Both absent: one part"},
  };
  split.shape_rule = "As many outputs as split lists, else num_outputs, else 1 (at most 64); "
                     "output i is input's shape with its extent along axis the part's: "
                     "split[i], or ceil(extent / num_outputs) but for the last, which has the "
                     "rest and may not be negative.";
  split.reference_cases = split_cases;
  split.onnx.versions = {13, 18};
  split.onnx.attribute_inputs = {{1, "split", 13}};
  split.onnx.output_count_attr = "num_outputs";
  registry.add(std::move(split));
}

}  // namespace hxrt::detail

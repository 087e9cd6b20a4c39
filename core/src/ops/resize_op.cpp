// Resize, and ONNX's Upsample (Resize as it was before opset 10): y samples x at coordinates
// mapped from y's back to x's, axis by axis, by nearest element, N-linear or N-cubic
// interpolation. ONNX's formulas (onnx/reference/ops/op_resize.py), with the spec's where the
// two differ.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ops/axis_checks.hpp"
#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

bool resize_one_of(const std::string& value, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (value == name) return true;
  }
  return false;
}

// Rejects a string attribute outside `names`, listing them.
std::string resize_choice(const InferContext& call, const char* attr, const char* default_value,
                          const std::vector<std::string>& names) {
  const std::string value = attr_string(call, attr, default_value);
  if (resize_one_of(value, names)) return value;
  std::string expected;
  for (size_t i = 0; i < names.size(); ++i) {
    expected += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("\"" + names[i] + "\"");
  }
  reject_call(call,
              std::string("attribute '") + attr + "' is \"" + value + "\"; expected " + expected);
}

std::string resize_floats_text(const std::vector<double>& values) {
  return attr_value_to_string(AttrValue(values));
}

// floor(extent * scale): the extent of a resized axis that scales gives.
int64_t resize_scaled_extent(const InferContext& call, int64_t extent, double scale,
                             const std::vector<double>& scales) {
  if (!(scale > 0) || !std::isfinite(scale)) {
    reject_call(call, "attribute 'scales' " + resize_floats_text(scales) + " holds " +
                          attr_value_to_string(AttrValue(scale)) +
                          "; every scale is a finite number above 0");
  }
  const double product = std::floor(static_cast<double>(extent) * scale);
  if (!(product < 9.2e18)) {
    reject_call(call, "attribute 'scales' " + resize_floats_text(scales) + " makes extent " +
                          std::to_string(extent) + " too large to count");
  }
  return static_cast<int64_t>(product);
}

// The extents sizes gives the resized axes (`axes`, of x's extents `dims`), as
// keep_aspect_ratio_policy reads them: as they are ("stretch"), or all at the one scale of
// the axis whose size bounds it most (round(sizes[i] / x[axes[i]] * x[d]), halves up).
void resize_sized_extents(const InferContext& call, const std::vector<int>& axes,
                          const std::vector<int64_t>& sizes, const std::string& policy,
                          std::vector<int64_t>& dims) {
  const std::vector<int64_t> x = dims;
  std::optional<size_t> bound;  // the axis whose ratio sizes / x the policy keeps
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t extent = dims[static_cast<size_t>(axes[i])];
    if (sizes[i] < 0 || (extent == 0 && sizes[i] != 0)) {
      reject_call(call, "attribute 'sizes' " + ints_text(sizes) + " asks for " +
                            std::to_string(sizes[i]) + " elements on axis " +
                            std::to_string(axes[i]) + ", which has " + std::to_string(extent) +
                            " in x; a size is >= 0, and 0 where x's axis is empty");
    }
    if (extent == 0) continue;
    const auto ratio = [&](size_t at) {
      return static_cast<double>(sizes[at]) / static_cast<double>(x[size_t(axes[at])]);
    };
    if (!bound || (policy == "not_larger" && ratio(i) < ratio(*bound)) ||
        (policy == "not_smaller" && ratio(i) > ratio(*bound))) {
      bound = i;
    }
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t& extent = dims[static_cast<size_t>(axes[i])];
    if (policy == "stretch" || extent == 0) {
      extent = sizes[i];
      continue;
    }
    const double kept =
        std::floor(static_cast<double>(sizes[*bound]) * static_cast<double>(extent) /
                       static_cast<double>(x[size_t(axes[*bound])]) +
                   0.5);
    if (!(kept < 9.2e18)) {
      reject_call(call, "attribute 'sizes' " + ints_text(sizes) + " with policy \"" + policy +
                            "\" makes axis " + std::to_string(axes[i]) + " too large to count");
    }
    extent = static_cast<int64_t>(kept);
  }
}

// mode's own limits: what bool and nearest cannot take.
void resize_check_mode(const InferContext& call, const std::string& mode) {
  if (call.inputs[0].dtype == DType::kBool && mode != "nearest") {
    reject_call(call,
                "mode \"" + mode + "\" interpolates numbers; a bool x takes mode \"nearest\"");
  }
  if (mode == "nearest" && int_flag(call, "antialias", 0)) {
    reject_call(call,
                "attribute 'antialias' is 1 with mode \"nearest\"; it widens the filters "
                "of modes \"linear\" and \"cubic\"");
  }
  if (mode == "nearest" && int_flag(call, "exclude_outside", 0)) {
    reject_call(call,
                "attribute 'exclude_outside' is 1 with mode \"nearest\"; it weighs the "
                "sampling locations of modes \"linear\" and \"cubic\", and nearest "
                "takes one");
  }
}

void infer_resize(const InferContext& call, TensorMeta* outputs) {
  const Shape& x = call.inputs[0].shape;
  const int rank = x.rank();
  const std::string mode = resize_choice(call, "mode", "nearest", {"nearest", "linear", "cubic"});
  const std::string coordinates =
      resize_choice(call, "coordinate_transformation_mode", "half_pixel",
                    {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                     "asymmetric", "tf_crop_and_resize"});
  resize_choice(call, "nearest_mode", "round_prefer_floor",
                {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple"});
  const std::string policy = resize_choice(call, "keep_aspect_ratio_policy", "stretch",
                                           {"stretch", "not_larger", "not_smaller"});
  int_flag(call, "antialias", 0);
  int_flag(call, "exclude_outside", 0);
  if (!std::isfinite(attr_float(call, "cubic_coeff_a", -0.75))) {
    reject_call(call, "attribute 'cubic_coeff_a' is not a finite number");
  }
  attr_float(call, "extrapolation_value", 0);  // checks the type; the kernel reads the value
  resize_check_mode(call, mode);
  if (rank == 0) reject_call(call, "x is a scalar, which has no axis to resize");
  std::vector<int> axes;
  for (int axis = 0; axis < rank; ++axis) axes.push_back(axis);
  if (call.attrs.find("axes")) axes = resolve_axes(call, "axes", attr_ints(call, "axes", {}), rank);
  // Empty lists are absent ones: ONNX passes an empty tensor for an input it leaves out.
  const std::vector<double> scales = attr_floats(call, "scales", {});
  const std::vector<int64_t> sizes = attr_ints(call, "sizes", {});
  const std::vector<double> roi = attr_floats(call, "roi", {});
  if (scales.empty() == sizes.empty()) {
    reject_call(call, std::string(scales.empty() ? "neither 'scales' nor 'sizes' is given"
                                                 : "both 'scales' and 'sizes' are given") +
                          "; give exactly one (an empty list is an absent one)");
  }
  const std::string per_axis =
      " for the " + std::to_string(axes.size()) + " resized axes of x " + x.to_string();
  if (!scales.empty() && scales.size() != axes.size()) {
    reject_call(call, "attribute 'scales' " + resize_floats_text(scales) + " has " +
                          std::to_string(scales.size()) + " entries; it needs one" + per_axis);
  }
  if (!sizes.empty() && sizes.size() != axes.size()) {
    reject_call(call, "attribute 'sizes' " + ints_text(sizes) + " has " +
                          std::to_string(sizes.size()) + " entries; it needs one" + per_axis);
  }
  if (!roi.empty() && roi.size() != 2 * axes.size()) {
    reject_call(call, "attribute 'roi' " + resize_floats_text(roi) + " has " +
                          std::to_string(roi.size()) + " entries; it needs a start and an end" +
                          per_axis + ": [starts..., ends...]");
  }
  for (double bound : roi) {
    if (!std::isfinite(bound)) {
      reject_call(
          call, "attribute 'roi' " + resize_floats_text(roi) + " holds a bound that is not finite");
    }
  }
  if (coordinates == "tf_crop_and_resize" && roi.empty()) {
    reject_call(call,
                "coordinate_transformation_mode \"tf_crop_and_resize\" needs attribute "
                "'roi', the region to resample");
  }
  std::vector<int64_t> dims = x.to_vector();
  if (!scales.empty()) {
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t& extent = dims[static_cast<size_t>(axes[i])];
      extent = resize_scaled_extent(call, extent, scales[i], scales);
    }
  } else {
    resize_sized_extents(call, axes, sizes, policy, dims);
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the resized shape")};
}

// Upsample: Resize with one scale per axis, each at least 1.
void infer_upsample(const InferContext& call, TensorMeta* outputs) {
  const Shape& x = call.inputs[0].shape;
  const std::string mode = resize_choice(call, "mode", "nearest", {"nearest", "linear"});
  if (call.inputs[0].dtype == DType::kBool && mode != "nearest") {
    reject_call(call, "mode \"linear\" interpolates numbers; a bool x takes mode \"nearest\"");
  }
  required_attr(call, "scales", "a list of floats");
  const std::vector<double> scales = attr_floats(call, "scales", {});
  if (scales.size() != static_cast<size_t>(x.rank())) {
    reject_call(call, "attribute 'scales' " + resize_floats_text(scales) + " has " +
                          std::to_string(scales.size()) + " entries; it needs one per axis of " +
                          "x " + x.to_string());
  }
  std::vector<int64_t> dims = x.to_vector();
  for (size_t axis = 0; axis < dims.size(); ++axis) {
    if (!(scales[axis] >= 1)) {
      reject_call(call, "attribute 'scales' " + resize_floats_text(scales) + " holds " +
                            attr_value_to_string(AttrValue(scales[axis])) +
                            "; Upsample's scales are at least 1 (Resize shrinks)");
    }
    dims[axis] = resize_scaled_extent(call, dims[axis], scales[axis], scales);
  }
  outputs[0] = {call.inputs[0].dtype, checked_shape(call, dims, "the upsampled shape")};
}

std::vector<OpAttrInfo> resize_attrs() {
  return {
      {"mode", AttrType::kString, false, AttrValue(std::string("nearest")),
       "\"nearest\" (the element nearest_mode rounds each coordinate to), \"linear\" "
       "(N-linear: 2 elements per axis) or \"cubic\" (N-cubic: 4 per axis, Keys' kernel)"},
      {"scales", AttrType::kFloats, false, std::nullopt,
       "the scale of each resized axis, a finite number above 0: y's extent is floor(x's * "
       "scale). Exactly one of scales and sizes; an empty list is an absent one"},
      {"sizes", AttrType::kInts, false, std::nullopt,
       "y's extent on each resized axis, >= 0 (0 where x's is), as keep_aspect_ratio_policy "
       "reads it; the scale is then size / x's extent. An empty list is an absent one"},
      {"axes", AttrType::kInts, false, std::nullopt,
       "the axes scales, sizes and roi list, from -rank to rank-1, none twice; the others "
       "keep their extent. Absent: every axis, in order"},
      {"roi", AttrType::kFloats, false, std::nullopt,
       "[start_1, ..., start_k, end_1, ..., end_k] of the resized axes, in fractions of x's "
       "extent: the region \"tf_crop_and_resize\" samples, which it needs; the other modes "
       "ignore it. An empty list is an absent one"},
      {"coordinate_transformation_mode", AttrType::kString, false,
       AttrValue(std::string("half_pixel")),
       "the coordinate x_original in x of y's x_resized, with scale s and L = s * x's extent "
       "(y's extent when sizes sets it): \"half_pixel\" (x_resized + 0.5) / s - 0.5; "
       "\"half_pixel_symmetric\" the same plus (x's extent / 2) * (1 - y's extent / L), which "
       "centres the sampled region; \"pytorch_half_pixel\" half_pixel's where L > 1, else 0; "
       "\"align_corners\" x_resized * (x's extent - 1) / (L - 1), 0 where L is 1; "
       "\"asymmetric\" x_resized / s; \"tf_crop_and_resize\" start * (n - 1) + x_resized * "
       "(end - start) * (n - 1) / (L - 1), with n x's extent and roi's start and end, or their "
       "midpoint where L <= 1"},
      {"nearest_mode", AttrType::kString, false, AttrValue(std::string("round_prefer_floor")),
       "how mode \"nearest\" rounds x_original: \"round_prefer_floor\" (halves down), "
       "\"round_prefer_ceil\" (halves up), \"floor\", \"ceil\", or \"simple\": floor on an axis "
       "that s grows, ceil on one it shrinks (ONNX's Resize 10 and Upsample). The coordinate "
       "is then clamped into x"},
      {"cubic_coeff_a", AttrType::kFloat, false, AttrValue(-0.75),
       "a of Keys' cubic kernel (mode \"cubic\"): -0.75 as PyTorch, -0.5 as TensorFlow"},
      {"exclude_outside", AttrType::kInt, false, AttrValue(int64_t{0}),
       "1: modes \"linear\" and \"cubic\" give the locations outside x weight 0 and rescale "
       "the others to sum to 1; 0: such a location takes x's edge element"},
      {"extrapolation_value", AttrType::kFloat, false, AttrValue(0.0),
       "y's element wherever \"tf_crop_and_resize\" maps outside [0, n - 1] on some axis, "
       "converted to x's dtype as Cast converts"},
      {"antialias", AttrType::kInt, false, AttrValue(int64_t{0}),
       "1: modes \"linear\" and \"cubic\" stretch their filter by 1 / s on an axis s shrinks, "
       "so that every element of x weighs in"},
      {"keep_aspect_ratio_policy", AttrType::kString, false, AttrValue(std::string("stretch")),
       "how sizes is read: \"stretch\" as given; \"not_larger\" and \"not_smaller\" at the "
       "least or greatest of the scales size / x's extent for every resized axis, y's extent "
       "round(scale * x's) (halves up), so that no extent exceeds or falls short of its size"},
  };
}

}  // namespace

void add_resize_ops(OpRegistry& registry) {
  OpSchema resize{"Resize", 1, 1, 1, infer_resize, ""};
  resize.summary =
      "Resamples x to other extents on some of its axes: by nearest element, or "
      "N-linear or N-cubic interpolation.";
  resize.inputs = {{"x", "T", all_dtypes(),
                    "any tensor of rank >= 1; bool with mode "
                    "\"nearest\" only",
                    false}};
  resize.outputs = {{"y", "T", all_dtypes(),
                     "x resampled; where interpolated, computed in double and converted to T "
                     "as Cast converts (integers toward zero)",
                     false}};
  resize.attrs = resize_attrs();
  resize.shape_rule =
      "y's extent on a resized axis is floor(x's * scale) with scales, or what sizes and "
      "keep_aspect_ratio_policy give; the other axes are x's. (ONNX's text multiplies by the "
      "roi's extent too; its reference and every runtime do not.)";
  resize.reference_cases = resize_cases;
  resize.onnx.versions = {10, 11, 13, 18, 19};
  // Input 1 is scales in version 10 and roi from 11 on.
  resize.onnx.attribute_inputs = {
      {1, "roi", 11}, {1, "scales", 10}, {2, "scales", 11}, {3, "sizes", 11}};
  resize.onnx.implied_attrs = {{11, "coordinate_transformation_mode", std::string("asymmetric")},
                               {11, "nearest_mode", std::string("simple")}};
  registry.add(std::move(resize));

  OpSchema upsample{"Upsample", 1, 1, 1, infer_upsample, ""};
  upsample.summary =
      "ONNX's deprecated Upsample: Resize with \"asymmetric\" coordinates and "
      "nearest_mode \"simple\", a scale of at least 1 for every axis.";
  upsample.inputs = {
      {"x", "T", all_dtypes(), "any tensor; bool with mode \"nearest\" only", false}};
  upsample.outputs = {{"y", "T", all_dtypes(), "x upsampled, as Resize's y", false}};
  upsample.attrs = {
      {"mode", AttrType::kString, false, AttrValue(std::string("nearest")),
       "\"nearest\" (x_original rounded down: each element repeated) or \"linear\""},
      {"scales", AttrType::kFloats, true, std::nullopt,
       "the scale of each axis, >= 1: y's extent is floor(x's * scale)"},
  };
  upsample.shape_rule = "y's extents are floor(x's * scale), axis by axis.";
  upsample.reference_cases = upsample_cases;
  upsample.onnx.versions = {7, 9, 10};
  upsample.onnx.attribute_inputs = {{1, "scales", 9}};
  registry.add(std::move(upsample));
}

}  // namespace hxrt::detail

// Resize's geometry: for one call, where each position of y reads from on each axis of x, and
// with which weights, as the op's specification gives them (hxrt-info --ops Resize). The
// kernel (resize.cpp) samples axis by axis with these tables.
#pragma once

#include <cstdint>
#include <vector>

namespace hxcpu {

enum class ResizeMode { kNearest, kLinear, kCubic };
enum class ResizeCoordinates {
  kHalfPixel,
  kHalfPixelSymmetric,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfCropAndResize,
};
// nearest_mode; kSimple: floor where the axis grows, ceil where it shrinks (Upsample's).
enum class ResizeRounding { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil, kSimple };
enum class ResizePolicy { kStretch, kNotLarger, kNotSmaller };

// The attributes as create reads them; axes, scales, sizes and roi as given (an empty list is
// an absent one).
struct ResizeSettings {
  ResizeMode mode = ResizeMode::kNearest;
  ResizeCoordinates coordinates = ResizeCoordinates::kHalfPixel;
  ResizeRounding rounding = ResizeRounding::kRoundPreferFloor;
  ResizePolicy policy = ResizePolicy::kStretch;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
  bool axes_given = false;
  std::vector<int64_t> axes;
  std::vector<double> scales;
  std::vector<int64_t> sizes;
  std::vector<double> roi;
};

// One axis: y's position j reads x's positions index[j * width + k] (clamped into x) with
// weight[j * width + k], k < width. outside[j] (when not empty): tf_crop_and_resize maps j
// outside x, where y takes extrapolation_value and the weights are 0.
struct ResizeAxis {
  int64_t in = 0;
  int64_t out = 0;
  int64_t width = 1;
  std::vector<int64_t> index;
  std::vector<double> weight;
  std::vector<unsigned char> outside;
  bool identity = false;  // y's positions are x's, each with weight 1: nothing to compute
};

// The axes of a call from x's shape to y's. False when y's shape is not the one the settings
// give x, or the settings are not ones the core accepts (its shape inference checks them).
// With `taps` false only the extents are set, for an empty y.
bool resize_plan(const ResizeSettings& settings, const int64_t* x_shape, const int64_t* y_shape,
                 int rank, bool taps, std::vector<ResizeAxis>* axes);

}  // namespace hxcpu

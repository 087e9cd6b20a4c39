#include "kernels/resize_plan.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace hxcpu {
namespace {

// An axis's scale num / den (sizes' exact ratio, or the given scale over 1), and the region
// tf_crop_and_resize samples.
struct ResizeScale {
  double num = 1;
  double den = 1;
  double start = 0;
  double end = 1;
};

bool resize_axes(const ResizeSettings& s, int rank, std::vector<int>* axes) {
  std::vector<bool> named(static_cast<size_t>(rank), false);
  if (!s.axes_given) {
    for (int d = 0; d < rank; ++d) axes->push_back(d);
    return true;
  }
  for (int64_t axis : s.axes) {
    const int64_t d = axis < 0 ? axis + rank : axis;
    if (d < 0 || d >= rank || named[static_cast<size_t>(d)]) return false;
    named[static_cast<size_t>(d)] = true;
    axes->push_back(static_cast<int>(d));
  }
  return true;
}

// y's extents, and each axis's scale; false for settings the core refuses.
bool resize_extents(const ResizeSettings& s, const int64_t* x, int rank,
                    std::vector<int64_t>* extents, std::vector<ResizeScale>* scales) {
  std::vector<int> axes;
  if (rank == 0 || !resize_axes(s, rank, &axes)) return false;
  const size_t count = axes.size();
  if (s.scales.empty() == s.sizes.empty() || (!s.scales.empty() && s.scales.size() != count) ||
      (!s.sizes.empty() && s.sizes.size() != count) ||
      (!s.roi.empty() && s.roi.size() != 2 * count)) {
    return false;
  }
  extents->assign(x, x + rank);
  scales->assign(static_cast<size_t>(rank), ResizeScale{});
  std::optional<size_t> bound;  // the listed axis whose sizes / x a policy keeps
  for (size_t i = 0; i < count; ++i) {
    const int64_t in = x[axes[i]];
    ResizeScale& scale = (*scales)[static_cast<size_t>(axes[i])];
    if (!s.roi.empty()) {
      scale.start = s.roi[i];
      scale.end = s.roi[i + count];
    }
    if (!s.scales.empty()) {
      const double product = std::floor(static_cast<double>(in) * s.scales[i]);
      if (!(s.scales[i] > 0) || !std::isfinite(s.scales[i]) || !(product < 9.2e18)) {
        return false;
      }
      scale.num = s.scales[i];
      (*extents)[static_cast<size_t>(axes[i])] = static_cast<int64_t>(product);
      continue;
    }
    if (s.sizes[i] < 0 || (in == 0 && s.sizes[i] != 0)) return false;
    if (in == 0) {
      (*extents)[static_cast<size_t>(axes[i])] = 0;
      continue;
    }
    scale.num = static_cast<double>(s.sizes[i]);
    scale.den = static_cast<double>(in);
    (*extents)[static_cast<size_t>(axes[i])] = s.sizes[i];
    const auto ratio = [&](size_t at) {
      return static_cast<double>(s.sizes[at]) / static_cast<double>(x[axes[at]]);
    };
    if (!bound || (s.policy == ResizePolicy::kNotLarger && ratio(i) < ratio(*bound)) ||
        (s.policy == ResizePolicy::kNotSmaller && ratio(i) > ratio(*bound))) {
      bound = i;
    }
  }
  if (s.sizes.empty() || s.policy == ResizePolicy::kStretch || !bound) return true;
  for (size_t i = 0; i < count; ++i) {
    const auto d = static_cast<size_t>(axes[i]);
    if (x[d] == 0) continue;
    ResizeScale& scale = (*scales)[d];
    scale.num = static_cast<double>(s.sizes[*bound]);
    scale.den = static_cast<double>(x[axes[*bound]]);
    const double kept = std::floor(scale.num * static_cast<double>(x[d]) / scale.den + 0.5);
    if (!(kept < 9.2e18)) return false;
    (*extents)[d] = static_cast<int64_t>(kept);
  }
  return true;
}

// x_original of y's position `at`; `length` is x's extent times the scale.
double resize_original(ResizeCoordinates mode, const ResizeScale& scale, int64_t in, int64_t out,
                       int64_t at) {
  const double x = static_cast<double>(at);
  const double extent = static_cast<double>(in);
  const double length = scale.num * extent / scale.den;
  switch (mode) {
    case ResizeCoordinates::kAsymmetric:
      return x * scale.den / scale.num;
    case ResizeCoordinates::kAlignCorners:
      return length == 1 ? 0 : x * (extent - 1) / (length - 1);
    case ResizeCoordinates::kPytorchHalfPixel:
      return length > 1 ? (x + 0.5) * scale.den / scale.num - 0.5 : 0;
    case ResizeCoordinates::kHalfPixelSymmetric:
      // ONNX's offset + (x + 0.5) / s - 0.5, with offset = extent / 2 * (1 - out / length),
      // rearranged so that y's centre maps exactly onto x's: a whole x_original stays whole.
      return (x + 0.5 - static_cast<double>(out) / 2) * scale.den / scale.num + (extent - 1) / 2;
    case ResizeCoordinates::kTfCropAndResize: {
      const double span = scale.end - scale.start;
      const double from =
          length > 1 ? x * span * (extent - 1) / (length - 1) : span * (extent - 1) / 2;
      return from + scale.start * (extent - 1);
    }
    case ResizeCoordinates::kHalfPixel:
      break;
  }
  return (x + 0.5) * scale.den / scale.num - 0.5;
}

double resize_keys(double t, double a) {
  t = std::fabs(t);
  const double t2 = t * t;
  const double t3 = t * t2;
  if (t <= 1) return (a + 2) * t3 - (a + 3) * t2 + 1;
  if (t < 2) return a * t3 - 5 * a * t2 + 8 * a * t - 4 * a;
  return 0;
}

void resize_normalize(double* weights, int64_t count) {
  double sum = 0;
  for (int64_t k = 0; k < count; ++k) sum += weights[k];
  for (int64_t k = 0; k < count; ++k) weights[k] /= sum;
}

// The first tap relative to the one left of x_original, and the taps per position.
void resize_window(const ResizeSettings& s, double filter, int64_t* first, int64_t* width) {
  if (s.mode == ResizeMode::kNearest) {
    *first = 0;
    *width = 1;
  } else if (!s.antialias) {
    *first = s.mode == ResizeMode::kLinear ? 0 : -1;
    *width = s.mode == ResizeMode::kLinear ? 2 : 4;
  } else {
    // The filter's support, 1 (linear) or 2 (cubic), stretched by 1 / filter.
    const double support = s.mode == ResizeMode::kLinear ? 1 : 2;
    *first = static_cast<int64_t>(std::floor(-support / filter)) + 1;
    *width = 2 - 2 * *first;
  }
}

// Whether nearest takes the tap right of x_original rather than the one left of it; `ratio`
// is x_original's distance past the left one. A whole x_original is the right one.
bool resize_rounds_up(ResizeRounding rounding, double filter, double ratio, bool whole) {
  if (whole) return true;
  switch (rounding) {
    case ResizeRounding::kRoundPreferFloor:
      return ratio > 0.5;
    case ResizeRounding::kRoundPreferCeil:
      return ratio >= 0.5;
    case ResizeRounding::kFloor:
      return false;
    case ResizeRounding::kCeil:
      return true;
    case ResizeRounding::kSimple:
      return filter < 1;
  }
  return false;
}

// The weights of linear and cubic (before exclude_outside) at `ratio`.
void resize_weights(const ResizeSettings& s, double filter, double ratio, int64_t first,
                    int64_t width, double* weights) {
  const double a = s.cubic_a;
  if (!s.antialias && s.mode == ResizeMode::kLinear) {
    weights[0] = 1 - ratio;
    weights[1] = ratio;
  } else if (!s.antialias) {
    const double r = ratio;
    const double q = 1 - ratio;
    weights[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
    weights[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
    weights[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
    weights[3] = ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a;
  } else {
    for (int64_t k = 0; k < width; ++k) {
      const double offset = static_cast<double>(first + k) - ratio;
      weights[k] = s.mode == ResizeMode::kLinear
                       ? std::clamp(1 - std::fabs(offset * filter), 0.0, 1.0)
                       : resize_keys(filter * offset, a);
    }
    resize_normalize(weights, width);
  }
}

void resize_axis_taps(const ResizeSettings& s, const ResizeScale& scale, ResizeAxis* axis) {
  const double filter = std::min(scale.num / scale.den, 1.0);
  int64_t first = 0;
  resize_window(s, filter, &first, &axis->width);
  const auto positions = static_cast<size_t>(axis->out * axis->width);
  axis->index.assign(positions, 0);
  axis->weight.assign(positions, 0.0);
  bool identity = axis->in == axis->out;
  for (int64_t j = 0; j < axis->out; ++j) {
    const double from = resize_original(s.coordinates, scale, axis->in, axis->out, j);
    int64_t* index = axis->index.data() + j * axis->width;
    double* weight = axis->weight.data() + j * axis->width;
    if (s.coordinates == ResizeCoordinates::kTfCropAndResize &&
        (from < 0 || from > static_cast<double>(axis->in - 1))) {
      axis->outside.resize(static_cast<size_t>(axis->out), 0);
      axis->outside[static_cast<size_t>(j)] = 1;
      identity = false;
      continue;
    }
    const bool whole = from == std::floor(from);
    const int64_t base = static_cast<int64_t>(std::floor(from)) - (whole ? 1 : 0);
    const double ratio = whole ? 1 : from - std::floor(from);
    if (s.mode == ResizeMode::kNearest) {
      const int64_t up = resize_rounds_up(s.rounding, filter, ratio, whole) ? 1 : 0;
      index[0] = std::clamp<int64_t>(base + up, 0, axis->in - 1);
      weight[0] = 1;
      identity = identity && index[0] == j;
      continue;
    }
    resize_weights(s, filter, ratio, first, axis->width, weight);
    bool any_inside = false;
    for (int64_t k = 0; k < axis->width; ++k) {
      const int64_t at = base + first + k;
      any_inside = any_inside || (at >= 0 && at < axis->in);
    }
    // Where no tap is inside (a coordinate far past x), the edge element stands for them all.
    if (s.exclude_outside && any_inside) {
      for (int64_t k = 0; k < axis->width; ++k) {
        const int64_t at = base + first + k;
        if (at < 0 || at >= axis->in) weight[k] = 0;
      }
      resize_normalize(weight, axis->width);
    }
    for (int64_t k = 0; k < axis->width; ++k) {
      index[k] = std::clamp<int64_t>(base + first + k, 0, axis->in - 1);
      // Exactly x's element j, whatever the other taps hold.
      const bool own = index[k] == j && base + first + k == j;
      identity = identity && (own ? weight[k] == 1 : weight[k] == 0);
    }
  }
  axis->identity = identity;
}

}  // namespace

bool resize_plan(const ResizeSettings& settings, const int64_t* x_shape, const int64_t* y_shape,
                 int rank, bool taps, std::vector<ResizeAxis>* axes) {
  std::vector<int64_t> extents;
  std::vector<ResizeScale> scales;
  if (!resize_extents(settings, x_shape, rank, &extents, &scales)) return false;
  if (!std::equal(extents.begin(), extents.end(), y_shape)) return false;
  axes->assign(static_cast<size_t>(rank), ResizeAxis{});
  for (int d = 0; d < rank; ++d) {
    ResizeAxis& axis = (*axes)[static_cast<size_t>(d)];
    axis.in = x_shape[d];
    axis.out = y_shape[d];
    if (taps) resize_axis_taps(settings, scales[static_cast<size_t>(d)], &axis);
  }
  return true;
}

}  // namespace hxcpu

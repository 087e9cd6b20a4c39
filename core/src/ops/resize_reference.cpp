// Reference cases of Resize and Upsample (resize_op.cpp), computed as ONNX's reference does:
// each element of y on its own, as nested one-axis interpolations, the first axis outermost,
// each a sum over its taps in order. The cases cover every mode, coordinate mode and
// nearest_mode, both policies, listed axes, antialias, exclude_outside, the extrapolation of
// tf_crop_and_resize, empty axes and rank 1 to 5; integer dtypes take the interpolating cases
// whose weights are exact in double (quarters), so that truncating their results is exact too.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

using Ints = std::vector<int64_t>;
using Floats = std::vector<double>;
using Tap = std::pair<int64_t, double>;  // x's index on the axis, and its weight

struct ResizeSettings {
  std::string mode = "nearest";
  std::string coordinates = "half_pixel";
  std::string nearest = "round_prefer_floor";
  double a = -0.75;
  bool exclude = false;
  bool antialias = false;
  double extrapolation = 0;
};

// One axis: its extents, its scale num / den (sizes' exact ratio, or the given scale over 1),
// and the region of tf_crop_and_resize.
struct ResizeAxis {
  int64_t in = 0;
  int64_t out = 0;
  double num = 1;
  double den = 1;
  double start = 0;
  double end = 1;
};

template <class T>
T resize_attr(const Attrs& attrs, const char* name, T fallback) {
  const AttrValue* value = attrs.find(name);
  return value ? std::get<T>(*value) : fallback;
}

ResizeSettings resize_settings(const Attrs& attrs) {
  ResizeSettings s;
  s.mode = resize_attr<std::string>(attrs, "mode", s.mode);
  s.coordinates = resize_attr<std::string>(attrs, "coordinate_transformation_mode", s.coordinates);
  s.nearest = resize_attr<std::string>(attrs, "nearest_mode", s.nearest);
  s.a = resize_attr<double>(attrs, "cubic_coeff_a", s.a);
  s.exclude = resize_attr<int64_t>(attrs, "exclude_outside", 0) == 1;
  s.antialias = resize_attr<int64_t>(attrs, "antialias", 0) == 1;
  s.extrapolation = resize_attr<double>(attrs, "extrapolation_value", 0);
  return s;
}

std::vector<ResizeAxis> resize_geometry(const Shape& x, const Attrs& attrs) {
  std::vector<ResizeAxis> axes(static_cast<size_t>(x.rank()));
  for (int d = 0; d < x.rank(); ++d) {
    axes[size_t(d)].in = axes[size_t(d)].out = x[d];
  }
  Ints listed;
  for (int d = 0; d < x.rank(); ++d) listed.push_back(d);
  listed = resize_attr<Ints>(attrs, "axes", listed);
  for (int64_t& d : listed) d = d < 0 ? d + x.rank() : d;
  const Floats scales = resize_attr<Floats>(attrs, "scales", {});
  const Ints sizes = resize_attr<Ints>(attrs, "sizes", {});
  const Floats roi = resize_attr<Floats>(attrs, "roi", {});
  const std::string policy = resize_attr<std::string>(attrs, "keep_aspect_ratio_policy", "stretch");
  // The listed axis whose sizes / in every axis takes under a policy; empty axes stay so.
  size_t bound = sizes.size();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (x[int(listed[i])] == 0) continue;
    const double ratio = double(sizes[i]) / double(x[int(listed[i])]);
    if (bound == sizes.size()) {
      bound = i;
      continue;
    }
    const double bound_ratio = double(sizes[bound]) / double(x[int(listed[bound])]);
    if ((policy == "not_larger" && ratio < bound_ratio) ||
        (policy == "not_smaller" && ratio > bound_ratio)) {
      bound = i;
    }
  }
  for (size_t i = 0; i < listed.size(); ++i) {
    ResizeAxis& axis = axes[static_cast<size_t>(listed[i])];
    if (!roi.empty()) {
      axis.start = roi[i];
      axis.end = roi[i + listed.size()];
    }
    if (!scales.empty()) {
      axis.num = scales[i];
      axis.out = static_cast<int64_t>(std::floor(double(axis.in) * scales[i]));
    } else if (policy == "stretch" || axis.in == 0) {
      axis.num = double(sizes[i]);
      axis.den = double(axis.in);
      axis.out = sizes[i];
    } else {
      axis.num = double(sizes[bound]);
      axis.den = double(x[int(listed[bound])]);
      axis.out = static_cast<int64_t>(std::floor(axis.num * double(axis.in) / axis.den + 0.5));
    }
  }
  return axes;
}

// x_original of y's coordinate `at` (the attribute's formulas); L is x's extent times the scale.
double resize_original(const ResizeAxis& axis, const std::string& mode, int64_t at) {
  const double x = double(at);
  const double in = double(axis.in);
  const double length = axis.num * in / axis.den;
  if (mode == "asymmetric") return x * axis.den / axis.num;
  if (mode == "align_corners") return length == 1 ? 0 : x * (in - 1) / (length - 1);
  if (mode == "pytorch_half_pixel") {
    return length > 1 ? (x + 0.5) * axis.den / axis.num - 0.5 : 0;
  }
  if (mode == "half_pixel_symmetric") {
    // offset + (x + 0.5) / s - 0.5 with offset = in / 2 * (1 - out / L), as exactly as it goes.
    return (x + 0.5 - double(axis.out) / 2) * axis.den / axis.num + (in - 1) / 2;
  }
  if (mode == "tf_crop_and_resize") {
    const double span = axis.end - axis.start;
    const double from = length > 1 ? x * span * (in - 1) / (length - 1) : span * (in - 1) / 2;
    return from + axis.start * (in - 1);
  }
  return (x + 0.5) * axis.den / axis.num - 0.5;  // half_pixel
}

int64_t resize_clamped(int64_t index, int64_t extent) {
  return std::min(std::max(index, int64_t{0}), extent - 1);
}

// Keys' cubic kernel at distance t.
double resize_keys(double t, double a) {
  t = std::fabs(t);
  const double t2 = t * t;
  const double t3 = t * t2;
  if (t <= 1) return (a + 2) * t3 - (a + 3) * t2 + 1;
  if (t < 2) return a * t3 - 5 * a * t2 + 8 * a * t - 4 * a;
  return 0;
}

void resize_normalize(Floats& weights) {
  double sum = 0;
  for (double w : weights) sum += w;
  for (double& w : weights) w /= sum;
}

// The taps of y's coordinate `at` on one axis, whose x_original is `from`.
std::vector<Tap> resize_taps(const ResizeAxis& axis, const ResizeSettings& s, double from) {
  const double scale = axis.num / axis.den;
  const bool whole = from == std::floor(from);
  // The tap left of `from`, and `from`'s distance past it, in (0, 1].
  const int64_t base = static_cast<int64_t>(std::floor(from)) - (whole ? 1 : 0);
  const double ratio = whole ? 1 : from - std::floor(from);
  if (s.mode == "nearest") {
    bool up = true;  // base + 1 rather than base
    if (!whole) {
      if (s.nearest == "round_prefer_floor") up = ratio > 0.5;
      if (s.nearest == "round_prefer_ceil") up = ratio >= 0.5;
      if (s.nearest == "floor") up = false;
      if (s.nearest == "simple") up = scale < 1;
    }
    return {{resize_clamped(base + (up ? 1 : 0), axis.in), 1.0}};
  }
  Floats weights;
  int64_t first = 0;  // of the taps, relative to base
  const double filter = std::min(scale, 1.0);
  if (s.mode == "linear" && !s.antialias) {
    weights = {1 - ratio, ratio};
  } else if (s.mode == "linear") {
    first = static_cast<int64_t>(std::floor(-1 / filter)) + 1;
    for (int64_t i = first; i < 1 - first + 1; ++i) {
      weights.push_back(std::clamp(1 - std::fabs((double(i) - ratio) * filter), 0.0, 1.0));
    }
    resize_normalize(weights);
  } else if (!s.antialias) {
    const double a = s.a;
    const double r = ratio;
    const double q = 1 - ratio;
    first = -1;
    weights = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
               ((a + 2) * r - (a + 3)) * r * r + 1, ((a + 2) * q - (a + 3)) * q * q + 1,
               ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a};
  } else {
    first = static_cast<int64_t>(std::floor(-2 / filter)) + 1;
    for (int64_t i = first; i < 2 - first; ++i) {
      weights.push_back(resize_keys(filter * (double(i) - ratio), s.a));
    }
    resize_normalize(weights);
  }
  const auto inside = [&](size_t k) {
    const int64_t index = base + first + int64_t(k);
    return index >= 0 && index < axis.in;
  };
  bool any_inside = false;
  for (size_t k = 0; k < weights.size(); ++k) any_inside = any_inside || inside(k);
  // Where no tap is inside (a coordinate far past x), the edge element stands for them all.
  if (s.exclude && any_inside) {
    for (size_t k = 0; k < weights.size(); ++k) {
      if (!inside(k)) weights[k] = 0;
    }
    resize_normalize(weights);
  }
  std::vector<Tap> taps;
  for (size_t k = 0; k < weights.size(); ++k) {
    taps.push_back({resize_clamped(base + first + int64_t(k), axis.in), weights[k]});
  }
  return taps;
}

// y's element at `at`, interpolated over axes `d` on from x's element `prefix` (row-major
// over the axes before d).
double resize_sample(const ReferenceTensor& x, const std::vector<ResizeAxis>& axes,
                     const ResizeSettings& s, const Coordinates& at, size_t d, int64_t prefix) {
  if (d == axes.size()) return x.values[static_cast<size_t>(prefix)];
  const std::vector<Tap> taps =
      resize_taps(axes[d], s, resize_original(axes[d], s.coordinates, at[d]));
  if (taps.size() == 1) {
    return resize_sample(x, axes, s, at, d + 1, prefix * axes[d].in + taps[0].first);
  }
  double sum = 0;
  for (const Tap& tap : taps) {
    sum += tap.second * resize_sample(x, axes, s, at, d + 1, prefix * axes[d].in + tap.first);
  }
  return sum;
}

ReferenceTensor resize_reference(const ReferenceTensor& x, const Attrs& attrs) {
  const ResizeSettings s = resize_settings(attrs);
  const std::vector<ResizeAxis> axes = resize_geometry(x.shape, attrs);
  Shape y;
  for (const ResizeAxis& axis : axes) y.push_back(axis.out);
  return picked(x.dtype, y, [&](const Coordinates& at) {
    for (size_t d = 0; d < axes.size(); ++d) {
      const double from = resize_original(axes[d], s.coordinates, at[d]);
      if (s.coordinates == "tf_crop_and_resize" && (from < 0 || from > double(axes[d].in - 1))) {
        return saturate_to(s.extrapolation, x.dtype);
      }
    }
    return saturate_to(resize_sample(x, axes, s, at, 0, 0), x.dtype);
  });
}

// One call: x's shape, its attributes, and whether integer dtypes take it.
struct ResizeCall {
  Shape x;
  Attrs attrs;
  bool exact = true;  // interpolated with quarters only (or nearest): integers take it
};

// The products one element of y sums: its taps on every axis.
int64_t resize_terms(const Shape& x, const Attrs& attrs) {
  const ResizeSettings s = resize_settings(attrs);
  int64_t terms = 1;
  for (const ResizeAxis& axis : resize_geometry(x, attrs)) {
    if (axis.out == 0) return 0;
    terms *= static_cast<int64_t>(resize_taps(axis, s, 0.5).size());
  }
  return terms;
}

std::vector<ReferenceCase> resize_cases_of(const std::vector<ResizeCall>& calls, DType type,
                                           RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const ResizeCall& call : calls) {
    const bool nearest = resize_settings(call.attrs).mode == "nearest";
    if (type == DType::kBool && !nearest) continue;
    if (is_integer(type) && !call.exact) continue;
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.x)};
    c.attrs = call.attrs;
    c.expected = resize_reference(c.inputs[0], c.attrs);
    c.tolerance = nearest ? 0 : reduction_tolerance(type, resize_terms(call.x, call.attrs));
    cases.push_back(std::move(c));
  }
  return cases;
}

Attrs resize_with(Attrs attrs, const std::string& mode, const std::string& coordinates) {
  attrs.set("mode", mode);
  if (!coordinates.empty()) attrs.set("coordinate_transformation_mode", coordinates);
  return attrs;
}

}  // namespace

std::vector<ReferenceCase> resize_cases(DType type, DType, RandomValues& random) {
  const auto scales = [](Floats values) { return Attrs{{"scales", std::move(values)}}; };
  const auto sizes = [](Ints values) { return Attrs{{"sizes", std::move(values)}}; };
  const auto with = [](Attrs attrs, const char* name, AttrValue value) {
    attrs.set(name, std::move(value));
    return attrs;
  };
  std::vector<ResizeCall> calls = {
      // nearest, every coordinate mode and rounding
      {{2, 3}, scales({2, 1.5})},
      {{1, 2, 5},
       with(scales({1, 0.6, 0.5}), "coordinate_transformation_mode", std::string("asymmetric"))},
      {{3, 4},
       with(with(sizes({5, 7}), "nearest_mode", std::string("round_prefer_ceil")),
            "coordinate_transformation_mode", std::string("asymmetric"))},
      {{2, 3},
       with(with(sizes({4, 5}), "nearest_mode", std::string("floor")),
            "coordinate_transformation_mode", std::string("align_corners"))},
      {{3, 5},
       with(with(scales({1.5, 0.7}), "nearest_mode", std::string("ceil")),
            "coordinate_transformation_mode", std::string("half_pixel_symmetric"))},
      {{3, 4},
       with(sizes({1, 6}), "coordinate_transformation_mode", std::string("pytorch_half_pixel"))},
      {{4, 3},
       with(with(scales({0.5, 2}), "nearest_mode", std::string("simple")),
            "coordinate_transformation_mode", std::string("asymmetric"))},
      {{4, 5},
       with(with(with(sizes({3, 4}), "roi", Floats{0.2, -0.1, 0.9, 1.2}),
                 "coordinate_transformation_mode", std::string("tf_crop_and_resize")),
            "extrapolation_value", 7.0)},
      // listed axes, the policies, ranks 1 and 5, empty tensors
      {{2, 2, 3}, with(scales({2.5}), "axes", Ints{-1})},
      {{2, 3, 4},
       with(with(sizes({5, 5}), "axes", Ints{1, 2}), "keep_aspect_ratio_policy",
            std::string("not_larger"))},
      {{2, 3, 4},
       with(with(sizes({5, 5}), "axes", Ints{2, 1}), "keep_aspect_ratio_policy",
            std::string("not_smaller"))},
      {{1}, scales({3})},
      {{1, 2, 2, 2, 2}, scales({1, 1, 2, 1.5, 0.5})},
      {{0, 3}, scales({2, 2})},
      {{2, 3}, sizes({0, 4})},
      // interpolation whose weights are quarters
      {{3, 4}, resize_with(scales({2, 2}), "linear", "")},
      {{4, 3}, resize_with(scales({0.5, 2}), "linear", "asymmetric")},
      {{3, 3}, resize_with(scales({2, 2}), "cubic", "")},
      {{2, 4}, with(resize_with(scales({1, 2}), "cubic", "asymmetric"), "cubic_coeff_a", -0.5)},
      {{3, 3},
       with(with(resize_with(sizes({4, 4}), "linear", "tf_crop_and_resize"), "roi",
                 Floats{0, 0, 1.5, 1.5}),
            "extrapolation_value", 7.0)},
      {{0, 2}, resize_with(scales({2, 2}), "cubic", "")},
  };
  const std::vector<ResizeCall> inexact = {
      {{3, 5}, resize_with(scales({0.6, 1.7}), "linear", "align_corners")},
      {{2, 4}, resize_with(scales({1.3, 0.7}), "linear", "half_pixel_symmetric")},
      {{4, 5}, resize_with(sizes({1, 3}), "linear", "pytorch_half_pixel")},
      {{4, 4},
       with(with(resize_with(sizes({3, 3}), "linear", "tf_crop_and_resize"), "roi",
                 Floats{0.6, 0.4, 0.8, 0.6}),
            "extrapolation_value", 10.0)},
      {{1, 4, 4},
       with(with(resize_with(sizes({3, 5}), "linear", "tf_crop_and_resize"), "roi",
                 Floats{0.8, 0.1, 0.2, 0.9}),
            "axes", Ints{2, 1})},
      {{4, 6}, with(resize_with(scales({0.5, 0.4}), "linear", ""), "antialias", int64_t{1})},
      {{5, 6},
       with(with(resize_with(sizes({3, 2}), "cubic", ""), "antialias", int64_t{1}),
            "exclude_outside", int64_t{1})},
      {{4, 3}, resize_with(scales({0.8, 2}), "cubic", "align_corners")},
      {{3, 4},
       with(with(resize_with(scales({2, 0.5}), "cubic", ""), "cubic_coeff_a", -0.5),
            "exclude_outside", int64_t{1})},
      {{2, 3, 4}, resize_with(scales({1.5, 0.5, 2}), "linear", "")},
      {{2, 3, 4},
       with(with(resize_with(sizes({6, 6}), "cubic", "pytorch_half_pixel"), "axes", Ints{1, 2}),
            "keep_aspect_ratio_policy", std::string("not_smaller"))},
      {{3, 4},
       with(resize_with(scales({3, 0.75}), "linear", "half_pixel"), "exclude_outside", int64_t{1})},
  };
  for (ResizeCall call : inexact) {
    call.exact = false;
    calls.push_back(std::move(call));
  }
  return resize_cases_of(calls, type, random);
}

std::vector<ReferenceCase> upsample_cases(DType type, DType, RandomValues& random) {
  const auto upsample = [](Floats scales, const char* mode) {
    return Attrs{{"scales", std::move(scales)}, {"mode", std::string(mode)}};
  };
  std::vector<ResizeCall> calls = {
      {{1, 2, 2}, Attrs{{"scales", Floats{1, 2, 3}}}},
      {{2, 3}, upsample({1.5, 2.5}, "nearest")},
      {{2, 3}, upsample({2, 4}, "linear")},
      {{3, 2}, upsample({1.5, 1}, "linear")},
      {{0, 2}, upsample({2, 2}, "nearest")},
  };
  calls[3].exact = false;
  // Upsample is Resize with these settings.
  for (ResizeCall& call : calls) {
    call.attrs.set("coordinate_transformation_mode", std::string("asymmetric"));
    call.attrs.set("nearest_mode", std::string("simple"));
  }
  std::vector<ReferenceCase> cases = resize_cases_of(calls, type, random);
  for (ReferenceCase& c : cases) {
    Attrs own;
    for (const auto& [name, value] : c.attrs.items()) {
      if (name == "scales" || name == "mode") own.set(name, value);
    }
    c.attrs = own;
  }
  return cases;
}

}  // namespace hxrt::detail

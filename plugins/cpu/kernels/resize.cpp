// Resize and Upsample: nearest gathers x's elements by their bytes, whatever the dtype; linear
// and cubic interpolate in double one axis at a time, the last axis first (the nesting of
// ONNX's reference, so that the sums are the same), and convert once to the output's dtype.
// The per-axis tables come from resize_plan.hpp.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/resize_plan.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct ResizeInstance {
  ResizeSettings settings;
  unsigned char extrapolation[8] = {};  // extrapolation_value in x's dtype
};

template <class Enum>
struct ResizeName {
  const char* name;
  Enum value;
};

// The attribute `attr` as one of `names`; absent, the first of them (the op's default).
template <class Enum, size_t N>
hx_status* resize_read_name(const hxplugin::KernelCreate& create, const char* op, const char* attr,
                            const ResizeName<Enum> (&names)[N], Enum* value) {
  const char* text = names[0].name;
  if (hx_status* status = create.attr_string(attr, &text)) return status;
  for (const ResizeName<Enum>& entry : names) {
    if (std::strcmp(entry.name, text) == 0) {
      *value = entry.value;
      return nullptr;
    }
  }
  return create.error(HX_INVALID_ARGUMENT, "%s: unknown %s \"%s\"", op, attr, text);
}

constexpr ResizeName<ResizeMode> kResizeModes[] = {{"nearest", ResizeMode::kNearest},
                                                   {"linear", ResizeMode::kLinear},
                                                   {"cubic", ResizeMode::kCubic}};
constexpr ResizeName<ResizeCoordinates> kResizeCoordinates[] = {
    {"half_pixel", ResizeCoordinates::kHalfPixel},
    {"half_pixel_symmetric", ResizeCoordinates::kHalfPixelSymmetric},
    {"pytorch_half_pixel", ResizeCoordinates::kPytorchHalfPixel},
    {"align_corners", ResizeCoordinates::kAlignCorners},
    {"asymmetric", ResizeCoordinates::kAsymmetric},
    {"tf_crop_and_resize", ResizeCoordinates::kTfCropAndResize}};
constexpr ResizeName<ResizeRounding> kResizeRoundings[] = {
    {"round_prefer_floor", ResizeRounding::kRoundPreferFloor},
    {"round_prefer_ceil", ResizeRounding::kRoundPreferCeil},
    {"floor", ResizeRounding::kFloor},
    {"ceil", ResizeRounding::kCeil},
    {"simple", ResizeRounding::kSimple}};
constexpr ResizeName<ResizePolicy> kResizePolicies[] = {{"stretch", ResizePolicy::kStretch},
                                                        {"not_larger", ResizePolicy::kNotLarger},
                                                        {"not_smaller", ResizePolicy::kNotSmaller}};

hx_status* resize_read_ints(const hxplugin::KernelCreate& create, const char* attr,
                            std::vector<int64_t>* values, bool* present) {
  const int64_t* data = nullptr;
  size_t count = 0;
  if (hx_status* status = create.attr_ints(attr, &data, &count, present)) return status;
  if (*present) values->assign(data, data + count);
  return nullptr;
}

hx_status* resize_read_floats(const hxplugin::KernelCreate& create, const char* attr,
                              std::vector<double>* values) {
  const double* data = nullptr;
  size_t count = 0;
  bool present = false;
  if (hx_status* status = create.attr_floats(attr, &data, &count, &present)) return status;
  if (present) values->assign(data, data + count);
  return nullptr;
}

hx_status* resize_read_flag(const hxplugin::KernelCreate& create, const char* op, const char* attr,
                            bool* value) {
  int64_t flag = 0;
  if (hx_status* status = create.attr_int(attr, &flag)) return status;
  if (flag != 0 && flag != 1) {
    return create.error(HX_INVALID_ARGUMENT, "%s: %s is %lld, not 0 or 1", op, attr,
                        static_cast<long long>(flag));
  }
  *value = flag == 1;
  return nullptr;
}

// The instance's dtype-dependent part, and the limits every call shares.
hx_status* resize_finish(const hxplugin::KernelCreate& create, const char* op, double extrapolation,
                         ResizeInstance&& instance, hx_kernel_instance** out_instance) {
  const int32_t dtype = create.input_dtype(0);
  if (dtype == HX_DTYPE_BOOL && instance.settings.mode != ResizeMode::kNearest) {
    return create.error(HX_INVALID_ARGUMENT, "%s: a bool x takes mode \"nearest\" only", op);
  }
  const auto convert = [&](auto tag) -> hx_status* {
    const auto element = convert_element<typename decltype(tag)::type>(extrapolation);
    static_assert(sizeof element <= sizeof instance.extrapolation, "an element fits");
    std::memcpy(instance.extrapolation, &element, sizeof element);
    return nullptr;
  };
  if (hx_status* status = visit_any(dtype, convert, [&] {
        return create.error(HX_INVALID_ARGUMENT, "%s: unknown dtype %d", op,
                            static_cast<int>(dtype));
      })) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new ResizeInstance(std::move(instance)));
  return nullptr;
}

// Elements of x as doubles, dense, whatever x's strides.
template <class T>
std::vector<double> resize_widened(const hx_tensor_view& x, int64_t count) {
  std::vector<double> values(static_cast<size_t>(count));
  const T* source = input_data<T>(x);
  int64_t at[HX_MAX_RANK] = {};
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    for (int d = 0; d < x.rank; ++d) offset += at[d] * x.strides[d];
    values[static_cast<size_t>(i)] = convert_element<double>(source[offset]);
    for (int d = x.rank - 1; d >= 0; --d) {
      if (++at[d] < x.shape[d]) break;
      at[d] = 0;
    }
  }
  return values;
}

// `values` (of extents `dims`) resampled along axis `a`, whose extent becomes axis.out.
std::vector<double> resize_along(const std::vector<double>& values, std::vector<int64_t>& dims,
                                 size_t a, const ResizeAxis& axis) {
  int64_t outer = 1;
  int64_t inner = 1;
  for (size_t d = 0; d < a; ++d) outer *= dims[d];
  for (size_t d = a + 1; d < dims.size(); ++d) inner *= dims[d];
  dims[a] = axis.out;
  std::vector<double> result(static_cast<size_t>(outer * axis.out * inner), 0.0);
  for (int64_t o = 0; o < outer; ++o) {
    const double* source = values.data() + o * axis.in * inner;
    double* target = result.data() + o * axis.out * inner;
    for (int64_t j = 0; j < axis.out; ++j, target += inner) {
      const int64_t* index = axis.index.data() + j * axis.width;
      const double* weight = axis.weight.data() + j * axis.width;
      if (inner == 1) {
        double sum = 0;
        for (int64_t k = 0; k < axis.width; ++k) sum += weight[k] * source[index[k]];
        *target = sum;
        continue;
      }
      for (int64_t k = 0; k < axis.width; ++k) {
        const double* row = source + index[k] * inner;
        const double w = weight[k];
        for (int64_t i = 0; i < inner; ++i) target[i] += w * row[i];
      }
    }
  }
  return result;
}

// Calls write(i, outside) for y's elements in row-major order, outside when some axis maps
// position i outside x (tf_crop_and_resize).
template <class Write>
void resize_each_output(const std::vector<ResizeAxis>& axes, Write write) {
  const size_t rank = axes.size();
  const ResizeAxis& last = axes[rank - 1];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= axes[d].out;
  int64_t at[HX_MAX_RANK] = {};
  int64_t i = 0;
  for (int64_t row = 0; row < rows; ++row) {
    bool row_outside = false;
    for (size_t d = 0; d + 1 < rank; ++d) {
      row_outside =
          row_outside || (!axes[d].outside.empty() && axes[d].outside[static_cast<size_t>(at[d])]);
    }
    for (int64_t j = 0; j < last.out; ++j, ++i) {
      write(i, row_outside || (!last.outside.empty() && last.outside[static_cast<size_t>(j)]));
    }
    for (size_t d = rank - 1; d-- > 0;) {
      if (++at[d] < axes[d].out) break;
      at[d] = 0;
    }
  }
}

// Nearest (and a copy): each element of y is x's at the axes' single taps, moved by its
// bytes.
template <class Element>
void resize_gather(const hx_tensor_view& x, const hx_tensor_view& y,
                   const std::vector<ResizeAxis>& axes, const unsigned char* extrapolation) {
  Element fill;
  std::memcpy(&fill, extrapolation, sizeof fill);
  const Element* source = input_data<Element>(x);
  Element* target = output_data<Element>(y);
  const size_t rank = axes.size();
  int64_t at[HX_MAX_RANK] = {};
  resize_each_output(axes, [&](int64_t i, bool outside) {
    if (outside) {
      target[i] = fill;
    } else {
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        // An identity axis reads position j at j, whatever its taps' width.
        const int64_t from = axes[d].identity ? at[d] : axes[d].index[static_cast<size_t>(at[d])];
        offset += from * x.strides[d];
      }
      target[i] = source[offset];
    }
    for (size_t d = rank; d-- > 0;) {
      if (++at[d] < axes[d].out) break;
      at[d] = 0;
    }
  });
}

template <class T>
void resize_interpolate(const hx_tensor_view& x, const hx_tensor_view& y,
                        const std::vector<ResizeAxis>& axes, const unsigned char* extrapolation) {
  int64_t count = 1;
  std::vector<int64_t> dims;
  for (const ResizeAxis& axis : axes) {
    count *= axis.in;
    dims.push_back(axis.in);
  }
  std::vector<double> values = resize_widened<T>(x, count);
  for (size_t a = axes.size(); a-- > 0;) {
    if (!axes[a].identity) values = resize_along(values, dims, a, axes[a]);
  }
  T fill;
  std::memcpy(&fill, extrapolation, sizeof fill);
  T* target = output_data<T>(y);
  resize_each_output(axes, [&](int64_t i, bool outside) {
    target[i] = outside ? fill : convert_element<T>(values[static_cast<size_t>(i)]);
  });
}

hx_status* resize_run(const hx_kernel_args* args, const char* op) {
  const KernelCall call(args);
  const ResizeInstance& instance = hxplugin::instance_of<ResizeInstance>(call.instance());
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& y = call.output(0);
  std::vector<ResizeAxis> axes;
  const bool empty = element_count(y) == 0;
  if (y.dtype != x.dtype || y.rank != x.rank ||
      !resize_plan(instance.settings, x.shape, y.shape, x.rank, !empty, &axes)) {
    return call.error(HX_INVALID_ARGUMENT, "%s: the output is not x resized as the attributes say",
                      op);
  }
  if (empty) return nullptr;
  // Where every axis keeps its positions (scales of 1), linear and cubic copy x exactly too,
  // rather than through double, which would round an int64 beyond 2^53.
  const bool copy =
      std::all_of(axes.begin(), axes.end(), [](const ResizeAxis& axis) { return axis.identity; });
  if (instance.settings.mode == ResizeMode::kNearest || copy) {
    switch (hx_dtype_size(x.dtype)) {
      case 1:
        resize_gather<uint8_t>(x, y, axes, instance.extrapolation);
        break;
      case 2:
        resize_gather<uint16_t>(x, y, axes, instance.extrapolation);
        break;
      case 4:
        resize_gather<uint32_t>(x, y, axes, instance.extrapolation);
        break;
      default:
        resize_gather<uint64_t>(x, y, axes, instance.extrapolation);
        break;
    }
    return nullptr;
  }
  return visit_numeric(
      x.dtype,
      [&](auto tag) -> hx_status* {
        resize_interpolate<typename decltype(tag)::type>(x, y, axes, instance.extrapolation);
        return nullptr;
      },
      [&] { return call.error(HX_INVALID_ARGUMENT, "%s: x's dtype interpolates no numbers", op); });
}

}  // namespace

hx_status* resize_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const char* op = "Resize";
  ResizeInstance instance;
  ResizeSettings& s = instance.settings;
  double extrapolation = 0;
  if (hx_status* status = resize_read_name(create, op, "mode", kResizeModes, &s.mode)) {
    return status;
  }
  if (hx_status* status = resize_read_name(create, op, "coordinate_transformation_mode",
                                           kResizeCoordinates, &s.coordinates)) {
    return status;
  }
  if (hx_status* status =
          resize_read_name(create, op, "nearest_mode", kResizeRoundings, &s.rounding)) {
    return status;
  }
  if (hx_status* status =
          resize_read_name(create, op, "keep_aspect_ratio_policy", kResizePolicies, &s.policy)) {
    return status;
  }
  bool sizes_given = false;
  hx_status* status = create.attr_float("cubic_coeff_a", &s.cubic_a);
  if (!status) status = create.attr_float("extrapolation_value", &extrapolation);
  if (!status) status = resize_read_flag(create, op, "exclude_outside", &s.exclude_outside);
  if (!status) status = resize_read_flag(create, op, "antialias", &s.antialias);
  if (!status) status = resize_read_ints(create, "axes", &s.axes, &s.axes_given);
  if (!status) status = resize_read_ints(create, "sizes", &s.sizes, &sizes_given);
  if (!status) status = resize_read_floats(create, "scales", &s.scales);
  if (!status) status = resize_read_floats(create, "roi", &s.roi);
  if (status) return status;
  return resize_finish(create, op, extrapolation, std::move(instance), out_instance);
}

// Upsample is Resize with asymmetric coordinates, nearest_mode "simple" and every axis scaled.
hx_status* upsample_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const char* op = "Upsample";
  ResizeInstance instance;
  ResizeSettings& s = instance.settings;
  s.coordinates = ResizeCoordinates::kAsymmetric;
  s.rounding = ResizeRounding::kSimple;
  if (hx_status* status = resize_read_name(create, op, "mode", kResizeModes, &s.mode)) {
    return status;
  }
  if (hx_status* status = resize_read_floats(create, "scales", &s.scales)) return status;
  return resize_finish(create, op, 0, std::move(instance), out_instance);
}

void resize_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ResizeInstance>(instance, user_data);
}

hx_status* resize_kernel(const hx_kernel_args* args) { return resize_run(args, "Resize"); }

hx_status* upsample_kernel(const hx_kernel_args* args) { return resize_run(args, "Upsample"); }

}  // namespace hxcpu

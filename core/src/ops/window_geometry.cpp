#include "ops/window_geometry.hpp"

#include <algorithm>
#include <string>

#include "hxrt/error.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

// "[1, -2]": a list as the messages show it (any values, unlike Shape's).
std::string list_text(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(values[i]);
  }
  return text + "]";
}

std::vector<int64_t> list_attr(const InferContext& call, const char* name, size_t length,
                               int64_t fill, int64_t minimum) {
  std::vector<int64_t> values = attr_ints(call, name, std::vector<int64_t>(length, fill));
  if (values.size() != length) {
    reject_call(call, std::string("attribute '") + name + "' has " +
                          std::to_string(values.size()) + " values; it needs " +
                          std::to_string(length) + " for an input with " +
                          std::to_string(length / (name == std::string("pads") ? 2 : 1)) +
                          " spatial axes");
  }
  for (const int64_t value : values) {
    if (value < minimum) {
      reject_call(call, std::string("attribute '") + name + "' is " + list_text(values) +
                            "; each value must be at least " + std::to_string(minimum));
    }
  }
  return values;
}

// `overflowed`: a __builtin_*_overflow's answer.
void check_overflow(const InferContext& call, bool overflowed, size_t axis) {
  if (overflowed) {
    reject_call(call, "the window's sizes overflow int64 on spatial axis " +
                          std::to_string(axis) + "; use smaller pads, kernels or dilations");
  }
}

int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// The attributes both windows read: kernel, strides and dilations checked, the pads list
// (2 * spatial values, 0 when absent) and auto_pad.
struct WindowAttrs {
  WindowGeometry window;
  std::vector<int64_t> pads;
  std::string auto_pad;
  bool same = false;
};

WindowAttrs read_window(const InferContext& call, const Shape& x,
                        const std::vector<int64_t>& kernel) {
  const size_t spatial = static_cast<size_t>(x.rank() - 2);
  WindowAttrs attrs;
  WindowGeometry& window = attrs.window;
  if (kernel.empty()) {
    window.kernel = attr_ints(call, "kernel_shape", {});
    if (call.attrs.find("kernel_shape") == nullptr) {
      reject_call(call, "missing required attribute 'kernel_shape' (the window's extent on each "
                        "spatial axis)");
    }
  } else {
    window.kernel = attr_ints(call, "kernel_shape", kernel);
    if (window.kernel != kernel) {
      reject_call(call, "attribute 'kernel_shape' is " + list_text(window.kernel) +
                            " but the weights' kernel is " + list_text(kernel) +
                            "; leave kernel_shape out or make them agree");
    }
  }
  if (window.kernel.size() != spatial) {
    reject_call(call, "attribute 'kernel_shape' is " + list_text(window.kernel) + " but input " +
                          x.to_string() + " has " + std::to_string(spatial) +
                          " spatial axes; it needs one extent for each");
  }
  for (const int64_t extent : window.kernel) {
    if (extent < 1) {
      reject_call(call, "attribute 'kernel_shape' is " + list_text(window.kernel) +
                            "; each extent must be at least 1");
    }
  }
  window.strides = list_attr(call, "strides", spatial, 1, 1);
  window.dilations = list_attr(call, "dilations", spatial, 1, 1);
  const std::string auto_pad = attr_string(call, "auto_pad", "NOTSET");
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  attrs.auto_pad = auto_pad;
  attrs.same = same;
  if (!same && auto_pad != "NOTSET" && auto_pad != "VALID") {
    reject_call(call, "attribute 'auto_pad' is \"" + auto_pad +
                          "\"; it is NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  }
  if (auto_pad != "NOTSET" && call.attrs.find("pads") != nullptr) {
    reject_call(call, "attributes 'pads' and 'auto_pad' (\"" + auto_pad +
                          "\") are both given; give explicit pads with auto_pad NOTSET only");
  }
  attrs.pads = list_attr(call, "pads", 2 * spatial, 0, 0);
  return attrs;
}

}  // namespace

WindowGeometry window_geometry(const InferContext& call, const Shape& x,
                               const std::vector<int64_t>& kernel, bool ceil_mode) {
  const size_t spatial = static_cast<size_t>(x.rank() - 2);
  WindowAttrs attrs = read_window(call, x, kernel);
  WindowGeometry& window = attrs.window;
  const std::vector<int64_t>& pads = attrs.pads;
  const std::string& auto_pad = attrs.auto_pad;
  const bool same = attrs.same;
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x[static_cast<int>(axis) + 2];
    const int64_t stride = window.strides[axis];
    int64_t reach = 0;  // the dilated kernel's extent
    check_overflow(call,
                   __builtin_mul_overflow(window.kernel[axis] - 1, window.dilations[axis], &reach),
                   axis);
    check_overflow(call, __builtin_add_overflow(reach, 1, &reach), axis);
    int64_t begin = pads[axis];
    int64_t end = pads[axis + spatial];
    int64_t out = 0;
    if (same) {
      out = ceil_div(in, stride);
      int64_t needed = 0;  // (out - 1) * stride + reach - in, at least 0
      check_overflow(call, __builtin_mul_overflow(out > 0 ? out - 1 : 0, stride, &needed), axis);
      check_overflow(call, __builtin_add_overflow(needed, reach, &needed), axis);
      needed = needed > in ? needed - in : 0;
      const int64_t smaller = needed / 2;
      begin = auto_pad == "SAME_UPPER" ? smaller : needed - smaller;
      end = needed - begin;
    } else {
      int64_t padded = 0;
      check_overflow(call, __builtin_add_overflow(in, begin, &padded), axis);
      check_overflow(call, __builtin_add_overflow(padded, end, &padded), axis);
      if (padded < reach) {
        reject_call(call, "on spatial axis " + std::to_string(axis) + " the window spans " +
                              std::to_string(reach) + " elements (kernel " +
                              std::to_string(window.kernel[axis]) + ", dilation " +
                              std::to_string(window.dilations[axis]) +
                              ") but the padded input has " + std::to_string(padded) +
                              "; pad more or use a smaller kernel");
      }
      out = (ceil_mode ? ceil_div(padded - reach, stride) : (padded - reach) / stride) + 1;
      // A last window that would start in the end padding is dropped (ceil_mode only).
      int64_t last_start = 0;
      check_overflow(call, __builtin_mul_overflow(out - 1, stride, &last_start), axis);
      if (ceil_mode && last_start >= in + begin) --out;
    }
    window.pads_begin.push_back(begin);
    window.pads_end.push_back(end);
    window.output.push_back(out);
  }
  return attrs.window;
}

TransposedWindow conv_transpose_geometry(const InferContext& call, const Shape& x,
                                         const std::vector<int64_t>& kernel) {
  const size_t spatial = static_cast<size_t>(x.rank() - 2);
  const WindowAttrs attrs = read_window(call, x, kernel);
  const std::vector<int64_t> output_padding = list_attr(call, "output_padding", spatial, 0, 0);
  const AttrValue* given = call.attrs.find("output_shape");
  std::vector<int64_t> output_shape = attr_ints(call, "output_shape", {});
  if (given != nullptr && output_shape.size() == spatial + 2) {  // N and C given too
    output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
  }
  if (given != nullptr && output_shape.size() != spatial) {
    reject_call(call, "attribute 'output_shape' is " + list_text(output_shape) + "; it gives " +
                          "the output's " + std::to_string(spatial) + " spatial extents");
  }
  TransposedWindow window;
  window.kernel = attrs.window.kernel;
  window.strides = attrs.window.strides;
  window.dilations = attrs.window.dilations;
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x[static_cast<int>(axis) + 2];
    const int64_t stride = window.strides[axis];
    if (output_padding[axis] >= stride && output_padding[axis] >= window.dilations[axis]) {
      reject_call(call, "attribute 'output_padding' is " + list_text(output_padding) +
                            "; each value must be below its axis's stride or dilation");
    }
    // The extent with no padding: stride * (in - 1) + output_padding + reach.
    int64_t full = 0;
    int64_t reach = 0;
    check_overflow(call,
                   __builtin_mul_overflow(window.kernel[axis] - 1, window.dilations[axis], &reach),
                   axis);
    check_overflow(call, __builtin_mul_overflow(stride, in > 0 ? in - 1 : 0, &full), axis);
    check_overflow(call, __builtin_add_overflow(full, output_padding[axis] + 1, &full), axis);
    check_overflow(call, __builtin_add_overflow(full, reach, &full), axis);
    if (in == 0) full = 0;
    int64_t begin = attrs.pads[axis];
    int64_t out = 0;
    if (given != nullptr || attrs.same) {
      if (given != nullptr) {
        out = output_shape[axis];
      } else {
        check_overflow(call, __builtin_mul_overflow(in, stride, &out), axis);
      }
      if (out < 0) {
        reject_call(call, "attribute 'output_shape' is " + list_text(output_shape) +
                              "; its extent on spatial axis " + std::to_string(axis) +
                              " is below 0");
      }
      // An output larger than the transposed convolution gives is not padded at the start:
      // its positions past that are the bias alone, as ONNX Runtime and ONNX's own tests have
      // it.
      const int64_t total = std::max<int64_t>(full - out, 0);
      begin = attrs.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    } else {
      out = full - attrs.pads[axis] - attrs.pads[axis + spatial];
      if (out < 0) {
        reject_call(call, "on spatial axis " + std::to_string(axis) + " the pads (" +
                              std::to_string(attrs.pads[axis]) + ", " +
                              std::to_string(attrs.pads[axis + spatial]) +
                              ") remove more than the " + std::to_string(full) +
                              " elements the transposed convolution gives");
      }
    }
    window.pads_begin.push_back(begin);
    window.output.push_back(out);
  }
  return window;
}

Shape windowed_output(const InferContext& call, int64_t batch, int64_t channels,
                      const WindowGeometry& window) {
  std::vector<int64_t> dims = {batch, channels};
  dims.insert(dims.end(), window.output.begin(), window.output.end());
  try {
    return Shape(dims);
  } catch (const Error& error) {
    reject_call(call, std::string("the output would be too large: ") + error.what());
  }
}

std::vector<OpAttrInfo> window_attrs(bool with_dilations) {
  std::vector<OpAttrInfo> attrs = {
      {"auto_pad", AttrType::kString, false, AttrValue(std::string("NOTSET")),
       "NOTSET: use pads; VALID: no padding; SAME_UPPER / SAME_LOWER: pad so that the output "
       "has ceil(input / stride) elements per axis, the odd element at the end / beginning"},
      {"kernel_shape", AttrType::kInts, false, std::nullopt,
       "the window's extent on each spatial axis"},
      {"pads", AttrType::kInts, false, std::nullopt,
       "padding at the beginning of each spatial axis, then at the end of each (absent: 0)"},
      {"strides", AttrType::kInts, false, std::nullopt,
       "the step on each spatial axis (absent: 1)"},
  };
  if (with_dilations) {
    attrs.push_back({"dilations", AttrType::kInts, false, std::nullopt,
                     "the spacing of the window's taps on each spatial axis (absent: 1)"});
  }
  return attrs;
}

}  // namespace hxrt::detail

#include "dnnl/onnx_window.hpp"

#include <algorithm>
#include <string>

namespace hxcpu {

hx_status* check_spatial_rank(const KernelCall& call, const char* op) {
  const int32_t rank = call.input(0).rank;
  if (rank >= 3 && rank <= 5) return nullptr;
  return call.error(HX_UNIMPLEMENTED,
                    "%s on CPU: oneDNN takes 1 to 3 spatial axes, got an input of rank %d", op,
                    static_cast<int>(rank));
}
namespace {

int64_t at_or(const std::vector<int64_t>& values, size_t index, int64_t fallback) {
  return index < values.size() ? values[index] : fallback;
}

}  // namespace

hx_status* read_ints(const hxplugin::KernelCreate& create, const char* name,
                     std::vector<int64_t>* out) {
  const int64_t* values = nullptr;
  size_t count = 0;
  bool present = false;
  if (hx_status* status = create.attr_ints(name, &values, &count, &present)) return status;
  if (present) out->assign(values, values + count);
  return nullptr;
}

hx_status* read_onnx_window(const hxplugin::KernelCreate& create, OnnxWindow* out) {
  if (hx_status* status = read_ints(create, "strides", &out->strides)) return status;
  if (hx_status* status = read_ints(create, "dilations", &out->dilations)) return status;
  if (hx_status* status = read_ints(create, "pads", &out->pads)) return status;
  const char* auto_pad = "NOTSET";
  size_t length = 6;
  if (hx_status* status = create.attr_string("auto_pad", &auto_pad, &length)) return status;
  const std::string mode(auto_pad, length);
  if (mode == "VALID") out->auto_pad = AutoPad::kValid;
  if (mode == "SAME_UPPER") out->auto_pad = AutoPad::kSameUpper;
  if (mode == "SAME_LOWER") out->auto_pad = AutoPad::kSameLower;
  return nullptr;
}

DnnlWindow dnnl_window(const OnnxWindow& window, const hx_tensor_view& x,
                       const hx_tensor_view& y, const int64_t* kernel) {
  DnnlWindow dnnl;
  const size_t spatial = static_cast<size_t>(x.rank - 2);
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x.shape[axis + 2];
    const int64_t out = y.shape[axis + 2];
    const int64_t stride = at_or(window.strides, axis, 1);
    const int64_t dilation = at_or(window.dilations, axis, 1);
    const int64_t reach = (kernel[axis] - 1) * dilation + 1;
    const int64_t needed = std::max<int64_t>((out - 1) * stride + reach - in, 0);
    int64_t begin = 0;
    int64_t end = 0;
    switch (window.auto_pad) {
      case AutoPad::kNotSet:
        begin = at_or(window.pads, axis, 0);
        end = at_or(window.pads, axis + spatial, 0);
        break;
      case AutoPad::kValid: break;
      case AutoPad::kSameUpper:
        begin = needed / 2;
        end = needed - begin;
        break;
      case AutoPad::kSameLower:
        begin = needed - needed / 2;
        end = needed - begin;
        break;
    }
    if (needed - begin > end) dnnl.extended = true;
    dnnl.strides.push_back(stride);
    dnnl.dilates.push_back(dilation - 1);
    dnnl.pad_begin.push_back(begin);
    dnnl.pad_end.push_back(std::max(end, needed - begin));
    dnnl.given_pad_end.push_back(end);
  }
  return dnnl;
}

DnnlWindow dnnl_transposed_window(const OnnxWindow& window, bool output_shape_given,
                                  const std::vector<int64_t>& output_padding,
                                  const hx_tensor_view& x, const hx_tensor_view& y,
                                  const int64_t* kernel) {
  DnnlWindow dnnl;
  const size_t spatial = static_cast<size_t>(x.rank - 2);
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x.shape[axis + 2];
    const int64_t out = y.shape[axis + 2];
    const int64_t stride = at_or(window.strides, axis, 1);
    const int64_t dilation = at_or(window.dilations, axis, 1);
    const int64_t reach = (kernel[axis] - 1) * dilation + 1;
    const int64_t natural = stride * (in - 1) + reach;  // without pads or output_padding
    int64_t begin = at_or(window.pads, axis, 0);
    if (output_shape_given || window.auto_pad == AutoPad::kSameUpper ||
        window.auto_pad == AutoPad::kSameLower) {
      // As the core's shape inference: a larger output than that is not padded at the start.
      const int64_t total = std::max<int64_t>(natural + at_or(output_padding, axis, 0) - out, 0);
      begin = window.auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
    } else if (window.auto_pad == AutoPad::kValid) {
      begin = 0;
    }
    dnnl.strides.push_back(stride);
    dnnl.dilates.push_back(dilation - 1);
    dnnl.pad_begin.push_back(begin);
    dnnl.pad_end.push_back(natural - begin - out);
  }
  return dnnl;
}

}  // namespace hxcpu

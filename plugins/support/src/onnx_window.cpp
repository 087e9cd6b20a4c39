#include "hxplugin/onnx_window.hpp"

#include <algorithm>
#include <string>

namespace hxplugin {

hx_status* read_ints(const KernelCreate& create, const char* name, std::vector<int64_t>* out) {
  const int64_t* values = nullptr;
  size_t count = 0;
  bool present = false;
  if (hx_status* status = create.attr_ints(name, &values, &count, &present)) return status;
  if (present) out->assign(values, values + count);
  return nullptr;
}

hx_status* read_onnx_window(const KernelCreate& create, OnnxWindow* out) {
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

AxisPads axis_pads(const OnnxWindow& window, size_t axis, size_t spatial, int64_t in,
                   int64_t out, int64_t stride, int64_t reach) {
  const int64_t needed = std::max<int64_t>((out - 1) * stride + reach - in, 0);
  switch (window.auto_pad) {
    case AutoPad::kNotSet:
      return {window_value_or(window.pads, axis, 0),
              window_value_or(window.pads, axis + spatial, 0)};
    case AutoPad::kValid:
      return {};
    case AutoPad::kSameUpper:
      return {needed / 2, needed - needed / 2};
    case AutoPad::kSameLower:
      return {needed - needed / 2, needed / 2};
  }
  return {};
}

}  // namespace hxplugin

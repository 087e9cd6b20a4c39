// ONNX's sliding-window attributes (strides, dilations, pads, auto_pad) of Conv and the pools,
// as a plugin's kernels read them once at create, and one axis's padding as the core's shape
// inference resolved it (auto_pad from the output's extent): a rule every plugin that
// convolves or pools applies alike (the CPU's on oneDNN, the GPU's on cuDNN).
#pragma once

#include <hxplugin/kernel_create.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hxplugin {

enum class AutoPad { kNotSet, kValid, kSameUpper, kSameLower };

// The attributes as given; an absent list stays empty (ONNX's default: 1s, or 0 pads).
struct OnnxWindow {
  std::vector<int64_t> strides, dilations, pads;
  AutoPad auto_pad = AutoPad::kNotSet;
};

hx_status* read_onnx_window(const KernelCreate& create, OnnxWindow* out);

// An attribute list of ints, left as it is when absent.
hx_status* read_ints(const KernelCreate& create, const char* name, std::vector<int64_t>* out);

// values[index], or `fallback` past the list's end (an attribute left out).
inline int64_t window_value_or(const std::vector<int64_t>& values, size_t index,
                               int64_t fallback) {
  return index < values.size() ? values[index] : fallback;
}

// ONNX's padding of one spatial axis, at its beginning and its end.
struct AxisPads {
  int64_t begin = 0;
  int64_t end = 0;
};

// The padding of spatial axis `axis` (of `spatial`) with `in` elements in and `out` out, the
// window `reach` elements wide (dilations included) and moving by `stride`: `pads` as given,
// or auto_pad's, which split what the output's extent needs as the core's inference does
// (SAME_UPPER the odd one at the end, SAME_LOWER at the beginning).
AxisPads axis_pads(const OnnxWindow& window, size_t axis, size_t spatial, int64_t in,
                   int64_t out, int64_t stride, int64_t reach);

}  // namespace hxplugin

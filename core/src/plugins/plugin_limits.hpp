// How much the core takes from one plugin. Each bound is far above what a real backend needs
// and far below what would let a broken plugin exhaust the host's memory or time; plugin_api.h
// states each of them on the field it bounds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hxrt::detail {

// A machine with more accelerators than this behind one plugin does not exist; a count above
// it is garbage, and believing it allocates per-device state until the host dies.
constexpr int32_t kMaxDevicesPerPlugin = 4096;
// The CPU plugin registers a few hundred kernels; a hundred thousand keep registration under a
// second and its memory under tens of MiB.
constexpr size_t kMaxKernelsPerPlugin = 100000;
// Custom ops keep a sorted list, so each costs a move of those after it.
constexpr size_t kMaxOpsPerPlugin = 1000;

// The lengths of names are the ABI's own (HX_MAX_*_LENGTH, plugin_vocabulary.h).
// Status messages and log lines: longer ones are cut and marked "...".
constexpr size_t kMaxMessageLength = 4096;
// Product, vendor, bus id and architecture of a device: longer ones are cut and marked "...".
constexpr size_t kMaxPropertyLength = 256;
// 2^60 bytes (one EiB): no device has more memory; a figure above it is (uint64_t)-1 or
// garbage, and would overflow the arithmetic of memory fractions and limits.
constexpr uint64_t kMaxDeviceMemory = uint64_t{1} << 60;
// hx_device_properties.alignment: a page is the most any device asks of an offset; 0 means
// kDefaultDeviceAlignment.
constexpr uint64_t kMaxDeviceAlignment = 4096;
constexpr uint64_t kDefaultDeviceAlignment = 256;

}  // namespace hxrt::detail

#include "transfer_counters.hpp"

#include <hxrt/sim_counters.h>

#include <deque>
#include <mutex>

namespace hxsim {
namespace {

// A deque, so that the counters already handed out stay where they are as it grows.
struct CounterTable {
  std::mutex mutex;
  std::deque<TransferCounters> devices;
};

CounterTable& counter_table() {
  static CounterTable table;
  return table;
}

}  // namespace

TransferCounters& transfer_counters(int32_t ordinal) {
  CounterTable& table = counter_table();
  std::lock_guard<std::mutex> lock(table.mutex);
  while (table.devices.size() <= static_cast<size_t>(ordinal)) table.devices.emplace_back();
  return table.devices[static_cast<size_t>(ordinal)];
}

}  // namespace hxsim

extern "C" HX_EXPORT int hx_sim_transfer_counts(int32_t ordinal, hx_sim_transfer_counts_t* out) {
  if (out == nullptr || ordinal < 0) return -1;
  hxsim::CounterTable& table = hxsim::counter_table();
  std::lock_guard<std::mutex> lock(table.mutex);
  if (static_cast<size_t>(ordinal) >= table.devices.size()) return -1;
  const hxsim::TransferCounters& counters = table.devices[static_cast<size_t>(ordinal)];
  const auto load = [](const std::atomic<uint64_t>& value) {
    return value.load(std::memory_order_relaxed);
  };
  // Field by field: a caller built against an older header has a shorter struct.
  const size_t known = out->struct_size;
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, host_to_device)) {
    out->host_to_device = load(counters.host_to_device.calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, host_to_device_bytes)) {
    out->host_to_device_bytes = load(counters.host_to_device.bytes);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, device_to_host)) {
    out->device_to_host = load(counters.device_to_host.calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, device_to_host_bytes)) {
    out->device_to_host_bytes = load(counters.device_to_host.bytes);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, device_to_device)) {
    out->device_to_device = load(counters.device_to_device.calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, device_to_device_bytes)) {
    out->device_to_device_bytes = load(counters.device_to_device.bytes);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, pinned_allocations)) {
    out->pinned_allocations = load(counters.pinned_allocated.calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, pinned_allocated_bytes)) {
    out->pinned_allocated_bytes = load(counters.pinned_allocated.bytes);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, pinned_deallocations)) {
    out->pinned_deallocations = load(counters.pinned_freed.calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, pinned_deallocated_bytes)) {
    out->pinned_deallocated_bytes = load(counters.pinned_freed.bytes);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, kernel_calls)) {
    out->kernel_calls = load(counters.kernel_calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, recorded_calls)) {
    out->recorded_calls = load(counters.recorded_calls);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, recordings)) {
    out->recordings = load(counters.recordings);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, replays)) {
    out->replays = load(counters.replays);
  }
  if (known >= HX_STRUCT_SIZE(hx_sim_transfer_counts_t, host_buffer_copies)) {
    out->host_buffer_copies = load(counters.host_buffer_copies);
  }
  return 0;
}

extern "C" HX_EXPORT void hx_sim_reset_transfer_counts(void) {
  hxsim::CounterTable& table = hxsim::counter_table();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (hxsim::TransferCounters& counters : table.devices) {
    counters.host_to_device.reset();
    counters.device_to_host.reset();
    counters.device_to_device.reset();
    counters.pinned_allocated.reset();
    counters.pinned_freed.reset();
    for (std::atomic<uint64_t>* count : {&counters.kernel_calls, &counters.recorded_calls,
                                         &counters.recordings, &counters.replays,
                                         &counters.host_buffer_copies}) {
      count->store(0, std::memory_order_relaxed);
    }
  }
}

// Process-wide counts of the copies made for each simulated device, read by tests through the
// functions exported in hxrt/sim_counters.h. Process-wide because the exported functions name
// a device by ordinal alone, with no plugin instance to ask.
#pragma once

#include <atomic>
#include <cstdint>

namespace hxsim {

struct TransferCounters {
  struct Direction {
    std::atomic<uint64_t> calls{0};
    std::atomic<uint64_t> bytes{0};

    void add(uint64_t size) {
      calls.fetch_add(1, std::memory_order_relaxed);
      bytes.fetch_add(size, std::memory_order_relaxed);
    }
    void reset() {
      calls.store(0, std::memory_order_relaxed);
      bytes.store(0, std::memory_order_relaxed);
    }
  };

  Direction host_to_device;
  Direction device_to_host;
  Direction device_to_device;  // counted on the destination
  // The host_memory group's allocate and deallocate calls, with their bytes.
  Direction pinned_allocated;
  Direction pinned_freed;
  // Kernel computes that queued or ran their work (not those recorded); calls recorded by the
  // recording group; its ends that gave a recording; its replays.
  std::atomic<uint64_t> kernel_calls{0};
  std::atomic<uint64_t> recorded_calls{0};
  std::atomic<uint64_t> recordings{0};
  std::atomic<uint64_t> replays{0};
  // Copies whose host side was a buffer from host_memory allocate_buffer.
  std::atomic<uint64_t> host_buffer_copies{0};
};

// The counters of device `ordinal` (>= 0), created on first use; the reference stays valid
// for the life of the process.
TransferCounters& transfer_counters(int32_t ordinal);

}  // namespace hxsim

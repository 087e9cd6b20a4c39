// The core's caching allocator: the hit (allocate and free of a size it already holds)
// against malloc/free of the same size, and what it reserves for a mixed workload.
#pragma once

namespace hxrt_bench {

inline constexpr char kHitBfc1K[] = "AllocatorHit_1KiB/bfc";
inline constexpr char kHitMalloc1K[] = "AllocatorHit_1KiB/malloc";
inline constexpr char kHitBfc64K[] = "AllocatorHit_64KiB/bfc";
inline constexpr char kHitMalloc64K[] = "AllocatorHit_64KiB/malloc";
inline constexpr char kHitBfc16M[] = "AllocatorHit_16MiB/bfc";
inline constexpr char kHitMalloc16M[] = "AllocatorHit_16MiB/malloc";
// Its counter kReservedPerUse is the peak reserved over the peak in use.
inline constexpr char kFragmentation[] = "AllocatorFragmentation/mixed_workload";
inline constexpr char kReservedPerUse[] = "reserved_per_use";

void register_allocator_benchmarks();

}  // namespace hxrt_bench

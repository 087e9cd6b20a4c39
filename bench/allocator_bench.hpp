// The allocator hit: allocate and free of a size the core's caching allocator already holds,
// against malloc/free of the same size.
#pragma once

namespace hxrt_bench {

inline constexpr char kHitBfc1K[] = "AllocatorHit_1KiB/bfc";
inline constexpr char kHitMalloc1K[] = "AllocatorHit_1KiB/malloc";
inline constexpr char kHitBfc64K[] = "AllocatorHit_64KiB/bfc";
inline constexpr char kHitMalloc64K[] = "AllocatorHit_64KiB/malloc";
inline constexpr char kHitBfc16M[] = "AllocatorHit_16MiB/bfc";
inline constexpr char kHitMalloc16M[] = "AllocatorHit_16MiB/malloc";

void register_allocator_benchmarks();

}  // namespace hxrt_bench

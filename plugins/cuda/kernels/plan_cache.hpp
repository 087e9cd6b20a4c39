// What a kernel on cuDNN or cuBLASLt keeps in its instance: a plan (what the library was told
// about one combination of shapes: descriptors, the algorithm chosen) per combination it ran,
// made at the combination's first call. A few hundred at most per instance, the least
// recently used going first, so that a workload whose shapes keep changing does not grow the
// process.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/bounded_cache.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace hxcuda::kernels {

inline constexpr size_t kPlansPerInstance = 256;

// Keyed by the call's extents (and whatever else the plan depends on).
template <class Plan>
using PlanCache = hxplugin::BoundedCache<std::vector<int64_t>, Plan>;

// The plan of `key` in *out: the one kept, or made now by `make(Plan*)`, which returns NULL or
// the status of its failure (returned here, with nothing kept).
template <class Plan, class Make>
hx_status* find_plan(PlanCache<Plan>& plans, const std::vector<int64_t>& key, Make&& make,
                     std::shared_ptr<const Plan>* out) {
  // The status escapes BoundedCache::get, which keeps nothing when its make() throws.
  struct Failure {
    hx_status* status;
  };
  try {
    *out = plans.get(key, [&] {
      Plan plan;
      if (hx_status* status = make(&plan)) throw Failure{status};
      return plan;
    });
  } catch (const Failure& failure) {
    return failure.status;
  }
  return nullptr;
}

}  // namespace hxcuda::kernels

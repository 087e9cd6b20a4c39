// AllReduce and ReduceScatter on one device: the element-wise sum, mean, maximum or minimum of
// one tensor per replica, all of one shape (the core copies each replica's tensor here first);
// whole, or cut along axis 0 into one shard per replica.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "kernels/arithmetic.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

enum class Reduction { kSum, kMean, kMax, kMin };

struct AllReduceInstance {
  Reduction reduction = Reduction::kSum;
};

template <class T>
void fold(Reduction reduction, const T* __restrict__ x, T* __restrict__ into, int64_t count) {
  switch (reduction) {
    case Reduction::kSum:
    case Reduction::kMean:
      for (int64_t i = 0; i < count; ++i) into[i] = wrapping_add(into[i], x[i]);
      return;
    case Reduction::kMax:
      for (int64_t i = 0; i < count; ++i) into[i] = std::max(into[i], x[i]);
      return;
    case Reduction::kMin:
      for (int64_t i = 0; i < count; ++i) into[i] = std::min(into[i], x[i]);
      return;
  }
}

// Elements [offset, offset + count) of the replicas' reduction, into `reduced`.
template <class T>
void reduce_range(const KernelCall& call, Reduction reduction, int64_t offset, int64_t count,
                  T* reduced) {
  if (count == 0) return;
  std::memcpy(reduced, input_data<T>(call.input(0)) + offset,
              static_cast<size_t>(count) * sizeof(T));
  for (size_t input = 1; input < call.num_inputs(); ++input) {
    fold(reduction, input_data<T>(call.input(input)) + offset, reduced, count);
  }
  if (reduction == Reduction::kMean) {
    const auto replicas = static_cast<T>(call.num_inputs());
    for (int64_t i = 0; i < count; ++i) reduced[i] = static_cast<T>(reduced[i] / replicas);
  }
}

}  // namespace

hx_status* all_reduce_create(const hx_kernel_create_args* args,
                             hx_kernel_instance** out_instance) {
  const CpuPlugin& plugin = *static_cast<const CpuPlugin*>(args->user_data);
  const hxplugin::KernelCreate create(*args, *plugin.services);
  const char* name = "sum";
  if (hx_status* status = create.attr_string("reduction", &name)) return status;
  auto instance = std::make_unique<AllReduceInstance>();
  const std::string reduction = name;
  if (reduction == "mean") {
    instance->reduction = Reduction::kMean;
  } else if (reduction == "max") {
    instance->reduction = Reduction::kMax;
  } else if (reduction == "min") {
    instance->reduction = Reduction::kMin;
  } else if (reduction != "sum") {
    return create.error(HX_INVALID_ARGUMENT,
                        "reduction is \"%s\"; expected sum, mean, max or min", name);
  }
  *out_instance = hxplugin::to_instance(instance.release());
  return nullptr;
}

void all_reduce_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<AllReduceInstance>(instance, user_data);
}

hx_status* all_reduce_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const Reduction reduction = hxplugin::instance_of<AllReduceInstance>(call.instance()).reduction;
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("AllReduce", count, out.dtype)) return status;
  return visit_arithmetic(
      out.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        reduce_range(call, reduction, 0, count, output_data<T>(out));
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "AllReduce: the CPU kernel has no %s variant",
                          hx_dtype_name(out.dtype));
      });
}

hx_status* reduce_scatter_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const Reduction reduction = hxplugin::instance_of<AllReduceInstance>(call.instance()).reduction;
  const size_t shards = call.num_outputs();
  const int32_t dtype = call.output(0).dtype;
  // Every shard of one size and dtype, each replica as many elements as all the shards.
  const int64_t shard = element_count(call.output(0));
  for (size_t i = 1; i < shards; ++i) {
    if (call.output(i).dtype != dtype || element_count(call.output(i)) != shard) {
      return call.error(HX_INVALID_ARGUMENT, "ReduceScatter: shard %zu is not as shard 0", i);
    }
  }
  if (shard < 0 || shard > INT64_MAX / static_cast<int64_t>(shards)) {
    return call.error(HX_INVALID_ARGUMENT, "ReduceScatter: the shards' size overflows");
  }
  const int64_t whole = shard * static_cast<int64_t>(shards);
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    if (call.input(i).dtype != dtype || element_count(call.input(i)) != whole) {
      return call.error(HX_INVALID_ARGUMENT,
                        "ReduceScatter: replica %zu is not %s of %lld elements, %zu shards' worth",
                        i, hx_dtype_name(dtype), static_cast<long long>(whole), shards);
    }
  }
  return visit_arithmetic(
      dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        for (size_t i = 0; i < shards; ++i) {
          reduce_range(call, reduction, static_cast<int64_t>(i) * shard, shard,
                       output_data<T>(call.output(i)));
        }
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "ReduceScatter: the CPU kernel has no %s variant",
                          hx_dtype_name(dtype));
      });
}

}  // namespace hxcpu

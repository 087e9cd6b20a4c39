// ONNX's reductions (ReduceSum ... ReduceLogSumExp), one policy per op: its start value, how it
// folds one element in and how it finishes. Each folds in the type of value_types.hpp: float
// for f16 and bf16, double for f32 and f64 (long reductions stay accurate), the integer dtype
// itself for the integer types (wrapping), and 0 or 1 for bool; the axes are read once at create.
#include <hxplugin/kernel_create.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/arithmetic.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/reduction_plan.hpp"
#include "kernels/value_types.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

// ONNX's axes as given; absent and [] are alike: every axis, or none with noop_with_empty_axes.
struct ReduceInstance {
  bool noop_with_empty_axes = false;
  size_t axis_count = 0;
  int64_t axes[HX_MAX_RANK] = {};
};

// start<T, V>(): the value of the empty reduction, in V, for elements of T.
struct SumOp {
  template <class T, class V> static V start() { return V(0); }
  template <class V> static V fold(V total, V x) { return wrapping_add(total, x); }
  template <class V> static V finish(V total, int64_t) { return total; }
};

// An integer mean truncates toward zero; the mean of no elements is NaN, or 0 for integers.
struct MeanOp : SumOp {
  template <class V>
  static V finish(V total, int64_t count) {
    if constexpr (std::is_unsigned_v<V>) {
      return count == 0 ? V(0) : static_cast<V>(uint64_t{total} / static_cast<uint64_t>(count));
    } else if constexpr (std::is_integral_v<V>) {
      return count == 0 ? V(0) : static_cast<V>(static_cast<int64_t>(total) / count);
    } else {
      return total / static_cast<V>(count);
    }
  }
};

struct ProdOp {
  template <class T, class V> static V start() { return V(1); }
  template <class V> static V fold(V product, V x) { return wrapping_mul(product, x); }
  template <class V> static V finish(V product, int64_t) { return product; }
};

// NaN, once met, stays: no comparison with it is true. The empty reduction gives T's lowest
// value (or -infinity), not the wider V's.
struct MaxOp {
  template <class T, class V>
  static V start() {
    using Limits = std::numeric_limits<V>;
    if constexpr (std::is_integral_v<T>) return static_cast<V>(std::numeric_limits<T>::lowest());
    return Limits::has_infinity ? -Limits::infinity() : Limits::lowest();
  }
  template <class V> static V fold(V max, V x) { return x > max || is_nan(x) ? x : max; }
  template <class V> static V finish(V max, int64_t) { return max; }
};

struct MinOp {
  template <class T, class V>
  static V start() {
    using Limits = std::numeric_limits<V>;
    if constexpr (std::is_integral_v<T>) return static_cast<V>(std::numeric_limits<T>::max());
    return Limits::has_infinity ? Limits::infinity() : Limits::max();
  }
  template <class V> static V fold(V min, V x) { return x < min || is_nan(x) ? x : min; }
  template <class V> static V finish(V min, int64_t) { return min; }
};

struct L1Op : SumOp {
  template <class V>
  static V fold(V total, V x) {
    return wrapping_add(total, x < V(0) ? wrapping_sub(V(0), x) : x);
  }
};

struct SumSquareOp : SumOp {
  template <class V> static V fold(V total, V x) { return wrapping_add(total, wrapping_mul(x, x)); }
};

// An integer root truncates toward zero (a sum of squares that wrapped negative gives 0).
struct L2Op : SumSquareOp {
  template <class V>
  static V finish(V total, int64_t) {
    if constexpr (std::is_integral_v<V>) {
      return convert_element<V>(std::sqrt(static_cast<double>(total)));
    } else {
      return std::sqrt(total);
    }
  }
};

template <class Op, class T>
void reduce(const ReductionPlan& plan, const T* in, int64_t in_count, int64_t terms, T* out,
            int64_t out_count) {
  using V = ValueType<T>;
  std::vector<V> folded(static_cast<size_t>(out_count), Op::template start<T, V>());
  for_each_run(plan, in_count, [&](int64_t first, int64_t length, int64_t at, bool reduced) {
    const T* run = in + first;
    if (reduced) {
      V value = folded[static_cast<size_t>(at)];
      for (int64_t i = 0; i < length; ++i) value = Op::fold(value, convert_element<V>(run[i]));
      folded[static_cast<size_t>(at)] = value;
    } else {
      V* target = folded.data() + at;
      for (int64_t i = 0; i < length; ++i) {
        target[i] = Op::fold(target[i], convert_element<V>(run[i]));
      }
    }
  });
  for (int64_t i = 0; i < out_count; ++i) {
    out[i] = convert_element<T>(Op::finish(folded[static_cast<size_t>(i)], terms));
  }
}

// max + log(sum(exp(x - max))), in a first pass for the maxima and a second for the sums, so
// that no exp overflows. An infinite (or, for an empty set, -inf) maximum is the result.
template <class T>
void log_sum_exp(const ReductionPlan& plan, const T* in, int64_t in_count, T* out,
                 int64_t out_count) {
  using R = RealType<T>;
  std::vector<R> peak(static_cast<size_t>(out_count), MaxOp::start<R, R>());
  std::vector<R> total(static_cast<size_t>(out_count), R(0));
  for_each_run(plan, in_count, [&](int64_t first, int64_t length, int64_t at, bool reduced) {
    for (int64_t i = 0; i < length; ++i) {
      R& max = peak[static_cast<size_t>(reduced ? at : at + i)];
      max = MaxOp::fold(max, convert_element<R>(in[first + i]));
    }
  });
  for_each_run(plan, in_count, [&](int64_t first, int64_t length, int64_t at, bool reduced) {
    for (int64_t i = 0; i < length; ++i) {
      const auto o = static_cast<size_t>(reduced ? at : at + i);
      total[o] += std::exp(convert_element<R>(in[first + i]) - peak[o]);
    }
  });
  for (size_t i = 0; i < static_cast<size_t>(out_count); ++i) {
    out[i] = convert_element<T>(std::isinf(peak[i]) ? peak[i] : peak[i] + std::log(total[i]));
  }
}

struct LogSumExpOp {};

// The ops ONNX defines on bool, where false < true.
template <class Op>
constexpr bool kOnBool = std::is_same_v<Op, MaxOp> || std::is_same_v<Op, MinOp>;

template <class Op>
hx_status* reduce_kernel(const hx_kernel_args* args, const char* op) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const auto& instance = hxplugin::instance_of<ReduceInstance>(call.instance());
  bool reduced[HX_MAX_RANK] = {};
  const bool every_axis = instance.axis_count == 0 && !instance.noop_with_empty_axes;
  for (int32_t axis = 0; axis < in.rank; ++axis) reduced[axis] = every_axis;
  if (!mark_axes(instance.axes, instance.axis_count, in.rank, reduced)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: axes out of range or repeated for an input of rank %d", op,
                      static_cast<int>(in.rank));
  }
  int64_t out_count = 1;
  int64_t terms = 1;
  for (int32_t axis = 0; axis < in.rank; ++axis) {
    (reduced[axis] ? terms : out_count) *= in.shape[axis];
  }
  if (in.dtype != out.dtype || element_count(out) != out_count) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: output is %s with %lld elements, expected %s with %lld", op,
                      hx_dtype_name(out.dtype),
                      static_cast<long long>(element_count(out)), hx_dtype_name(in.dtype),
                      static_cast<long long>(out_count));
  }
  const ReductionPlan plan = plan_reduction(in, reduced);
  const int64_t in_count = element_count(in);
  return visit_any(
      in.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, BoolByte> && !kOnBool<Op>) {
          return call.error(HX_INVALID_ARGUMENT, "%s is not defined on bool", op);
        } else if constexpr (std::is_same_v<Op, LogSumExpOp>) {
          log_sum_exp(plan, input_data<T>(in), in_count, output_data<T>(out), out_count);
        } else {
          reduce<Op>(plan, input_data<T>(in), in_count, terms, output_data<T>(out), out_count);
        }
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                          hx_dtype_name(in.dtype));
      });
}

}  // namespace

hx_status* reduce_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  ReduceInstance instance;
  const int64_t* axes = nullptr;
  bool axes_given = false;
  if (hx_status* status = create.attr_ints("axes", &axes, &instance.axis_count, &axes_given)) {
    return status;
  }
  if (!axes_given) instance.axis_count = 0;
  // More axes than any tensor has dimensions must repeat one, whatever the rank.
  if (instance.axis_count > HX_MAX_RANK) {
    return create.error(HX_INVALID_ARGUMENT,
                        "%zu axes given; a tensor has at most %d, each listed once",
                        instance.axis_count, HX_MAX_RANK);
  }
  for (size_t i = 0; i < instance.axis_count; ++i) instance.axes[i] = axes[i];
  if (hx_status* status =
          create.attr_bool("noop_with_empty_axes", &instance.noop_with_empty_axes)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new ReduceInstance(instance));
  return nullptr;
}

void reduce_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ReduceInstance>(instance, user_data);
}

hx_status* reduce_sum_kernel(const hx_kernel_args* args) {
  return reduce_kernel<SumOp>(args, "ReduceSum");
}
hx_status* reduce_mean_kernel(const hx_kernel_args* args) {
  return reduce_kernel<MeanOp>(args, "ReduceMean");
}
hx_status* reduce_prod_kernel(const hx_kernel_args* args) {
  return reduce_kernel<ProdOp>(args, "ReduceProd");
}
hx_status* reduce_max_kernel(const hx_kernel_args* args) {
  return reduce_kernel<MaxOp>(args, "ReduceMax");
}
hx_status* reduce_min_kernel(const hx_kernel_args* args) {
  return reduce_kernel<MinOp>(args, "ReduceMin");
}
hx_status* reduce_l1_kernel(const hx_kernel_args* args) {
  return reduce_kernel<L1Op>(args, "ReduceL1");
}
hx_status* reduce_l2_kernel(const hx_kernel_args* args) {
  return reduce_kernel<L2Op>(args, "ReduceL2");
}
hx_status* reduce_sum_square_kernel(const hx_kernel_args* args) {
  return reduce_kernel<SumSquareOp>(args, "ReduceSumSquare");
}
hx_status* reduce_log_sum_exp_kernel(const hx_kernel_args* args) {
  return reduce_kernel<LogSumExpOp>(args, "ReduceLogSumExp");
}

}  // namespace hxcpu

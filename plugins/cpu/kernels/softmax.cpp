// Softmax and LogSoftmax along one axis. f32, f16 and bf16 on oneDNN's softmax primitive
// (vectorised exp; bf16 natively where the CPU has its kernels, f16 widened to f32): the loops
// below took 340 us for a transformer's 8x4x32x32 attention weights, oneDNN 11 (AVX-512, one
// thread). f64, calls of few elements, and a call oneDNN refuses, in those loops: each line
// in three passes, its maximum, the sum of exp(x - max) (no exp overflows), and the outputs,
// in double.
#include <hxplugin/kernel_create.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include "dnnl/dnnl_primitives.hpp"
#include "kernels/axis_lines.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/value_types.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct SoftmaxInstance {
  int64_t axis = -1;
  uint32_t threads = 0;
  mutable PrimitiveCache primitives;
};

template <bool kLog>
Prepared prepare_softmax(DataType type, const hx_tensor_view& in, int axis, uint32_t threads) {
  using Primitive = std::conditional_t<kLog, dnnl::logsoftmax_forward, dnnl::softmax_forward>;
  return prepare_one_to_one<Primitive>(type, in, threads, [&](const dnnl::memory::desc& data) {
    return typename Primitive::desc(dnnl::prop_kind::forward_inference, data, axis);
  });
}

template <bool kLog, class T>
void softmax(const AxisLines& lines, const T* in, T* out) {
  using R = RealType<T>;
  for (int64_t b = 0; b < lines.outer; ++b) {
    const int64_t base = b * lines.extent * lines.inner;
    for (int64_t j = 0; j < lines.inner; ++j) {
      const T* x = in + base + j;
      T* y = out + base + j;
      R max = -std::numeric_limits<R>::infinity();
      for (int64_t k = 0; k < lines.extent; ++k) {
        max = std::fmax(max, convert_element<R>(x[k * lines.inner]));
      }
      R total = 0;
      for (int64_t k = 0; k < lines.extent; ++k) {
        total += std::exp(convert_element<R>(x[k * lines.inner]) - max);
      }
      const R log_total = std::log(total);
      for (int64_t k = 0; k < lines.extent; ++k) {
        const R shifted = convert_element<R>(x[k * lines.inner]) - max;
        y[k * lines.inner] =
            convert_element<T>(kLog ? shifted - log_total : std::exp(shifted) / total);
      }
    }
  }
}

template <bool kLog>
hx_status* softmax_kernel(const hx_kernel_args* args, const char* op) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(op, count, in.dtype)) return status;
  AxisLines lines;
  if (!split_at_axis(in, hxplugin::instance_of<SoftmaxInstance>(call.instance()).axis, &lines)) {
    return call.error(HX_INVALID_ARGUMENT, "%s: axis out of range for an input of rank %d", op,
                      static_cast<int>(in.rank));
  }
  const SoftmaxInstance& instance = hxplugin::instance_of<SoftmaxInstance>(call.instance());
  if (in.dtype != HX_DTYPE_F64 && count >= kOneDnnLeastElements && hxplugin::is_dense(in)) {
    const int axis = static_cast<int>(instance.axis < 0 ? instance.axis + in.rank : instance.axis);
    try {
      const auto prepare = [&](DataType type) {
        return prepare_softmax<kLog>(type, in, axis, instance.threads);
      };
      const std::shared_ptr<const Prepared> prepared = instance.primitives.get(
          shapes_key(call), [&] { return prepare_for(in.dtype, prepare); });
      return run_prepared(call, op, *prepared, instance.threads);
    } catch (const dnnl::error&) {
      // no primitive for the call: the loops below
    }
  }
  const auto run = [&](auto tag) -> hx_status* {
    using T = typename decltype(tag)::type;
    softmax<kLog>(lines, input_data<T>(in), output_data<T>(out));
    return nullptr;
  };
  switch (in.dtype) {
    case HX_DTYPE_F32: return run(TypeTag<float>{});
    case HX_DTYPE_F64: return run(TypeTag<double>{});
    case HX_DTYPE_F16: return run(TypeTag<Half>{});
    case HX_DTYPE_BF16: return run(TypeTag<BFloat16>{});
    default: break;
  }
  return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                    hx_dtype_name(in.dtype));
}

}  // namespace

hx_status* softmax_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  auto instance = std::make_unique<SoftmaxInstance>();
  instance->threads = static_cast<const CpuPlugin*>(args->user_data)->intra_op_threads;
  if (hx_status* status = create.attr_int("axis", &instance->axis)) return status;
  *out_instance = hxplugin::to_instance(instance.release());
  return nullptr;
}

void softmax_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<SoftmaxInstance>(instance, user_data);
}

hx_status* softmax_kernel(const hx_kernel_args* args) {
  return softmax_kernel<false>(args, "Softmax");
}
hx_status* log_softmax_kernel(const hx_kernel_args* args) {
  return softmax_kernel<true>(args, "LogSoftmax");
}

}  // namespace hxcpu

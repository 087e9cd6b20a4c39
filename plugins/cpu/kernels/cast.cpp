// Cast: every dtype to every dtype, element by element (see element_convert.hpp for the rules).
// Create picks the conversion loop for the call's pair of dtypes once; compute only runs it.
#include <hxplugin/kernel_create.hpp>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

using ConvertFn = void (*)(const void* source, void* target, int64_t count);

template <class From, class To>
void convert_all(const void* source_bytes, void* target_bytes, int64_t count) {
  const From* __restrict__ source = static_cast<const From*>(source_bytes);
  To* __restrict__ target = static_cast<To*>(target_bytes);
  for (int64_t i = 0; i < count; ++i) target[i] = convert_element<To>(source[i]);
}

struct CastInstance {
  int32_t from;  // the dtypes the loop was picked for
  int32_t to;
  ConvertFn convert;
};

}  // namespace

hx_status* cast_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const int32_t from = create.input_dtype(0);
  const int32_t to = create.output_dtype(0);
  ConvertFn convert = nullptr;
  const auto unknown_dtype = [&] {
    return create.error(HX_INVALID_ARGUMENT, "Cast: unknown dtype (%d to %d)",
                        static_cast<int>(from), static_cast<int>(to));
  };
  if (hx_status* status = visit_any(
          from,
          [&](auto from_tag) -> hx_status* {
            using From = typename decltype(from_tag)::type;
            return visit_any(
                to,
                [&](auto to_tag) -> hx_status* {
                  convert = convert_all<From, typename decltype(to_tag)::type>;
                  return nullptr;
                },
                unknown_dtype);
          },
          unknown_dtype)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new CastInstance{from, to, convert});
  return nullptr;
}

void cast_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<CastInstance>(instance, user_data);
}

hx_status* cast_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const CastInstance& instance = hxplugin::instance_of<CastInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (element_count(in) != count) {
    return call.error(HX_INVALID_ARGUMENT, "Cast: input has %lld elements, output %lld",
                      static_cast<long long>(element_count(in)), static_cast<long long>(count));
  }
  if (in.dtype != instance.from || out.dtype != instance.to) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Cast: the instance was made for %s to %s, but the call is %s to %s",
                      hx_dtype_name(instance.from), hx_dtype_name(instance.to),
                      hx_dtype_name(in.dtype), hx_dtype_name(out.dtype));
  }
  instance.convert(input_data<void>(in), output_data<void>(out), count);
  return nullptr;
}

}  // namespace hxcpu

// Fill: the output (whose shape the core derived from the `shape` attribute) set to `value`
// converted to the output dtype, as Cast would convert it. The value is read and converted
// once, at create.
#include <hxplugin/kernel_create.hpp>

#include <cstring>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct FillInstance {
  int32_t dtype;              // the output dtype the element was converted to
  size_t element_size;        // its bytes
  unsigned char element[8];   // the converted value, hx_dtype_size(dtype) bytes
};

template <class T>
void fill_with(const FillInstance& instance, void* target, int64_t count) {
  T element;
  std::memcpy(&element, instance.element, sizeof element);
  T* data = static_cast<T*>(target);
  for (int64_t i = 0; i < count; ++i) data[i] = element;
}

}  // namespace

hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  double value = 0;
  if (hx_status* status = create.required_attr_float("Fill", "value", &value)) return status;
  FillInstance instance{};
  instance.dtype = create.output_dtype(0);
  if (hx_status* status = visit_any(
          instance.dtype,
          [&](auto tag) -> hx_status* {
            using T = typename decltype(tag)::type;
            static_assert(sizeof(T) <= sizeof instance.element, "an element fits the instance");
            const T element = convert_element<T>(value);
            std::memcpy(instance.element, &element, sizeof element);
            instance.element_size = sizeof element;
            return nullptr;
          },
          [&] {
            return create.error(HX_INVALID_ARGUMENT, "Fill: unknown output dtype %d",
                                static_cast<int>(instance.dtype));
          })) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new FillInstance(instance));
  return nullptr;
}

void fill_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<FillInstance>(instance, user_data);
}

hx_status* fill_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const FillInstance& instance = hxplugin::instance_of<FillInstance>(call.instance());
  const hx_tensor_view& out = call.output(0);
  if (out.dtype != instance.dtype) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Fill: the instance was made for %s, but the output is %s",
                      hx_dtype_name(instance.dtype), hx_dtype_name(out.dtype));
  }
  const int64_t count = element_count(out);
  void* target = output_data<void>(out);
  // By size: filling is copying bit patterns, whatever they mean.
  switch (instance.element_size) {
    case 1: fill_with<uint8_t>(instance, target, count); break;
    case 2: fill_with<uint16_t>(instance, target, count); break;
    case 4: fill_with<uint32_t>(instance, target, count); break;
    default: fill_with<uint64_t>(instance, target, count); break;
  }
  return nullptr;
}

}  // namespace hxcpu

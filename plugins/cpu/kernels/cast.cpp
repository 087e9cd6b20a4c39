// Cast: every dtype to every dtype, element by element (see element_convert.hpp for the rules).
// Create picks the conversion loop for the call's pair of dtypes once; compute only runs it.
// A cast to or from an 8-bit float goes through double (which holds every value of the other
// side that an 8-bit float can tell apart) in chunks, with its own encoder (float8.hpp).
#include <hxplugin/kernel_create.hpp>

#include <algorithm>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/float8.hpp"
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
  ConvertFn convert;  // NULL when either side is an 8-bit float:
  // then x's elements to double and double to y's: a loop of element_convert.hpp for the side
  // that is no 8-bit float, the format (and ONNX's saturate) for the one that is.
  ConvertFn to_double;
  ConvertFn from_double;
  const Float8Format* from_float8;
  const Float8Format* to_float8;
  bool saturate;
};

// `count` elements of x to y through a buffer of doubles.
void cast_through_double(const CastInstance& cast, const void* source, void* target,
                         int64_t count) {
  constexpr int64_t kChunk = 256;
  double values[kChunk];
  const auto* from = static_cast<const uint8_t*>(source);
  auto* to = static_cast<uint8_t*>(target);
  const size_t from_size = hx_dtype_size(cast.from);
  const size_t to_size = hx_dtype_size(cast.to);
  for (int64_t start = 0; start < count; start += kChunk) {
    const int64_t n = std::min(kChunk, count - start);
    const uint8_t* chunk_from = from + static_cast<size_t>(start) * from_size;
    uint8_t* chunk_to = to + static_cast<size_t>(start) * to_size;
    if (cast.from_float8 != nullptr) {
      for (int64_t i = 0; i < n; ++i) values[i] = decode_float8(chunk_from[i], *cast.from_float8);
    } else {
      cast.to_double(chunk_from, values, n);
    }
    if (cast.to_float8 != nullptr) {
      for (int64_t i = 0; i < n; ++i) {
        chunk_to[i] = encode_float8(values[i], *cast.to_float8, cast.saturate);
      }
    } else {
      cast.from_double(values, chunk_to, n);
    }
  }
}

// The loop of element_convert.hpp from `dtype` to double (`to_double`), or back.
ConvertFn double_loop(int32_t dtype, bool to_double) {
  ConvertFn loop = nullptr;
  visit_any(
      dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        loop = to_double ? convert_all<T, double> : convert_all<double, T>;
        return nullptr;
      },
      [] { return static_cast<hx_status*>(nullptr); });
  return loop;
}

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
  const Float8Format* from_float8 = float8_format(from);
  const Float8Format* to_float8 = float8_format(to);
  if (from_float8 != nullptr || to_float8 != nullptr) {
    int64_t saturate = 1;
    if (hx_status* status = create.attr_int("saturate", &saturate)) return status;
    CastInstance cast{from,        to,        nullptr, double_loop(from, true),
                      double_loop(to, false), from_float8, to_float8, saturate != 0};
    if ((from_float8 == nullptr && cast.to_double == nullptr) ||
        (to_float8 == nullptr && cast.from_double == nullptr)) {
      return unknown_dtype();
    }
    *out_instance = hxplugin::to_instance(new CastInstance(cast));
    return nullptr;
  }
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
  *out_instance = hxplugin::to_instance(
      new CastInstance{from, to, convert, nullptr, nullptr, nullptr, nullptr, true});
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
  if (instance.convert != nullptr) {
    instance.convert(input_data<void>(in), output_data<void>(out), count);
  } else {
    cast_through_double(instance, input_data<void>(in), output_data<void>(out), count);
  }
  return nullptr;
}

}  // namespace hxcpu

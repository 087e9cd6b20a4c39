// The comparisons (Equal, Less, ...) and Not, And, Or: bool outputs. The binary ones take their
// operands broadcast to the output's shape, walked as hxplugin::BinaryRows; f16, bf16 and bool
// operands compare as float, which holds each of their values exactly.
#include <hxplugin/broadcast.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {
namespace {

template <class T>
auto comparable(T value) {
  if constexpr (kNarrow<T> || std::is_same_v<T, BoolByte>) {
    return convert_element<float>(value);
  } else {
    return value;
  }
}

struct EqualTest {
  static constexpr const char* kName = "Equal";
  template <class V>
  static bool test(V a, V b) {
    return a == b;
  }
};
struct LessTest {
  static constexpr const char* kName = "Less";
  template <class V>
  static bool test(V a, V b) {
    return a < b;
  }
};
struct GreaterTest {
  static constexpr const char* kName = "Greater";
  template <class V>
  static bool test(V a, V b) {
    return a > b;
  }
};
struct LessOrEqualTest {
  static constexpr const char* kName = "LessOrEqual";
  template <class V>
  static bool test(V a, V b) {
    return a <= b;
  }
};
struct GreaterOrEqualTest {
  static constexpr const char* kName = "GreaterOrEqual";
  template <class V>
  static bool test(V a, V b) {
    return a >= b;
  }
};
struct AndTest {
  static constexpr const char* kName = "And";
  template <class V>
  static bool test(V a, V b) {
    return a != V(0) && b != V(0);
  }
};
struct OrTest {
  static constexpr const char* kName = "Or";
  template <class V>
  static bool test(V a, V b) {
    return a != V(0) || b != V(0);
  }
};

template <class Test, class T>
void test_row(const T* a, int64_t a_step, const T* b, int64_t b_step, BoolByte* out,
              int64_t length) {
  for (int64_t i = 0; i < length; ++i) {
    const bool holds = Test::test(comparable(a[i * a_step]), comparable(b[i * b_step]));
    out[i].byte = holds ? 1 : 0;
  }
}

template <class Test>
hx_status* test_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& a = call.input(0);
  const hx_tensor_view& b = call.input(1);
  const hx_tensor_view& out = call.output(0);
  hxplugin::BinaryRows rows;
  if (!hxplugin::plan_binary_rows(a, b, out, &rows)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: inputs of ranks %d and %d do not arrive broadcast to the output's "
                      "rank %d and shape",
                      Test::kName, static_cast<int>(a.rank), static_cast<int>(b.rank),
                      static_cast<int>(out.rank));
  }
  if (a.dtype != b.dtype || out.dtype != HX_DTYPE_BOOL) {
    return call.error(HX_INVALID_ARGUMENT, "%s: dtypes %s, %s -> %s; expected T, T -> bool",
                      Test::kName, hx_dtype_name(a.dtype), hx_dtype_name(b.dtype),
                      hx_dtype_name(out.dtype));
  }
  return visit_any(
      a.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T* a_data = input_data<T>(a);
        const T* b_data = input_data<T>(b);
        BoolByte* out_data = output_data<BoolByte>(out);
        rows.for_each_row([&](int64_t out_offset, int64_t a_offset, int64_t b_offset) {
          test_row<Test>(a_data + a_offset, rows.x_step, b_data + b_offset, rows.y_step,
                         out_data + out_offset, rows.row_length);
        });
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant",
                          Test::kName, hx_dtype_name(a.dtype));
      });
}

}  // namespace

hx_status* equal_kernel(const hx_kernel_args* args) { return test_kernel<EqualTest>(args); }
hx_status* less_kernel(const hx_kernel_args* args) { return test_kernel<LessTest>(args); }
hx_status* greater_kernel(const hx_kernel_args* args) { return test_kernel<GreaterTest>(args); }
hx_status* less_or_equal_kernel(const hx_kernel_args* args) {
  return test_kernel<LessOrEqualTest>(args);
}
hx_status* greater_or_equal_kernel(const hx_kernel_args* args) {
  return test_kernel<GreaterOrEqualTest>(args);
}
hx_status* and_kernel(const hx_kernel_args* args) { return test_kernel<AndTest>(args); }
hx_status* or_kernel(const hx_kernel_args* args) { return test_kernel<OrTest>(args); }

hx_status* not_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Not", count, HX_DTYPE_BOOL)) return status;
  const BoolByte* x = input_data<BoolByte>(call.input(0));
  BoolByte* y = output_data<BoolByte>(out);
  for (int64_t i = 0; i < count; ++i) y[i].byte = x[i].byte != 0 ? 0 : 1;
  return nullptr;
}

}  // namespace hxcpu

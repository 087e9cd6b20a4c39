// The plugins' shared helpers (plugins/support): counts and byte sizes of views, which a
// kernel trusts to bound its loops, must not overflow whatever shape reaches them; MatMul's
// operand check, which every plugin's kernel makes through it; the bounded cache kernel
// instances keep their per-shape state in.
#include <catch2/catch.hpp>

#include <hxplugin/bounded_cache.hpp>
#include <hxplugin/kernel_call.hpp>
#include <hxplugin/matmul_dims.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// This test's status: its code and message (the core's own is not linked here).
struct hx_status_s {
  int32_t code;
  std::string message;
};

namespace {

hx_tensor_view view_of(hx_dtype dtype, const std::vector<int64_t>& shape) {
  hx_tensor_view view{};
  view.struct_size = HX_TENSOR_VIEW_STRUCT_SIZE;
  view.dtype = dtype;
  view.rank = static_cast<int32_t>(shape.size());
  view.shape = shape.data();
  return view;
}

constexpr int64_t kTwoTo62 = int64_t{1} << 62;

// The services a KernelCall needs to make an error.
hx_core_services error_services() {
  hx_core_services services{};
  services.struct_size = HX_CORE_SERVICES_STRUCT_SIZE;
  services.status_create = [](int32_t code, const char* message) -> hx_status* {
    return new hx_status{code, message == nullptr ? "" : message};
  };
  services.status_destroy = [](hx_status* status) { delete status; };
  return services;
}

// What matmul_dims says of a, b -> c: "" when it accepts them (and then the dimensions).
std::string matmul_problem(hx_tensor_view a, hx_tensor_view b, hx_tensor_view c,
                           hxplugin::MatMulDims* dims) {
  const hx_core_services services = error_services();
  hx_tensor_view inputs[] = {a, b};
  hx_kernel_args args{};
  args.struct_size = HX_KERNEL_ARGS_STRUCT_SIZE;
  args.inputs = inputs;
  args.num_inputs = 2;
  args.outputs = &c;
  args.num_outputs = 1;
  const hxplugin::KernelCall call(args, services);
  hx_status* status = hxplugin::matmul_dims(call, false, true, dims);
  if (status == nullptr) return "";
  const std::string message = status->message;
  services.status_destroy(status);
  return message;
}

}  // namespace

TEST_CASE("element_count multiplies the extents, and says -1 for a shape no core passes") {
  using hxplugin::element_count;
  const std::vector<int64_t> scalar;
  const std::vector<int64_t> matrix = {2, 3};
  const std::vector<int64_t> huge_but_empty = {kTwoTo62, 0, 1};
  const std::vector<int64_t> overflowing = {kTwoTo62, 4};
  const std::vector<int64_t> overflowing_and_empty = {0, kTwoTo62, 4};
  const std::vector<int64_t> negative = {2, -1};
  CHECK(element_count(view_of(HX_DTYPE_F32, scalar)) == 1);
  CHECK(element_count(view_of(HX_DTYPE_F32, matrix)) == 6);
  CHECK(element_count(view_of(HX_DTYPE_F32, huge_but_empty)) == 0);
  CHECK(element_count(view_of(HX_DTYPE_F32, overflowing)) == -1);
  CHECK(element_count(view_of(HX_DTYPE_F32, overflowing_and_empty)) == -1);
  CHECK(element_count(view_of(HX_DTYPE_F32, negative)) == -1);
}

TEST_CASE("byte_count refuses sizes that wrap a size_t") {
  using hxplugin::byte_count;
  size_t bytes = 1;
  const std::vector<int64_t> matrix = {2, 3};
  REQUIRE(byte_count(view_of(HX_DTYPE_F64, matrix), &bytes));
  CHECK(bytes == 48);
  const std::vector<int64_t> huge_but_empty = {kTwoTo62, 0};
  REQUIRE(byte_count(view_of(HX_DTYPE_F32, huge_but_empty), &bytes));
  CHECK(bytes == 0);
  // 2^62 float32 elements are 2^64 bytes: 0 in a size_t product.
  const std::vector<int64_t> wrapping = {kTwoTo62};
  CHECK_FALSE(byte_count(view_of(HX_DTYPE_F32, wrapping), &bytes));
  CHECK(byte_count(view_of(HX_DTYPE_BOOL, wrapping), &bytes));
  const std::vector<int64_t> negative = {-4};
  CHECK_FALSE(byte_count(view_of(HX_DTYPE_BOOL, negative), &bytes));
}

TEST_CASE("matmul_dims checks MatMul's operands for every plugin, then reads the product's size") {
  const std::vector<int64_t> a_shape = {2, 3};
  const std::vector<int64_t> b_shape = {4, 3};  // transposed: 3 x 4
  const std::vector<int64_t> c_shape = {2, 4};
  const std::vector<int64_t> vector_shape = {3};
  hxplugin::MatMulDims dims{};
  CHECK(matmul_problem(view_of(HX_DTYPE_F32, a_shape), view_of(HX_DTYPE_F32, b_shape),
                       view_of(HX_DTYPE_F32, c_shape), &dims) == "");
  CHECK((dims.m == 2 && dims.n == 4 && dims.k == 3));
  CHECK(matmul_problem(view_of(HX_DTYPE_F32, vector_shape), view_of(HX_DTYPE_F32, b_shape),
                       view_of(HX_DTYPE_F32, c_shape), &dims) ==
        "MatMul: expected three rank-2 tensors of one dtype, got ranks 1, 2 -> 2 and dtypes "
        "float32, float32 -> float32");
  CHECK(matmul_problem(view_of(HX_DTYPE_F32, a_shape), view_of(HX_DTYPE_F64, b_shape),
                       view_of(HX_DTYPE_F32, c_shape), &dims) ==
        "MatMul: expected three rank-2 tensors of one dtype, got ranks 2, 2 -> 2 and dtypes "
        "float32, float64 -> float32");
  CHECK(matmul_problem(view_of(HX_DTYPE_F32, a_shape), view_of(HX_DTYPE_F32, a_shape),
                       view_of(HX_DTYPE_F32, c_shape), &dims) ==
        "MatMul: shapes [2, 3] x [2, 3] -> [2, 4] do not agree (transpose_a=false, "
        "transpose_b=true)");
}

TEST_CASE("BoundedCache makes each value once, keeps the most recent, and drops the oldest") {
  hxplugin::BoundedCache<int, std::string> cache(2);
  int made = 0;
  const auto make = [&made](int key) {
    return [&made, key] {
      ++made;
      return "value " + std::to_string(key);
    };
  };
  const std::shared_ptr<const std::string> one = cache.get(1, make(1));
  CHECK(*one == "value 1");
  CHECK(*cache.get(1, make(1)) == "value 1");
  CHECK(made == 1);
  cache.get(2, make(2));
  cache.get(1, make(1));  // 1 is now the most recent, 2 the least
  cache.get(3, make(3));  // full: 2 goes
  CHECK(cache.size() == 2);
  CHECK(made == 3);
  cache.get(1, make(1));
  CHECK(made == 3);  // kept
  cache.get(2, make(2));
  CHECK(made == 4);  // made again
  CHECK(*one == "value 1");  // a value handed out outlives its entry
  CHECK_THROWS_AS(cache.get(5, []() -> std::string { throw std::runtime_error("no"); }),
                  std::runtime_error);
  CHECK(cache.size() == 2);
}

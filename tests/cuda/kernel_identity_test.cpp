// Identity on GPU:0 copies the bytes of every dtype, integers and bool included.
#include <catch2/catch.hpp>

#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

std::vector<unsigned char> bytes_of(const hxrt::Tensor& tensor) {
  std::vector<unsigned char> bytes(tensor.byte_size());
  tensor.copy_to_host(bytes.data(), bytes.size());
  return bytes;
}

}  // namespace

TEST_CASE("GPU Identity copies every dtype exactly", "[cuda][identity]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 6000;
  for (const hxrt::DType dtype : hxrt::kAllDTypes) {
    for (const hxrt::Shape& shape :
         {hxrt::Shape{5, 3}, hxrt::Shape{}, hxrt::Shape{0}, hxrt::Shape{1 << 20}}) {
      INFO(hxrt::dtype_name(dtype) << ' ' << shape.to_string());
      // Integer and bool inputs come from the CPU's Cast of random doubles.
      const hxrt::Tensor input = random_tensor(dtype, shape, ++seed, -1000, 1000);
      const hxrt::Tensor output = run_on_gpu("Identity", {input});
      CHECK(output.dtype() == dtype);
      CHECK(output.shape() == shape);
      CHECK(bytes_of(output) == bytes_of(input));
    }
  }
}

}  // namespace cuda_kernel_test

// The guide's "Using a single GPU on a multi-GPU system": everything inside the scope, the
// tensors and the MatMul, lives on GPU:2, so nothing is copied.
//
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:2
//   [[22, 28], [49, 64]]
#include <iostream>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);

    auto scope = rt.device("/GPU:2");
    hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
    hxrt::Tensor c = rt.execute("MatMul", {a, b});
    std::cout << c.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "guide_manual_placement: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

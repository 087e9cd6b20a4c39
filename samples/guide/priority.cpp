// The guide's "Logging device placement": nothing names a device. As in TensorFlow, a and b
// are made on the highest-priority device (GPU:0: the sim GPUs are discrete accelerators,
// which come before the CPU), and MatMul runs there too, so no input is copied.
//
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
//   [[22, 28], [49, 64]]
#include <iostream>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);

    const hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    const hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
    const hxrt::Tensor c = rt.execute("MatMul", {a, b});
    std::cout << c.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "guide_priority: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

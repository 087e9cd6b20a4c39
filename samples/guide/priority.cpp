// The guide's "Manual device placement": a and b are created on the CPU; MatMul names no
// device, so the placer picks the highest-priority device type with a MatMul kernel (GPU),
// lowest id first, and copies the inputs there.
//
//   Copying input 0 of MatMul from /job:localhost/replica:0/task:0/device:CPU:0 to /job:...GPU:0
//   Copying input 1 of MatMul from /job:localhost/replica:0/task:0/device:CPU:0 to /job:...GPU:0
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

    hxrt::Tensor a;
    hxrt::Tensor b;
    {
      auto cpu = rt.device("/CPU:0");
      a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
      b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
    }
    hxrt::Tensor c = rt.execute("MatMul", {a, b});
    std::cout << c.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "guide_priority: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

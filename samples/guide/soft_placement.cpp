// The guide's soft device placement: GPU:7 does not exist. By default that is an error (only a
// missing kernel falls back); with soft placement the op runs on the best device instead,
// GPU:0, where a and b already are (made with no device, they went to the highest-priority
// device, as in TensorFlow).
//
//   MatMul on /GPU:7: /job:localhost/replica:0/task:0/device:GPU:7 unknown device.
//   Existing devices: /job:localhost/replica:0/task:0/device:CPU:0, ... GPU:3
//   ...
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:0
//     requested /job:...GPU:7, which does not exist; soft placement chose /job:...GPU:0
//   [[22, 28], [49, 64]]
#include <iostream>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);
    hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});

    // The default mode, set here to show it.
    rt.set_soft_placement(hxrt::SoftPlacement::kFallbackOnMissingKernel);
    try {
      auto scope = rt.device("/GPU:7");
      rt.execute("MatMul", {a, b});
    } catch (const hxrt::Error& error) {
      std::cout << "MatMul on /GPU:7: " << error.what() << '\n';
    }

    rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
    auto scope = rt.device("/GPU:7");
    hxrt::Tensor c = rt.execute("MatMul", {a, b});
    std::cout << c.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "guide_soft_placement: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

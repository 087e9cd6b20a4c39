// The guide's fallback for ops a GPU has no kernel for: the simulated GPUs have float32
// kernels only, so an int32 Add requested on GPU:0 runs on CPU:0, its inputs copied there.
//
//   Copying input 0 of Add from /job:...GPU:0 to /job:...CPU:0
//   Copying input 1 of Add from /job:...GPU:0 to /job:...CPU:0
//   Executing op Add in device /job:localhost/replica:0/task:0/device:CPU:0
//     requested /job:...GPU:0, but no supported kernel for GPU devices is available for
//     T=int32; fell back to /job:...CPU:0
//   [[11, 22], [33, 44]]
#include <cstdint>
#include <iostream>

#include "guide_options.hpp"
#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  const std::optional<hxrt::RuntimeOptions> options = guide::options_from_command_line(argc, argv);
  if (!options) return guide::kUsageError;
  try {
    hxrt::Runtime rt = hxrt::Runtime::create(*options);

    auto scope = rt.device("/GPU:0");
    hxrt::Tensor a = rt.tensor<int32_t>({2, 2}, {1, 2, 3, 4});
    hxrt::Tensor b = rt.tensor<int32_t>({2, 2}, {10, 20, 30, 40});
    hxrt::Tensor c = rt.execute("Add", {a, b});
    std::cout << c.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "guide_int32_fallback: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

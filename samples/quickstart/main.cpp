// The TensorFlow GPU guide's first example: log where each op runs, then multiply two matrices.
//
//   Executing op MatMul in device /job:localhost/replica:0/task:0/device:CPU:0
//   [[22, 28], [49, 64]]
#include <iostream>
#include <string_view>

#include "hxrt/hxrt.hpp"

int main() {
  try {
    hxrt::RuntimeOptions options;
    options.log_device_placement = true;
    // Log lines go to stdout, so that placement and results read as one stream.
    options.log_sink = [](hxrt::LogLevel, std::string_view line) { std::cout << line << '\n'; };
    hxrt::Runtime rt = hxrt::Runtime::create(options);

    hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
    hxrt::Tensor c = rt.execute("MatMul", {a, b});
    std::cout << c.to_string() << '\n';
  } catch (const hxrt::Error& error) {
    std::cerr << "quickstart: " << error.what() << '\n';
    return 1;
  }
  return 0;
}

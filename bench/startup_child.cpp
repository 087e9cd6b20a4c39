#include "startup_child.hpp"

#include <chrono>
#include <cstdio>
#include <optional>

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {
namespace {

using Clock = std::chrono::steady_clock;

long long nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

}  // namespace

int run_startup_child(const std::string& plugins) {
  hxrt::RuntimeOptions options;
  if (plugins != "all") {
    options.use_installed_plugins = false;
    options.plugin_paths = {plugins};
  }
  const Clock::time_point created_at = Clock::now();
  std::optional<hxrt::Runtime> runtime;
  try {
    runtime.emplace(hxrt::Runtime::create(options));
  } catch (const hxrt::Error& error) {
    std::printf("-1 -1 Runtime::create failed: %s\n", error.what());
    return 1;
  }
  const long long create_ns = nanoseconds_since(created_at);
  const Clock::time_point op_at = Clock::now();
  try {
    hxrt::Tensor a = runtime->tensor<float>({2, 2}, {1, 2, 3, 4});
    hxrt::Tensor c = runtime->execute("MatMul", {a, a});
    if (c.to_vector<float>() != std::vector<float>{7, 10, 15, 22}) {
      std::printf("%lld -1 the MatMul's result is wrong\n", create_ns);
      return 0;
    }
  } catch (const hxrt::Error& error) {
    std::printf("%lld -1 %s\n", create_ns, error.what());
    return 0;
  }
  std::printf("%lld %lld\n", create_ns, nanoseconds_since(op_at));
  return 0;
}

}  // namespace hxrt_bench

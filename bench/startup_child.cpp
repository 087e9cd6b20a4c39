#include "startup_child.hpp"

#include <chrono>
#include <cstdio>
#include <optional>

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {
namespace {

using Clock = std::chrono::steady_clock;

long long nanoseconds(Clock::duration duration) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count();
}

}  // namespace

int run_startup_child(const std::string& plugins, Clock::time_point main_at) {
  const long long main_ns = nanoseconds(main_at.time_since_epoch());
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
    std::printf("%lld -1 -1 -1 Runtime::create failed: %s\n", main_ns, error.what());
    return 1;
  }
  const long long create_ns = nanoseconds(Clock::now() - created_at);
  const Clock::time_point op_at = Clock::now();
  const auto failed = [&](const char* why) {
    std::printf("%lld %lld -1 %lld %s\n", main_ns, create_ns,
                nanoseconds(Clock::now().time_since_epoch()), why);
    return 0;
  };
  try {
    hxrt::Tensor a = runtime->tensor<float>({2, 2}, {1, 2, 3, 4});
    hxrt::Tensor c = runtime->execute("MatMul", {a, a});
    if (c.to_vector<float>() != std::vector<float>{7, 10, 15, 22}) {
      return failed("the MatMul's result is wrong");
    }
  } catch (const hxrt::Error& error) {
    return failed(error.what());
  }
  const Clock::time_point done_at = Clock::now();
  std::printf("%lld %lld %lld %lld\n", main_ns, create_ns, nanoseconds(done_at - op_at),
              nanoseconds(done_at.time_since_epoch()));
  return 0;
}

}  // namespace hxrt_bench

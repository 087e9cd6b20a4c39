// Run under mpirun --enable-recovery (tests/cluster/CMakeLists.txt), with cluster.timeout_ms
// 1000: task 1 dies while task 0 runs a graph on it again and again. Task 0's run must end
// with an error naming task 1 within about the timeout, and task 0 must then end, without
// waiting for the dead task at its runtime's end.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "hxrt/hxrt.hpp"

namespace {

int fail(const std::string& why) {
  std::printf("task_dies: FAILED: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main() {
  using Clock = std::chrono::steady_clock;
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {HXRT_TEST_PLUGIN_DIR "/libhx_cpu.so"};
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  if (rt.cluster().rank == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    _exit(0);  // in the middle of the runs task 0 asks for: no goodbye
  }
  if (rt.cluster().rank != 0) return 0;
  const auto start = Clock::now();
  auto last_answer = start;
  int runs = 0;
  try {
    // Compiled in the try: on a loaded machine task 1 may die before its part is compiled.
    hxrt::GraphBuilder builder(rt);
    hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, hxrt::Shape{1024});
    builder.add("neg", "Neg", {x}, {}, "/job:worker/replica:0/task:1/device:CPU:0");
    hxrt::Executable executable = rt.compile(builder.build(), {{"neg", 0}});
    const hxrt::Tensor fed = rt.tensor<float>({1024}, std::vector<float>(1024, 1.0f));
    last_answer = Clock::now();
    for (;; ++runs) {
      if (Clock::now() - start > std::chrono::seconds(30)) return fail("task 1 never failed");
      if (executable.run({fed})[0].to_vector<float>()[0] != -1.0f) return fail("wrong result");
      last_answer = Clock::now();
    }
  } catch (const hxrt::Error& error) {
    const double waited = std::chrono::duration<double>(Clock::now() - last_answer).count();
    const std::string what = error.what();
    std::printf("after %d runs, %.2f s after the last answer: %s\n", runs, waited, what.c_str());
    if (error.code() != hxrt::StatusCode::kUnavailable) return fail("not kUnavailable");
    if (what.find("/job:worker/replica:0/task:1") == std::string::npos) {
      return fail("the error does not name task 1");
    }
    if (waited > 5.0) return fail("the error came later than the timeout of 1 s allows");
  }
  std::printf("task_dies: passed\n");
  std::fflush(stdout);
  return 0;
}

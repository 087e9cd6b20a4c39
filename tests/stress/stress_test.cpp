// Eight threads run many small ops on one runtime with the CPU plugin and a simulated device:
// Add, Relu and MatMul on 2x2 tensors and copies between the devices, each thread under a
// device scope, every result read back and compared exactly, and every result handed to the
// next thread, which checks it again and drops it. What it guards: the placement cache, the
// allocators' thread caches and the per-thread scopes under contention, and tensors freed on
// threads other than the one that made them (under ThreadSanitizer in CI, `ctest -L threads`).
//
// Ops per thread: HXRT_STRESS_OPS_PER_THREAD in the environment, else the build's default
// (kDefaultOpsPerThread below: set per build in CMakeLists.txt).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hxrt/runtime.hpp"
#include "mailbox.hpp"

namespace stress_test {
namespace {

constexpr int kThreads = 8;
constexpr long kDefaultOpsPerThread = HXRT_STRESS_OPS_PER_THREAD;
const char* const kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
const char* const kSim = "/job:localhost/replica:0/task:0/device:SIM:0";

long ops_per_thread() {
  const char* text = std::getenv("HXRT_STRESS_OPS_PER_THREAD");
  if (text == nullptr || *text == '\0') return kDefaultOpsPerThread;
  char* end = nullptr;
  const long count = std::strtol(text, &end, 10);
  if (*end != '\0' || count <= 0) {
    FAIL("HXRT_STRESS_OPS_PER_THREAD is '" << text << "'; set it to a positive whole number");
  }
  return count;
}

hxrt::Runtime cpu_and_sim_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options["sim"] = R"({"device_type": "SIM", "device_count": 1})";
  return hxrt::Runtime::create(options);
}

// What went wrong on the worker threads (Catch2's assertions are for the main thread only).
class Failures {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (messages_.size() < kKept) messages_.push_back(what);
    ++count_;
  }
  long count() const { return count_; }
  const std::vector<std::string>& first() const { return messages_; }

 private:
  static constexpr size_t kKept = 10;
  std::mutex mutex_;
  std::vector<std::string> messages_;
  long count_ = 0;
};

std::string describe(const std::vector<float>& values) {
  std::string text = "[";
  for (float value : values) text += (text.size() > 1 ? ", " : "") + std::to_string(value);
  return text + "]";
}

void check_parcel(const Parcel& parcel, const std::string& what, Failures& failures) {
  const std::vector<float> actual = parcel.tensor.to_vector<float>();
  if (actual != parcel.expected) {
    failures.add(what + ": expected " + describe(parcel.expected) + ", got " + describe(actual) +
                 " on " + parcel.tensor.device());
  }
}

// One op of thread `thread`'s step `step`, on the thread's scoped device `home` (copies go to
// `away`), with its expected result. Small whole numbers: every result is exact in float.
Parcel run_step(hxrt::Runtime& rt, int thread, long step, const char* home, const char* away,
                Failures& failures) {
  const float v = static_cast<float>((thread * 7 + step) % 16);
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {v, -v, 1, 2});
  Parcel result;
  const char* device = home;
  switch (step % 4) {
    case 0:
      result = {rt.execute("Add", {a, a}), {2 * v, -2 * v, 2, 4}};
      break;
    case 1:
      result = {rt.execute("Relu", {a}), {v, 0, 1, 2}};
      break;
    case 2:  // [[v, -v], [1, 2]] squared
      result = {rt.execute("MatMul", {a, a}), {v * v - v, -v * v - 2 * v, v + 2, 4 - v}};
      break;
    default:
      result = {rt.to_device(a, away), {v, -v, 1, 2}};
      device = away;
      break;
  }
  const std::string what = "thread " + std::to_string(thread) + " step " + std::to_string(step);
  if (result.tensor.device() != device) {
    failures.add(what + ": ran on " + result.tensor.device() + ", expected " + device);
  }
  check_parcel(result, what, failures);
  return result;
}

void run_thread(hxrt::Runtime& rt, int thread, long steps, Mailbox& inbox, Mailbox& next,
                Failures& failures) {
  try {
    // Half the threads work on the CPU, half on the simulated device, each under its scope.
    const bool on_cpu = thread % 2 == 0;
    const char* home = on_cpu ? kCpu : kSim;
    const char* away = on_cpu ? kSim : kCpu;
    const hxrt::DeviceScope scope = rt.device(home);
    for (long step = 0; step < steps; ++step) {
      next.post(run_step(rt, thread, step, home, away, failures));
      for (const Parcel& parcel : inbox.take_all()) {
        check_parcel(parcel, "handed to thread " + std::to_string(thread), failures);
      }  // the parcels, made on the previous thread, are dropped here
    }
  } catch (const std::exception& e) {
    failures.add("thread " + std::to_string(thread) + " threw: " + e.what());
  }
}

}  // namespace

TEST_CASE("eight threads run small ops on CPU and sim devices and hand tensors on") {
  const long steps = ops_per_thread();
  hxrt::Runtime rt = cpu_and_sim_runtime();
  REQUIRE(rt.devices().size() == 2);
  std::vector<Mailbox> mailboxes(kThreads);
  Failures failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back(run_thread, std::ref(rt), t, steps, std::ref(mailboxes[t]),
                         std::ref(mailboxes[(t + 1) % kThreads]), std::ref(failures));
  }
  for (std::thread& thread : threads) thread.join();
  for (Mailbox& mailbox : mailboxes) {
    for (const Parcel& parcel : mailbox.take_all()) {
      check_parcel(parcel, "left in a mailbox", failures);
    }
  }
  std::string first_failures;
  for (const std::string& message : failures.first()) first_failures += "\n  " + message;
  INFO(kThreads << " threads x " << steps << " ops; " << failures.count() << " failures"
                << first_failures);
  CHECK(failures.count() == 0);
  // Every tensor is gone: the devices' allocators hold nothing.
  CHECK(rt.memory_stats("CPU:0").bytes_in_use == 0);
  CHECK(rt.memory_stats("SIM:0").bytes_in_use == 0);
}

}  // namespace stress_test

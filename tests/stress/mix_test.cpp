// Everything a program may do at once on one runtime, for a while, with every value checked:
// eager ops, graph runs, simple and dynamic compiles (which measure and read the cost model),
// the timeline trace started and stopped, memory released, peaks reset and figures read,
// the cost model saved and given back, on the CPU and four sim GPUs (whose streams are worker
// threads). Under ThreadSanitizer in CI (`ctest -L threads`) it is the race detector's
// workload: each role below exercises state another role changes.
//
// Seconds: HXRT_MIX_SECONDS in the environment, else the build's default (CMakeLists.txt: 20
// under ThreadSanitizer, 5 elsewhere).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "hxrt/hxrt.hpp"
#include "temp_dir.hpp"

namespace {

constexpr int kGpus = 4;

double mix_seconds() {
  const char* text = std::getenv("HXRT_MIX_SECONDS");
  if (text == nullptr || *text == '\0') return HXRT_MIX_DEFAULT_SECONDS;
  return std::atof(text);
}

hxrt::Runtime cpu_and_gpus() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so"};
  options.plugin_options["sim"] =
      R"({"device_type": "GPU", "device_count": )" + std::to_string(kGpus) + "}";
  return hxrt::Runtime::create(options);
}

// What went wrong on the worker threads (Catch2's assertions are for the main thread only).
class Failures {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (first_.size() < 10) first_.push_back(what);
    ++count_;
  }
  long count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }
  std::string first() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string all;
    for (const std::string& line : first_) all += line + "\n";
    return all;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> first_;
  long count_ = 0;
};

std::string gpu(int index) { return "/GPU:" + std::to_string(index % kGpus); }

void expect(bool holds, const std::string& what, Failures& failures) {
  if (!holds) failures.add(what);
}

// x -> Relu -> Add(itself) -> MatMul with ones: each row of the result sums 2·relu(x) over the
// row, so any device order gives exact values for small integers.
hxrt::Graph small_graph(hxrt::Runtime& rt, hxrt::NodeOutput& out, const std::string& pin) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {2, 2});
  const hxrt::NodeOutput ones = builder.input("ones", hxrt::DType::kF32, {2, 2});
  const hxrt::NodeOutput relu = builder.add("relu", "Relu", {x}, {}, pin);
  const hxrt::NodeOutput twice = builder.add("twice", "Add", {relu, relu});
  out = builder.add("sum", "MatMul", {twice, ones});
  return builder.graph();
}

const std::vector<float> kX = {-1, 2, 3, -4};
const std::vector<float> kSums = {4, 4, 6, 6};  // rows: 2·(0 + 2), 2·(3 + 0)

void run_and_check(hxrt::Runtime& rt, const hxrt::Executable& exe, const std::string& who,
                   Failures& failures) {
  const std::vector<hxrt::Tensor> out =
      exe.run({{"x", rt.tensor<float>({2, 2}, kX)},
               {"ones", rt.tensor<float>({2, 2}, {1, 1, 1, 1})}});
  expect(out.size() == 1 && out[0].to_vector<float>() == kSums, who + ": wrong graph result",
         failures);
}

// One role: `step` again and again until `stop`; counts its steps.
void run_role(const std::string& name, std::atomic<bool>& stop, std::atomic<long>& steps,
              Failures& failures, const std::function<void(long)>& step) {
  long i = 0;
  try {
    for (; !stop.load(std::memory_order_relaxed); ++i) step(i);
  } catch (const std::exception& error) {
    failures.add(name + " threw at step " + std::to_string(i) + ": " + error.what());
  }
  steps += i;
}

}  // namespace

TEST_CASE("Eager ops, graph runs, compiles, traces and memory calls at once stay correct",
          "[stress][threads]") {
  hxrt::Runtime rt = cpu_and_gpus();
  hxrt_test::TempDir dir("hxrt_mix");
  Failures failures;
  std::atomic<bool> stop{false};
  std::atomic<long> steps{0};
  hxrt::CompileOptions dynamic;
  dynamic.placer = hxrt::GraphPlacer::kDynamic;

  std::vector<std::function<void(long)>> roles = {
      // Eager ops on every device, each result checked.
      [&](long i) {
        const std::string device = i % 2 == 0 ? "/CPU:0" : gpu(static_cast<int>(i));
        const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, device);
        const hxrt::Tensor sum = rt.execute("Add", {a, a}, {}, device);
        const hxrt::Tensor product = rt.execute("MatMul", {sum, a}, {}, device);
        expect(product.to_vector<float>() == std::vector<float>{14, 20, 30, 44},
               "eager MatMul on " + device, failures);
      },
      [&](long i) {
        const hxrt::Tensor a = rt.tensor<float>({4}, {-1, 2, -3, 4}, gpu(static_cast<int>(i)));
        const hxrt::Tensor moved = rt.to_device(rt.execute("Relu", {a}), "/CPU:0");
        expect(moved.to_vector<float>() == std::vector<float>{0, 2, 0, 4}, "eager Relu + copy",
               failures);
      },
      // One executable of the simple placer, run again and again, and compiled anew.
      [&, exe = std::optional<hxrt::Executable>()](long i) mutable {
        if (!exe || i % 50 == 0) {
          hxrt::NodeOutput out;
          const hxrt::Graph graph = small_graph(rt, out, gpu(static_cast<int>(i)));
          exe = rt.compile(graph, {out});
        }
        run_and_check(rt, *exe, "simple graph", failures);
      },
      // The dynamic placer: compiles that calibrate and read the cost model while runs add
      // to it, and compiles given a saved model.
      [&, exe = std::optional<hxrt::Executable>()](long i) mutable {
        if (!exe || i % 20 == 0) {
          hxrt::NodeOutput out;
          const hxrt::Graph graph = small_graph(rt, out, "");
          hxrt::CompileOptions options = dynamic;
          if (i % 40 == 0) options.cost_model_json = rt.cost_model_json();
          exe = rt.compile(graph, {out}, options);
          hxrt::placement_from_json(hxrt::placement_to_json(exe->placement_map()));
        }
        run_and_check(rt, *exe, "dynamic graph", failures);
      },
      [&](long) {
        hxrt::NodeOutput out;
        const hxrt::Graph graph = small_graph(rt, out, "");
        run_and_check(rt, rt.compile(graph, {out}, dynamic), "fresh dynamic graph", failures);
      },
      // The trace, started and stopped while the others record into it.
      [&](long i) {
        const std::string path =
            (dir.path() / ("trace" + std::to_string(i % 4) + ".json")).string();
        rt.start_trace(path);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        expect(rt.stop_trace() == path, "stop_trace returns the path", failures);
      },
      // Memory: regions given back, peaks reset, figures read.
      [&](long i) {
        const std::string device = i % 2 == 0 ? "CPU:0" : "GPU:" + std::to_string(i % kGpus);
        rt.release_unused_memory(i % 3 == 0 ? std::string() : device);
        rt.reset_peak_memory(device);
        rt.memory_stats(device);  // racy figures by design (bfc_allocator.hpp): read, not checked
        for (const hxrt::DeviceInfo& info : rt.devices()) {
          expect(!info.memory_free || !info.memory_total || *info.memory_free <= info.memory_total,
                 "free memory within the total on " + info.name, failures);
        }
      },
      // The cost model, saved and loaded back while compiles read it and runs write it.
      [&](long) {
        const std::string saved = rt.cost_model_json();
        expect(nlohmann::json::parse(saved).at("format") == "hxrt cost model",
               "cost model JSON", failures);
        rt.load_cost_model_json(saved);
      },
  };
  const char* names[] = {"eager", "eager copies", "simple graph", "dynamic graph",
                         "dynamic compile", "trace", "memory", "cost model"};

  std::vector<std::thread> threads;
  for (size_t r = 0; r < roles.size(); ++r) {
    threads.emplace_back([&, r] { run_role(names[r], stop, steps, failures, roles[r]); });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(mix_seconds()));
  stop = true;
  for (std::thread& thread : threads) thread.join();
  rt.stop_trace();

  INFO(failures.first());
  CHECK(failures.count() == 0);
  CHECK(steps.load() > static_cast<long>(roles.size()));
}

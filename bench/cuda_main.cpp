// hxrt_cuda_bench: the runtime on a GPU against raw CUDA and cuBLAS in the same process (GEMM
// throughput, copy bandwidth, per-op host overhead, a replayed graph of tiny ops), then the
// ratios. Without a GPU it says
// why and exits 0, so that it can run on any machine the project builds on.
#include <iostream>
#include <string>
#include <vector>

#include "bench_run.hpp"
#include "cuda_copy_bench.hpp"
#include "cuda_gemm_bench.hpp"
#include "cuda_graph_bench.hpp"
#include "cuda_launch_bench.hpp"
#include "cuda_support.hpp"
#include "hxrt/hxrt.hpp"

namespace {

// The CPU and CUDA plugins of this build, and nothing else.
hxrt::Runtime make_runtime() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_BENCH_PLUGIN_DIR) + "/libhx_cpu.so",
                          std::string(HXRT_BENCH_PLUGIN_DIR) + "/libhx_cuda.so"};
  return hxrt::Runtime::create(options);
}

// Empty when the runtime has a GPU:0 and this program's CUDA runtime sees a device; else why
// not.
std::string why_no_gpu(const hxrt::Runtime& runtime) {
  const hxrt::PluginReport* cuda = nullptr;
  for (const hxrt::PluginReport& report : runtime.load_report()) {
    if (report.loaded && report.name == "cuda") cuda = &report;
  }
  if (cuda == nullptr) {
    std::string why = "the CUDA plugin did not load";
    for (const hxrt::PluginReport& report : runtime.load_report()) {
      if (!report.loaded) why += "; " + report.path + ": " + report.reason;
    }
    return why;
  }
  if (cuda->device_count == 0) return cuda->note.empty() ? "the CUDA plugin has none" : cuda->note;
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(error);
  return count > 0 ? "" : "cudaGetDeviceCount found none";
}

}  // namespace

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv)) return 2;

  return hxrt_bench::run_program("hxrt_cuda_bench", [&] {
    hxrt::Runtime runtime = make_runtime();
    if (const std::string why = why_no_gpu(runtime); !why.empty()) {
      std::cout << "no CUDA device: " << why << '\n';
      return;
    }
    hxrt_bench::register_cuda_gemm_benchmarks(runtime);
    hxrt_bench::register_cuda_copy_benchmarks(runtime);
    hxrt_bench::register_cuda_launch_benchmarks(runtime);
    hxrt_bench::register_cuda_graph_benchmarks(runtime);
    using namespace hxrt_bench;
    std::vector<RatioBudget> budgets = {
        {"f32 GEMM 8192 TFLOP/s", kGemmF32Runtime, kGemmF32Direct, true, 0.98},
        {"bf16 GEMM 8192 TFLOP/s", kGemmBF16Runtime, kGemmBF16Direct, true, 0.98},
        // Issue 32: uploads from page-locked memory at 0.95x of the raw copy, from pageable
        // memory at least as fast as the driver's own staging (what PyTorch's .to("cuda")
        // is); downloads held to 0.90x, since the runtime adds nothing to them.
        {"h2d pinned bandwidth", kH2DPinnedRuntime, kH2DPinnedDirect, true, 0.95},
        {"h2d pageable bandwidth", kH2DPageableRuntime, kH2DPageableDirect, true, 1.0},
        {"d2h pinned bandwidth", kD2HPinnedRuntime, kD2HPinnedDirect, true, 0.90},
        {"d2h pageable bandwidth", kD2HPageableRuntime, kD2HPageableDirect, true, 0.90},
        // Issue 32: eager launch at most 1.2x a direct launch; a graph of tiny ops replayed
        // at most 0.3x eager per node, and at most 1.5 us per node where PyTorch's CUDA graph
        // took 1.17 us: 1.28x of a CUDA graph of the same kernels.
        {"256-float Add host time", kSmallAddRuntime, kSmallAddDirect, false, 1.2},
        {"Add chain node, graph over eager", kCudaChainGraph, kCudaChainEager, false, 0.3},
        {"Add chain node, graph over CUDA graph", kCudaChainGraph, kCudaChainDirectGraph,
         false, 1.28},
        // Issue 32 asks under 50 us absolute; the ratio shows what cuBLAS itself takes.
        {"8192 MatMul return time", kGemmReturnRuntime, kGemmReturnDirect, false, 1.2}};
    for (const UploadSweepPoint& point : upload_sweep()) {
      budgets.push_back({point.label.c_str(), point.runtime_name.c_str(),
                         point.direct_name.c_str(), true, point.pinned ? 0.95 : 1.0});
    }
    run_and_report(budgets);
  });
}

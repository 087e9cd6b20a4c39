// hxrt_blas_cores: one measurement of bench/blas_cores.sh per process, since OpenBLAS keeps one
// core (kernel set) per process, chosen at load from OPENBLAS_CORETYPE or the CPU's identity.
//
//   hxrt_blas_cores cores       the OpenBLAS cores this CPU can run and the loaded OpenBLAS
//                               holds, one per line (the CPU plugin's list)
//   hxrt_blas_cores openblas N  an N x N x N SGEMM through cblas_sgemm: "<core> <GFLOP/s>"
//   hxrt_blas_cores blis N      the same through BLIS (libblis.so.4, opened at run time):
//                               "BLIS:<its configuration> <GFLOP/s>"
//   hxrt_blas_cores plugin N    MatMul N x N through Runtime::execute on the CPU plugin alone:
//                               "<the core in use after the plugin's init> <GFLOP/s>"
//
// GFLOP/s is the median over the calls of one second (at least three), after one call to warm
// up.
#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "blas/openblas_cores.hpp"
#include "blas/openblas_dynamic.hpp"
#include "hxrt/hxrt.hpp"

namespace {

std::vector<float> random_matrix(int64_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> values(static_cast<size_t>(n * n));
  for (float& value : values) value = uniform(engine);
  return values;
}

double median_gflops(int64_t n, const std::function<void()>& multiply) {
  using Clock = std::chrono::steady_clock;
  multiply();
  std::vector<double> seconds;
  const Clock::time_point start = Clock::now();
  while (seconds.size() < 3 || Clock::now() - start < std::chrono::seconds(1)) {
    const Clock::time_point before = Clock::now();
    multiply();
    seconds.push_back(std::chrono::duration<double>(Clock::now() - before).count());
  }
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  return 2.0 * static_cast<double>(n) * n * n / seconds[seconds.size() / 2] / 1e9;
}

int list_cores() {
  std::string why_not;
  const std::optional<hxcpu::OpenBlasDynamic> openblas = hxcpu::OpenBlasDynamic::find(&why_not);
  if (!openblas) {
    std::fprintf(stderr, "no core to choose: %s\n", why_not.c_str());
    return 1;
  }
  const uint32_t features = hxcpu::cpu_features();
  for (const hxcpu::OpenBlasCore& core : hxcpu::openblas_cores()) {
    if (hxcpu::missing_features(core, features).empty() && openblas->holds(core)) {
      std::printf("%s\n", core.name);
    }
  }
  return 0;
}

int openblas_sgemm(int64_t n) {
  const std::vector<float> a = random_matrix(n, 1), b = random_matrix(n, 2);
  std::vector<float> c(a.size());
  const int dim = static_cast<int>(n);
  const double gflops = median_gflops(n, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, dim, dim, dim, 1.0f, a.data(), dim,
                b.data(), dim, 0.0f, c.data(), dim);
  });
  std::printf("%s %.1f\n", openblas_get_corename(), gflops);
  return 0;
}

// BLIS's typed API (docs/BLISTypedAPI.md), declared here so that the build needs no BLIS:
// dim_t and inc_t are 64-bit in Debian's build, trans_t 0 is BLIS_NO_TRANSPOSE. Its own entry
// point rather than its cblas_sgemm, which the process's OpenBLAS would interpose.
using BliSgemm = void (*)(int, int, int64_t, int64_t, int64_t, const float*, const float*,
                          int64_t, int64_t, const float*, int64_t, int64_t, const float*, float*,
                          int64_t, int64_t);
using BliArchQuery = int (*)();
using BliArchString = const char* (*)(int);

int blis_sgemm(int64_t n) {
  void* blis = dlopen("libblis.so.4", RTLD_NOW | RTLD_LOCAL);
  if (blis == nullptr) {
    std::fprintf(stderr, "BLIS is not installed: %s\n", dlerror());
    return 1;
  }
  const auto sgemm = reinterpret_cast<BliSgemm>(dlsym(blis, "bli_sgemm"));
  const auto arch_id = reinterpret_cast<BliArchQuery>(dlsym(blis, "bli_arch_query_id"));
  const auto arch_name = reinterpret_cast<BliArchString>(dlsym(blis, "bli_arch_string"));
  if (sgemm == nullptr || arch_id == nullptr || arch_name == nullptr) {
    std::fprintf(stderr, "libblis.so.4 lacks bli_sgemm or bli_arch_query_id\n");
    return 1;
  }
  const std::vector<float> a = random_matrix(n, 1), b = random_matrix(n, 2);
  std::vector<float> c(a.size());
  const float one = 1, zero = 0;
  const double gflops = median_gflops(n, [&] {
    sgemm(0, 0, n, n, n, &one, a.data(), n, 1, b.data(), n, 1, &zero, c.data(), n, 1);
  });
  std::printf("BLIS:%s %.1f\n", arch_name(arch_id()), gflops);
  return 0;
}

int plugin_matmul(int64_t n) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_BENCH_PLUGIN_DIR) + "/libhx_cpu.so"};
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  const hxrt::Tensor a = runtime.tensor<float>({n, n}, random_matrix(n, 1));
  const hxrt::Tensor b = runtime.tensor<float>({n, n}, random_matrix(n, 2));
  const double gflops =
      median_gflops(n, [&] { hxrt::Tensor c = runtime.execute("MatMul", {a, b}); });
  // The plugin's OpenBLAS is this program's: one library per process.
  std::printf("%s %.1f\n", openblas_get_corename(), gflops);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const int64_t n = argc > 2 ? std::strtoll(argv[2], nullptr, 10) : 0;
  try {
    if (mode == "cores" && argc == 2) return list_cores();
    if (n > 0 && n <= 16384 && argc == 3) {
      if (mode == "openblas") return openblas_sgemm(n);
      if (mode == "blis") return blis_sgemm(n);
      if (mode == "plugin") return plugin_matmul(n);
    }
  } catch (const hxrt::Error& error) {
    std::fprintf(stderr, "hxrt_blas_cores: %s\n", error.what());
    return 1;
  }
  std::fprintf(stderr, "usage: %s cores | {openblas|blis|plugin} N (1 to 16384)\n", argv[0]);
  return 2;
}

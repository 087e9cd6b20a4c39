// execution.intra_op_threads reaches OpenBLAS through the CPU plugin. The core loads the
// plugin with RTLD_LOCAL, but a library is loaded once per process (by its soname), so the
// plugin's OpenBLAS is the one this test links, and openblas_get_num_threads here reads what
// the plugin set. The test checks that sharing first rather than assuming it.
#include <catch2/catch.hpp>
#include <cblas.h>
#include <link.h>

#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hxrt/hxrt.hpp>

namespace {

// A runtime of the CPU plugin alone, keeping the warnings it logs in `warnings` (if given).
hxrt::Runtime cpu_runtime(std::optional<int> intra_op_threads,
                          std::vector<std::string>* warnings = nullptr) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  options.intra_op_threads = intra_op_threads;
  options.log_sink = [warnings](hxrt::LogLevel level, std::string_view text) {
    if (warnings != nullptr && level == hxrt::LogLevel::kWarning) {
      warnings->emplace_back(text);
    }
  };
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  REQUIRE(runtime.load_report().size() == 1);
  REQUIRE(runtime.load_report().front().loaded);
  return runtime;
}

// How many OpenBLAS libraries the process has loaded.
int openblas_copies() {
  int copies = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* count) {
        if (std::string(info->dlpi_name).find("libopenblas") != std::string::npos) {
          ++*static_cast<int*>(count);
        }
        return 0;
      },
      &copies);
  return copies;
}

// A 64x64 MatMul on CPU:0 gives what the loops give, whatever OpenBLAS's threads.
void check_matmul(hxrt::Runtime& runtime) {
  constexpr int kN = 64;
  std::vector<float> a(kN * kN), b(kN * kN);
  for (int i = 0; i < kN * kN; ++i) {
    a[i] = static_cast<float>(i % 7) - 3.0f;
    b[i] = static_cast<float>(i % 5) - 2.0f;
  }
  const hxrt::Tensor c = runtime.execute("MatMul", {runtime.tensor<float>({kN, kN}, a),
                                                    runtime.tensor<float>({kN, kN}, b)});
  const std::vector<float> got = c.to_vector<float>();
  for (int row = 0; row < kN; ++row) {
    for (int column = 0; column < kN; ++column) {
      float expected = 0;
      for (int k = 0; k < kN; ++k) expected += a[row * kN + k] * b[k * kN + column];
      REQUIRE(got[row * kN + column] == expected);  // small integers: exact in float
    }
  }
}

}  // namespace

TEST_CASE("the CPU plugin gives OpenBLAS intra_op_threads, and leaves it as it is for 0") {
  if (openblas_get_parallel() == 0) {
    std::cout << "skipped: this OpenBLAS is the sequential build, which has no threads to set\n";
    return;
  }
  {
    hxrt::Runtime runtime = cpu_runtime(3);
    REQUIRE(openblas_copies() == 1);
    CHECK(openblas_get_num_threads() == 3);
    check_matmul(runtime);
  }
  {
    hxrt::Runtime runtime = cpu_runtime(1);
    CHECK(openblas_get_num_threads() == 1);
    check_matmul(runtime);
  }
  // 0 and unset leave OpenBLAS's count alone: here, what the last runtime set.
  cpu_runtime(0);
  CHECK(openblas_get_num_threads() == 1);
  cpu_runtime(std::nullopt);
  CHECK(openblas_get_num_threads() == 1);
}

// The build links OpenBLAS's OpenMP build where Debian's libopenblas-openmp-dev is installed
// (the test's RUNPATH and the plugin's name its folder), so that OpenBLAS's threads are
// OpenMP's, which oneDNN's kernels run on too, and the plugin has nothing to warn of.
TEST_CASE("the CPU plugin's OpenBLAS runs on OpenMP's threads, as oneDNN does") {
  if (openblas_get_parallel() != OPENBLAS_OPENMP) {
    std::cout << "skipped: this build links an OpenBLAS that is not the OpenMP build (install "
                 "libopenblas-openmp-dev and configure again)\n";
    return;
  }
  std::vector<std::string> warnings;
  hxrt::Runtime runtime = cpu_runtime(2, &warnings);
  REQUIRE(openblas_copies() == 1);
  CHECK(warnings.empty());
  check_matmul(runtime);
}

// Run with LD_LIBRARY_PATH naming the pthreads build's folder (tests/cpu/CMakeLists.txt), which
// the loader then takes before the RUNPATHs: the plugin warns that its threads are not
// OpenMP's, unless it runs on one thread.
TEST_CASE("the CPU plugin warns when OpenBLAS is its pthreads build", "[.pthreads]") {
  REQUIRE(openblas_get_parallel() == OPENBLAS_THREAD);
  std::vector<std::string> warnings;
  {
    hxrt::Runtime runtime = cpu_runtime(2, &warnings);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("OpenBLAS here is its pthreads build") &&
                                Catch::Contains("libopenblas-openmp-dev"));
    check_matmul(runtime);
  }
  warnings.clear();
  cpu_runtime(1, &warnings);
  CHECK(warnings.empty());
}

// The CUDA plugin's kernels on cuDNN (Conv, FusedConv, the pools, BatchNormalization) and
// cuBLASLt (FusedGemm) called through what the plugin registered: the libraries are loaded by
// the first create that needs them and not before, a library that cannot be loaded is reported
// with what to install, and create and check decline, with their reasons, what the libraries
// cannot compute (the placer then falls back to the CPU). None of it needs a GPU; where cuDNN
// itself is not installed, the cases that need it say so and skip.
#include <hxrt/plugin_vocabulary.h>

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <string>
#include <vector>

#include "cublaslt_library.hpp"
#include "cudnn_library.hpp"
#include "kernel_env.hpp"
#include "plugin_direct.hpp"

using Catch::Matchers::Contains;
using cuda_direct::Attributes;
using cuda_direct::DirectPlugin;
using cuda_direct::Outcome;
using cuda_direct::require_ok;
using hxrt_test::KernelInstance;
using hxrt_test::PluginHost;
using hxrt_test::View;

namespace library_kernels_direct {

bool is_loaded(const char* soname) {
  void* library = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) return false;
  dlclose(library);
  return true;
}

// A view of `shape` with no buffer, as check sees them (dense unless `strides` are given).
View shaped(std::vector<int64_t> shape, int32_t dtype = HX_DTYPE_F32,
            std::vector<int64_t> strides = {}) {
  return View(nullptr, 0, nullptr, std::move(shape), std::move(strides), dtype);
}

// An instance of `op` for float32 (or `dtype`) inputs; skips the test case (returning false)
// where the plugin declined it because its library cannot be loaded here.
bool made(const KernelInstance& instance, const char* op) {
  const Outcome& created = instance.created();
  if (created.code == HX_UNIMPLEMENTED &&
      created.message.find("cannot load") != std::string::npos) {
    WARN("skipped: " << op << "'s library is not installed here (" << created.message << ")");
    return false;
  }
  require_ok(created);
  return true;
}

// check of one call of a made instance, expecting a decline whose reason contains `reason`.
void check_declines(KernelInstance& instance, const std::vector<View>& inputs,
                    const std::vector<View>& outputs, const std::string& reason) {
  const Outcome declined = instance.check(nullptr, inputs, outputs);
  CHECK(declined.code == HX_UNIMPLEMENTED);
  CHECK_THAT(declined.message, Contains(reason));
}

const std::vector<int32_t> kF32x2 = {HX_DTYPE_F32, HX_DTYPE_F32};
const std::vector<int32_t> kF32x3 = {HX_DTYPE_F32, HX_DTYPE_F32, HX_DTYPE_F32};
const std::vector<int32_t> kF32 = {HX_DTYPE_F32};

}  // namespace library_kernels_direct

using namespace library_kernels_direct;

TEST_CASE("Directly: cuDNN and cuBLASLt are loaded by the first create that needs them",
          "[cuda][kernels][direct]") {
  // Another test case in this process may have loaded them already; only a process that had
  // not can see that loading the plugin does not.
  const bool cudnn_before = is_loaded(HXRT_CUDNN_SONAME);
  const bool cublaslt_before = is_loaded(HXRT_CUBLASLT_SONAME);
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  Outcome counted;
  plugin.device_count(&counted);
  if (!cudnn_before) CHECK_FALSE(is_loaded(HXRT_CUDNN_SONAME));
  if (!cublaslt_before) CHECK_FALSE(is_loaded(HXRT_CUBLASLT_SONAME));
  KernelInstance conv(plugin.kernel("Conv"), nullptr, kF32x2, kF32);
  if (made(conv, "Conv")) CHECK(is_loaded(HXRT_CUDNN_SONAME));
  KernelInstance gemm(plugin.kernel("FusedGemm"), nullptr, kF32x2, kF32);
  if (made(gemm, "FusedGemm")) CHECK(is_loaded(HXRT_CUBLASLT_SONAME));
}

TEST_CASE("Directly: a cuDNN that cannot be loaded or used is reported with what to install",
          "[cuda][kernels][direct]") {
  const hxcuda::CudnnLoad missing = hxcuda::load_cudnn("libcudnn_hxrt_test_missing.so.9");
  CHECK_FALSE(missing.ok);
  CHECK_THAT(missing.why, Contains("cannot load cuDNN: libcudnn_hxrt_test_missing.so.9") &&
                              Contains("install cuDNN 9 for CUDA"));
  // A library that opens but is not cuDNN: the first function it lacks is named.
  const hxcuda::CudnnLoad other = hxcuda::load_cudnn("libc.so.6");
  CHECK_FALSE(other.ok);
  CHECK_THAT(other.why, Contains("cuDNN (libc.so.6) lacks cudnnGetVersion"));
}

TEST_CASE("A cuDNN or cuBLASLt failure is a status naming the call and the status",
          "[cuda][errors]") {
  const hx_core_services& services = PluginHost::services();
  const hxcuda::CudnnLoad cudnn = hxcuda::load_cudnn(HXRT_CUDNN_SONAME);
  if (!cudnn.ok) {
    WARN("skipped: cuDNN is not installed here (" << cudnn.why << ")");
  } else {
    const hxcuda::CudnnLibrary& library = cudnn.functions;
    CHECK(hxcuda::cudnn_error(services, library, CUDNN_STATUS_SUCCESS, "cudnnCreate") == nullptr);
    const Outcome bad = DirectPlugin::outcome(hxcuda::cudnn_error(
        services, library, CUDNN_STATUS_BAD_PARAM, "cudnnSetTensorNdDescriptor"));
    CHECK(bad.code == HX_INTERNAL);
    CHECK_THAT(bad.message,
               Catch::Matchers::StartsWith("cudnnSetTensorNdDescriptor: CUDNN_STATUS_BAD_PARAM"));
    const Outcome memory = DirectPlugin::outcome(
        hxcuda::cudnn_error(services, library, CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED,
                            "cudnnConvolutionForward"));
    CHECK(memory.code == HX_OUT_OF_MEMORY);
  }
  const char* why = nullptr;
  const hxcuda::CublasLtLibrary* cublaslt = hxcuda::cublaslt_library(&why);
  if (cublaslt == nullptr) {
    WARN("skipped: cuBLASLt is not installed here (" << why << ")");
    return;
  }
  const Outcome unsupported = DirectPlugin::outcome(
      hxcuda::cublaslt_error(services, *cublaslt, CUBLAS_STATUS_NOT_SUPPORTED, "cublasLtMatmul"));
  CHECK(unsupported.code == HX_INTERNAL);
  CHECK_THAT(unsupported.message,
             Catch::Matchers::StartsWith("cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED: "));
}

TEST_CASE("Directly: Conv's check takes the pads cuDNN can give and declines the others",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  {
    Attributes symmetric;
    symmetric.int_lists["pads"] = {1, 1, 1, 1};
    KernelInstance conv(plugin.kernel("Conv"), nullptr, kF32x3, kF32, symmetric);
    if (!made(conv, "Conv")) return;
    require_ok(conv.check(nullptr, {shaped({1, 2, 5, 5}), shaped({3, 2, 3, 3}), shaped({3})},
                          {shaped({1, 3, 5, 5})}));
  }
  {
    // Padded by 1 at the start and 0 at the end: cuDNN's 1 at both ends gives one output more
    // (7 + 2 - 3) / 2 + 1 = 4 than ONNX's (7 + 1 - 3) / 2 + 1 = 3.
    Attributes asymmetric;
    asymmetric.int_lists["pads"] = {1, 0, 0, 1};
    asymmetric.int_lists["strides"] = {2, 2};
    KernelInstance conv(plugin.kernel("Conv"), nullptr, kF32x2, kF32, asymmetric);
    REQUIRE(made(conv, "Conv"));
    check_declines(conv, {shaped({1, 2, 7, 6}), shaped({2, 2, 3, 3})}, {shaped({1, 2, 3, 3})},
                   "Conv on GPU: spatial axis 0 gives 3 outputs, padded by 1 at its start and "
                   "0 at its end; cuDNN pads both ends alike (by 1) and drops a last window "
                   "that does not fit, which gives 4");
    // An end padding no window reaches: (6 + 1 - 3) / 2 + 1 = 3 either way, so taken.
    require_ok(
        conv.check(nullptr, {shaped({1, 2, 6, 7}), shaped({2, 2, 3, 3})}, {shaped({1, 2, 3, 3})}));
  }
  {
    KernelInstance conv(plugin.kernel("Conv"), nullptr, kF32x2, kF32);
    REQUIRE(made(conv, "Conv"));
    check_declines(conv, {shaped({1, 1, 2, 2, 2, 2}), shaped({1, 1, 1, 1, 1, 1})},
                   {shaped({1, 1, 2, 2, 2, 2})}, "Conv on GPU: cuDNN takes tensors of rank 3 to 5");
    // Strided inputs (which the core never passes to Conv) are declined, not misread.
    check_declines(conv, {shaped({1, 1, 4, 4}, HX_DTYPE_F32, {32, 32, 8, 2}), shaped({1, 1, 3, 3})},
                   {shaped({1, 1, 2, 2})}, "the cuDNN kernel takes dense tensors only");
    // 1-D and 3-D, as cuDNN's 2-D of height 1 and its own 3-D.
    require_ok(conv.check(nullptr, {shaped({2, 3, 10}), shaped({4, 3, 3})}, {shaped({2, 4, 8})}));
    require_ok(conv.check(nullptr, {shaped({1, 2, 4, 5, 4}), shaped({3, 2, 2, 3, 2})},
                          {shaped({1, 3, 3, 3, 3})}));
  }
  {
    // FusedConv's check is Conv's.
    KernelInstance fused(plugin.kernel("FusedConv"), nullptr, kF32x3, kF32);
    REQUIRE(made(fused, "FusedConv"));
    require_ok(fused.check(nullptr, {shaped({1, 2, 5, 5}), shaped({3, 2, 3, 3}), shaped({3})},
                           {shaped({1, 3, 3, 3})}));
  }
}

TEST_CASE("Directly: the pools decline Indices, dilations and pads cuDNN cannot give",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  Attributes window;
  window.int_lists["kernel_shape"] = {3, 3};
  window.int_lists["strides"] = {2, 2};
  {
    // Declined before cuDNN is loaded, as the dilations below: no library is needed to know.
    const KernelInstance indices(plugin.kernel("MaxPool"), nullptr, kF32,
                                 {HX_DTYPE_F32, HX_DTYPE_I64}, window);
    CHECK(indices.created().code == HX_UNIMPLEMENTED);
    CHECK_THAT(indices.created().message,
               Contains("MaxPool on GPU: cuDNN's pooling does not give Indices"));
  }
  for (const char* op : {"MaxPool", "AveragePool"}) {
    INFO(op);
    Attributes dilated = window;
    dilated.int_lists["dilations"] = {2, 1};
    const KernelInstance pool(plugin.kernel(op), nullptr, kF32, kF32, dilated);
    CHECK(pool.created().code == HX_UNIMPLEMENTED);
    CHECK_THAT(pool.created().message, Contains("cuDNN's pooling has no dilations (got 2)"));
  }
  for (const char* op : {"MaxPool", "AveragePool"}) {
    INFO(op);
    KernelInstance pool(plugin.kernel(op), nullptr, kF32, kF32, window);
    REQUIRE(made(pool, op));
    require_ok(pool.check(nullptr, {shaped({1, 2, 7, 7})}, {shaped({1, 2, 3, 3})}));
    Attributes same_upper = window;
    same_upper.int_lists["pads"] = {0, 0, 1, 1};  // what SAME_UPPER gives 8 x 8 here
    KernelInstance padded(plugin.kernel(op), nullptr, kF32, kF32, same_upper);
    REQUIRE(made(padded, op));
    check_declines(padded, {shaped({1, 2, 8, 8})}, {shaped({1, 2, 4, 4})},
                   "gives 4 outputs, padded by 0 at its start and 1 at its end; cuDNN pads "
                   "both ends alike (by 0) and drops a last window that does not fit, which "
                   "gives 3");
  }
  for (const char* op : {"GlobalMaxPool", "GlobalAveragePool"}) {
    INFO(op);
    KernelInstance pool(plugin.kernel(op), nullptr, kF32, kF32);
    REQUIRE(made(pool, op));
    require_ok(pool.check(nullptr, {shaped({2, 3, 5})}, {shaped({2, 3, 1})}));
    require_ok(pool.check(nullptr, {shaped({2, 3, 4, 5, 6})}, {shaped({2, 3, 1, 1, 1})}));
  }
}

TEST_CASE("Directly: BatchNormalization declines statistics beyond the workspace",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  const auto views = [](int64_t channels, int32_t dtype) {
    std::vector<View> inputs = {shaped({2, channels, 3}, dtype)};
    for (int i = 0; i < 4; ++i) inputs.push_back(shaped({channels}, dtype));
    return inputs;
  };
  const auto outputs = [](int64_t channels, int32_t dtype) {
    return std::vector<View>{shaped({2, channels, 3}, dtype), shaped({channels}, dtype),
                             shaped({channels}, dtype)};
  };
  // f16's statistics are widened to 4 f32 vectors of C in the 4 MiB workspace: 262,144
  // channels fit, one more does not. f32's are read where they are.
  const std::vector<int32_t> half(5, HX_DTYPE_F16);
  KernelInstance f16(plugin.kernel("BatchNormalization"), nullptr, half,
                     {HX_DTYPE_F16, HX_DTYPE_F16, HX_DTYPE_F16});
  if (!made(f16, "BatchNormalization")) return;
  require_ok(f16.check(nullptr, views(262144, HX_DTYPE_F16), outputs(262144, HX_DTYPE_F16)));
  check_declines(f16, views(262145, HX_DTYPE_F16), outputs(262145, HX_DTYPE_F16),
                 "the f32 statistics of 262145 channels do not fit");
  const std::vector<int32_t> single(5, HX_DTYPE_F32);
  KernelInstance f32(plugin.kernel("BatchNormalization"), nullptr, single,
                     {HX_DTYPE_F32, HX_DTYPE_F32, HX_DTYPE_F32});
  REQUIRE(made(f32, "BatchNormalization"));
  require_ok(f32.check(nullptr, views(262145, HX_DTYPE_F32), outputs(262145, HX_DTYPE_F32)));
  // Rank 2 ([N, C]) and rank 6 (any rank: the spatial axes are one for cuDNN).
  require_ok(f32.check(nullptr,
                       {shaped({4, 3}), shaped({3}), shaped({3}), shaped({3}), shaped({3})},
                       {shaped({4, 3}), shaped({3}), shaped({3})}));
  require_ok(f32.check(
      nullptr, {shaped({1, 3, 2, 2, 2, 2}), shaped({3}), shaped({3}), shaped({3}), shaped({3})},
      {shaped({1, 3, 2, 2, 2, 2}), shaped({3}), shaped({3})}));
}

TEST_CASE("Directly: FusedGemm takes C as a bias of the columns or a matrix, and declines the rest",
          "[cuda][kernels][direct]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  const std::vector<View> product = {shaped({3, 4}), shaped({4, 5})};
  const auto with_c = [&](std::vector<int64_t> c) {
    std::vector<View> inputs = product;
    inputs.push_back(shaped(std::move(c)));
    return inputs;
  };
  const std::vector<View> y = {shaped({3, 5})};
  {
    KernelInstance gemm(plugin.kernel("FusedGemm"), nullptr, kF32x3, kF32);
    if (!made(gemm, "FusedGemm")) return;
    require_ok(gemm.check(nullptr, with_c({5}), y));
    require_ok(gemm.check(nullptr, with_c({1, 5}), y));
    require_ok(gemm.check(nullptr, with_c({3, 5}), y));
    check_declines(gemm, with_c({3, 1}), y,
                   "FusedGemm on GPU: C of shape [3, 1] with beta 1; cuBLASLt adds a vector of "
                   "the output's columns ([N] or [1, N], with beta 1) or a matrix of its shape "
                   "[3, 5]");
    check_declines(gemm, with_c({1}), y, "C of shape [1] with beta 1");
    check_declines(gemm, {shaped({3, 0}), shaped({0, 5}), shaped({3, 5})}, y,
                   "a product of K = 0 with a matrix C");
    require_ok(gemm.check(nullptr, {shaped({3, 0}), shaped({0, 5}), shaped({5})}, y));
  }
  {
    Attributes half_beta;
    half_beta.floats["beta"] = 0.5;
    KernelInstance gemm(plugin.kernel("FusedGemm"), nullptr, kF32x3, kF32, half_beta);
    REQUIRE(made(gemm, "FusedGemm"));
    check_declines(gemm, with_c({5}), y, "C of shape [5] with beta 0.5");
    require_ok(gemm.check(nullptr, with_c({3, 5}), y));  // cuBLASLt's C, scaled by beta
  }
  {
    Attributes no_beta;
    no_beta.floats["beta"] = 0.0;  // C is not read at all, whatever its shape
    KernelInstance gemm(plugin.kernel("FusedGemm"), nullptr, kF32x3, kF32, no_beta);
    REQUIRE(made(gemm, "FusedGemm"));
    require_ok(gemm.check(nullptr, with_c({3, 1}), y));
  }
  // float64 is the CPU's.
  const KernelInstance f64(plugin.kernel("FusedGemm"), nullptr, {HX_DTYPE_F64, HX_DTYPE_F64},
                           {HX_DTYPE_F64});
  CHECK(f64.created().code == HX_UNIMPLEMENTED);
}

TEST_CASE("Directly: FusedConv and FusedGemm are registered only for a core that has them",
          "[cuda][kernels][direct]") {
  const hxrt_test::DirectPlugin plugin(cuda_direct::kLibrary, "{}", HX_ABI_VERSION_MAJOR, 8);
  require_ok(plugin.init_outcome());
  bool conv = false;
  for (const cuda_direct::RegisteredKernel& kernel : plugin.kernels()) {
    CHECK(kernel.op != "FusedConv");
    CHECK(kernel.op != "FusedGemm");
    conv = conv || kernel.op == "Conv";
  }
  CHECK(conv);
}

// The contract between the CUDA plugin's core (devices, streams, errors: plugins/cuda/*.cpp)
// and its kernels (plugins/cuda/kernels/): what a kernel may ask of the plugin, and the one
// function the kernels provide. Kernels include only this header from the plugin core.
#pragma once

#include <hxrt/plugin_api.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <mutex>
#include <string>

#include "cublas_library.hpp"
#include "cublaslt_library.hpp"
#include "cudnn_library.hpp"

namespace hxcuda {

struct CudaPlugin;
class CudaDevice;
class CudaStream;

// The name in the function table, in ABI mismatch reports and in the messages of statuses made
// from exceptions.
constexpr char kPluginName[] = "cuda";

// Every kernel's user data: the plugin that registered it, its op, and whether the testing aid
// fault_ops (options.hpp) names the op. The plugin keeps these (CudaPlugin::kernel_sites).
struct KernelSite {
  CudaPlugin* plugin = nullptr;
  const char* op = nullptr;
  bool fault = false;
};

// Where one kernel call runs.
struct KernelEnv {
  const hx_core_services* services = nullptr;  // for statuses and attribute reads
  CudaDevice* device = nullptr;
  cudaStream_t stream = nullptr;  // the stream the core passed (args->stream), resolved
  bool synchronous = false;       // args->stream was NULL: the work completes before returning
  const char* fault_op = nullptr; // the op, when fault_ops names it; else NULL
  // The plugin's stream behind `stream`; NULL for a synchronous call. A GEMM asks it whether
  // it records (recordings.hpp): other kernels need not, so they take no lock for it.
  CudaStream* plugin_stream = nullptr;
};

// Resolves args->device and args->stream (INVALID_ARGUMENT when either is not this plugin's)
// and makes the device current on the calling thread. args->user_data is a KernelSite.
hx_status* kernel_env(const hx_kernel_args* args, KernelEnv* out);

// What every kernel's compute returns, given what the kernel itself returned: on success, the
// fault_ops trap enqueued behind it where asked (fault_kernel.hpp), and for a NULL stream the
// wait that makes the call complete before it returns; on failure, the status, the device
// marked lost if the failure was a sticky error.
hx_status* finish_kernel(const KernelEnv& env, hx_status* status);

// The core services of the plugin whose KernelSite is `user_data` (every kernel's user data),
// for kernel create and check, which run before any device or stream is resolved.
const hx_core_services& plugin_services(const void* user_data);

// A status for a failed CUDA or cuBLAS call: INTERNAL (OUT_OF_MEMORY for allocation failures)
// with "<call>: <error name>: <error text>", e.g.
// "cublasGemmEx: CUBLAS_STATUS_NOT_SUPPORTED: the requested functionality is not supported".
// NULL for success, so calls read `if (hx_status* s = cuda_error(env, cudaGetLastError(), "..."))`.
hx_status* cuda_error(const hx_core_services& services, cudaError_t error, const char* call);
hx_status* cublas_error(const hx_core_services& services, cublasStatus_t status, const char* call);
// The same for cuBLASLt, whose statuses are cuBLAS's but named by cuBLASLt itself.
hx_status* cublaslt_error(const hx_core_services& services, const CublasLtLibrary& cublaslt,
                          cublasStatus_t status, const char* call);
// The same for cuDNN: "<call>: <status name>: <cuDNN's message of the calling thread's last
// error>", e.g. "cudnnConvolutionForward: CUDNN_STATUS_BAD_PARAM: ...".
hx_status* cudnn_error(const hx_core_services& services, const CudnnLibrary& cudnn,
                       cudnnStatus_t status, const char* call);

// The cuBLAS handle of env.stream on env.device (made at first use), bound to that stream and
// to a workspace of the plugin's (library_workspace.hpp), and held exclusively while the lease
// lives. The workspace is the stream's own, so GEMMs on different streams never share one,
// or, on a stream that records, the recording's (cuda_recording.hpp), so that a GEMM
// allocates nothing as it is enqueued or recorded.
class CublasLease {
 public:
  // On failure `handle()` is NULL and the status says why.
  static hx_status* acquire(const KernelEnv& env, const CublasLibrary& cublas, CublasLease* out);
  cublasHandle_t handle() const { return handle_; }

 private:
  std::unique_lock<std::mutex> lock_;
  cublasHandle_t handle_ = nullptr;
};

// The bytes of the workspace a library call on any stream of any device has at least
// (library_workspace.hpp): what a kernel's check may count on without asking which device it
// runs on (BatchNormalization's f32 statistics of f16 and bf16 data live there).
inline constexpr size_t kLeastWorkspaceBytes = size_t{4} << 20;

// The cuDNN handle of env.device (one per device, made at its first use) bound to env.stream,
// and the workspace of env.stream (the one its GEMMs use, see CublasLease: a stream runs its
// calls in order, so they never use it at once), held exclusively while the lease lives: the
// device's library lock is held, so that no other call rebinds the handle to its own stream
// before this one's work is enqueued.
class CudnnLease {
 public:
  // On failure `handle()` is NULL and the status says why.
  static hx_status* acquire(const KernelEnv& env, const CudnnLibrary& cudnn, CudnnLease* out);
  cudnnHandle_t handle() const { return handle_; }
  void* workspace() const { return workspace_; }
  size_t workspace_size() const { return workspace_size_; }

 private:
  std::unique_lock<std::mutex> lock_;
  cudnnHandle_t handle_ = nullptr;
  void* workspace_ = nullptr;
  size_t workspace_size_ = 0;
};

// The cuBLASLt handle of env.device (one per device, made at its first use) and the workspace
// of env.stream, as CudnnLease. A cuBLASLt call names its stream itself; the lock keeps the
// matmul descriptors a kernel instance keeps for the device (their bias pointer is set per
// call) to one call at a time.
class CublasLtLease {
 public:
  // On failure `handle()` is NULL and the status says why.
  static hx_status* acquire(const KernelEnv& env, const CublasLtLibrary& cublaslt,
                            CublasLtLease* out);
  cublasLtHandle_t handle() const { return handle_; }
  void* workspace() const { return workspace_; }
  size_t workspace_size() const { return workspace_size_; }

 private:
  std::unique_lock<std::mutex> lock_;
  cublasLtHandle_t handle_ = nullptr;
  void* workspace_ = nullptr;
  size_t workspace_size_ = 0;
};

// Implemented by the kernels: registers every CUDA kernel (user_data = a KernelSite of
// `plugin`) with the core. Returns the first refusal.
hx_status* register_kernels(const hx_core_services& services, hx_core* core, CudaPlugin& plugin);

// Implemented by the kernels: whether some kernel computes `op`, and those ops as "Add, AddN,
// ..." for messages.
bool has_kernel_for(const std::string& op);
std::string kernel_op_list();

}  // namespace hxcuda

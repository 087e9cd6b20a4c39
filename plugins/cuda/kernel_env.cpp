// The plugin's side of kernel_env.hpp: what a kernel call gets from the plugin.
#include "kernel_env.hpp"

#include <hxplugin/status.hpp>

#include "capture_mode.hpp"
#include "cublas_workspace.hpp"
#include "cuda_recording.hpp"
#include "cuda_stream.hpp"
#include "device.hpp"
#include "device_errors.hpp"
#include "fault_kernel.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {

const hx_core_services& plugin_services(const void* user_data) {
  return *static_cast<const KernelSite*>(user_data)->plugin->services;
}

hx_status* kernel_env(const hx_kernel_args* args, KernelEnv* out) {
  const KernelSite& site = *static_cast<const KernelSite*>(args->user_data);
  const CudaPlugin& plugin = *site.plugin;
  CudaDevice* device = plugin.find_device(args->device);
  if (device == nullptr) {
    return hxplugin::make_status(
        *plugin.services, HX_INVALID_ARGUMENT,
        "cuda plugin: a kernel was given device %p, which is not a device of the cuda plugin",
        static_cast<const void*>(args->device));
  }
  CudaStream* stream = nullptr;
  if (hx_status* status = resolve_stream(*device, args->stream, &stream)) return status;
  cudaStream_t cuda_stream = nullptr;
  if (hx_status* status = stream_for_work(*device, stream, &cuda_stream)) return status;
  out->services = plugin.services;
  out->device = device;
  out->stream = cuda_stream;
  out->synchronous = stream == nullptr;
  out->fault_op = site.fault ? site.op : nullptr;
  out->plugin_stream = stream;
  return nullptr;
}

hx_status* finish_kernel(const KernelEnv& env, hx_status* status) {
  if (status != nullptr) {
    // cuda_error consumed the error, but a sticky one stays the thread's last error.
    note_if_sticky(*env.device, cudaPeekAtLastError(), "a kernel launch");
    return status;
  }
  if (env.fault_op != nullptr) {
    if (hx_status* failed =
            device_error(*env.device, launch_fault_kernel(env.stream),
                         "launching the trap kernel of the testing aid fault_ops")) {
      return failed;
    }
  }
  if (!env.synchronous) return nullptr;
  return device_error(*env.device, cudaStreamSynchronize(env.stream), "cudaStreamSynchronize");
}

namespace {

// The handle (made now if this is the stream's first GEMM) and workspace for a GEMM on `env`,
// under the device's cuBLAS lock.
hx_status* handle_and_workspace(const KernelEnv& env, const CublasLibrary& cublas,
                                cublasHandle_t* handle, const CublasWorkspace** workspace) {
  CudaDevice& device = *env.device;
  CudaDevice::CublasStream& entry = device.cublas_stream(env.stream);
  // Made on the device that kernel_env made current; it lives until the plugin shuts down.
  // cublasCreate allocates: in relaxed capture mode, so that making it as a recording's
  // first GEMM neither fails nor invalidates the capture.
  if (entry.handle == nullptr) {
    const RelaxedCaptureMode relaxed;
    if (hx_status* status =
            cublas_error(*env.services, cublas.create(&entry.handle), "cublasCreate")) {
      entry.handle = nullptr;
      return status;
    }
  }
  *handle = entry.handle;
  CudaRecording* recording =
      env.plugin_stream != nullptr ? env.plugin_stream->recording() : nullptr;
  if (recording != nullptr) return recording->gemm_workspace(workspace);
  if (entry.workspace == nullptr) {
    if (hx_status* status = CublasWorkspace::allocate(device, &entry.workspace)) return status;
  }
  *workspace = entry.workspace.get();
  return nullptr;
}

}  // namespace

hx_status* CublasLease::acquire(const KernelEnv& env, const CublasLibrary& cublas,
                                CublasLease* out) {
  const hx_core_services& services = *env.services;
  out->lock_ = std::unique_lock<std::mutex>(env.device->cublas_mutex());
  cublasHandle_t handle = nullptr;
  const CublasWorkspace* workspace = nullptr;
  hx_status* status = handle_and_workspace(env, cublas, &handle, &workspace);
  // A stream's handle is bound to it again on every lease (a destroyed stream's address may
  // come back as a new stream's), and binding a stream resets cuBLAS to its own workspace
  // pool, from which a GEMM may allocate as it is enqueued: the plugin's workspace is set
  // again after it. The handle starts from the default math mode: one kernel's TF32 choice
  // must not leak into the next one's GEMM.
  if (status == nullptr) {
    status = cublas_error(services, cublas.set_stream(handle, env.stream), "cublasSetStream");
  }
  if (status == nullptr) {
    status = cublas_error(services,
                          cublas.set_workspace(handle, workspace->data(), workspace->size()),
                          "cublasSetWorkspace");
  }
  if (status == nullptr) {
    status = cublas_error(services, cublas.set_math_mode(handle, CUBLAS_DEFAULT_MATH),
                          "cublasSetMathMode");
  }
  if (status != nullptr) {
    out->lock_.unlock();
    return status;
  }
  out->handle_ = handle;
  return nullptr;
}

}  // namespace hxcuda

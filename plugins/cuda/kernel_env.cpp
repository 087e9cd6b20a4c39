// The plugin's side of kernel_env.hpp: what a kernel call gets from the plugin.
#include "kernel_env.hpp"

#include <hxplugin/status.hpp>

#include "capture_mode.hpp"
#include "cuda_recording.hpp"
#include "cuda_stream.hpp"
#include "device.hpp"
#include "device_errors.hpp"
#include "fault_kernel.hpp"
#include "library_workspace.hpp"
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

// The workspace of library calls on env.stream: the recording's when the stream records, else
// the stream's own (made at its first library call). Under the device's library lock.
hx_status* stream_workspace(const KernelEnv& env, CudaDevice::StreamLibraries& entry,
                            const LibraryWorkspace** workspace) {
  CudaRecording* recording =
      env.plugin_stream != nullptr ? env.plugin_stream->recording() : nullptr;
  if (recording != nullptr) return recording->library_workspace(workspace);
  if (entry.workspace == nullptr) {
    if (hx_status* status = LibraryWorkspace::allocate(*env.device, &entry.workspace)) {
      return status;
    }
  }
  *workspace = entry.workspace.get();
  return nullptr;
}

// The handle (made now if this is the stream's first GEMM) and workspace for a GEMM on `env`,
// under the device's library lock.
hx_status* handle_and_workspace(const KernelEnv& env, const CublasLibrary& cublas,
                                cublasHandle_t* handle, const LibraryWorkspace** workspace) {
  CudaDevice::StreamLibraries& entry = env.device->stream_libraries(env.stream);
  // Made on the device that kernel_env made current; it lives until the plugin shuts down.
  // cublasCreate allocates: in relaxed capture mode, so that making it as a recording's
  // first GEMM neither fails nor invalidates the capture.
  if (entry.cublas == nullptr) {
    const RelaxedCaptureMode relaxed;
    if (hx_status* status =
            cublas_error(*env.services, cublas.create(&entry.cublas), "cublasCreate")) {
      entry.cublas = nullptr;
      return status;
    }
  }
  *handle = entry.cublas;
  return stream_workspace(env, entry, workspace);
}

// The device's handle of a library (cuDNN, cuBLASLt), made now by `create` if this is the
// device's first call of it: in relaxed capture mode, as cublasCreate, since making a handle
// allocates. Under the device's library lock.
template <class Handle, class Create>
hx_status* device_handle(Handle* handle, Create&& create) {
  if (*handle != nullptr) return nullptr;
  const RelaxedCaptureMode relaxed;
  hx_status* status = create(handle);
  if (status != nullptr) *handle = nullptr;
  return status;
}

}  // namespace

hx_status* CublasLease::acquire(const KernelEnv& env, const CublasLibrary& cublas,
                                CublasLease* out) {
  const hx_core_services& services = *env.services;
  out->lock_ = std::unique_lock<std::mutex>(env.device->library_mutex());
  cublasHandle_t handle = nullptr;
  const LibraryWorkspace* workspace = nullptr;
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

hx_status* CudnnLease::acquire(const KernelEnv& env, const CudnnLibrary& cudnn,
                               CudnnLease* out) {
  const hx_core_services& services = *env.services;
  out->lock_ = std::unique_lock<std::mutex>(env.device->library_mutex());
  cudnnHandle_t& handle = env.device->cudnn_handle();
  const LibraryWorkspace* workspace = nullptr;
  hx_status* status = device_handle(&handle, [&](cudnnHandle_t* made) {
    return cudnn_error(services, cudnn, cudnn.create(made), "cudnnCreate");
  });
  if (status == nullptr) {
    status = stream_workspace(env, env.device->stream_libraries(env.stream), &workspace);
  }
  // Bound to the call's stream on every lease: the handle serves every stream of the device.
  if (status == nullptr) {
    status = cudnn_error(services, cudnn, cudnn.set_stream(handle, env.stream), "cudnnSetStream");
  }
  if (status != nullptr) {
    out->lock_.unlock();
    return status;
  }
  out->handle_ = handle;
  out->workspace_ = workspace->data();
  out->workspace_size_ = workspace->size();
  return nullptr;
}

hx_status* CublasLtLease::acquire(const KernelEnv& env, const CublasLtLibrary& cublaslt,
                                  CublasLtLease* out) {
  const hx_core_services& services = *env.services;
  out->lock_ = std::unique_lock<std::mutex>(env.device->library_mutex());
  cublasLtHandle_t& handle = env.device->cublaslt_handle();
  const LibraryWorkspace* workspace = nullptr;
  hx_status* status = device_handle(&handle, [&](cublasLtHandle_t* made) {
    return cublaslt_error(services, cublaslt, cublaslt.create(made), "cublasLtCreate");
  });
  if (status == nullptr) {
    status = stream_workspace(env, env.device->stream_libraries(env.stream), &workspace);
  }
  if (status != nullptr) {
    out->lock_.unlock();
    return status;
  }
  out->handle_ = handle;
  out->workspace_ = workspace->data();
  out->workspace_size_ = workspace->size();
  return nullptr;
}

}  // namespace hxcuda

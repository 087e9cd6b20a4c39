// The plugin's side of kernel_env.hpp: what a kernel call gets from the plugin.
#include "kernel_env.hpp"

#include <hxplugin/status.hpp>

#include "device.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {

const hx_core_services& plugin_services(const void* user_data) {
  return *static_cast<const CudaPlugin*>(user_data)->services;
}

hx_status* kernel_env(const hx_kernel_args* args, KernelEnv* out) {
  const CudaPlugin& plugin = *static_cast<const CudaPlugin*>(args->user_data);
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
  return nullptr;
}

hx_status* CublasLease::acquire(const KernelEnv& env, const CublasLibrary& cublas,
                                CublasLease* out) {
  CudaDevice& device = *env.device;
  const hx_core_services& services = *env.services;
  out->lock_ = std::unique_lock<std::mutex>(device.cublas_mutex());
  cublasHandle_t& handle = device.cublas_handle(env.stream);
  // Made on the device that kernel_env made current; it lives until the plugin shuts down.
  if (handle == nullptr) {
    if (hx_status* status = cublas_error(services, cublas.create(&handle), "cublasCreate")) {
      handle = nullptr;
      out->lock_.unlock();
      return status;
    }
  }
  // A stream's handle is bound to it again on every lease (a destroyed stream's address may
  // come back as a new stream's) and starts from the default math mode: one kernel's TF32
  // choice must not leak into the next one's GEMM.
  hx_status* status =
      cublas_error(services, cublas.set_stream(handle, env.stream), "cublasSetStream");
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

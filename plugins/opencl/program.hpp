// The plugin's OpenCL program on one device: built the first time a kernel needs it, and
// only once (a failed build is remembered and reported again, not retried per call).
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include <mutex>
#include <string>

namespace hxopencl {

class Program {
 public:
  Program(cl_context context, cl_device_id device) : context_(context), device_(device) {}
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // The kernel named `name` of a built program, in *out (caller owns: clReleaseKernel). The
  // first call builds the program; a build failure is INTERNAL with the compiler's log.
  hx_status* create_kernel(const hx_core_services& services, const char* name,
                           cl_kernel* out) const;

 private:
  // Builds under mutex_; the build log when it fails.
  cl_int build_locked(std::string* log) const;

  const cl_context context_;
  const cl_device_id device_;
  mutable std::mutex mutex_;
  mutable bool tried_ = false;
  mutable cl_program program_ = nullptr;  // NULL until built, and after a failed build
  mutable std::string failure_;           // the failed build's message
};

}  // namespace hxopencl

#include "program.hpp"

#include <hxplugin/status.hpp>

#include <algorithm>

#include "errors.hpp"
#include "kernels/program_text.hpp"

namespace hxopencl {

namespace {

// The compiler's output, cut where a status message would cut it anyway.
std::string build_log(cl_program program, cl_device_id device) {
  size_t length = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &length) !=
      CL_SUCCESS) {
    return "(no build log)";
  }
  std::string log(length, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, length, &log[0], nullptr);
  log.resize(std::min<size_t>(log.find('\0'), 3000));
  return log;
}

}  // namespace

Program::~Program() {
  if (program_ != nullptr) clReleaseProgram(program_);
}

cl_int Program::build_locked(std::string* log) const {
  const char* text = kProgramText;
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context_, 1, &text, nullptr, &error);
  if (error != CL_SUCCESS) return error;
  error = clBuildProgram(program, 1, &device_, "-cl-std=CL1.2", nullptr, nullptr);
  if (error != CL_SUCCESS) {
    *log = build_log(program, device_);
    clReleaseProgram(program);
    return error;
  }
  program_ = program;
  return CL_SUCCESS;
}

hx_status* Program::create_kernel(const hx_core_services& services, const char* name,
                                  cl_kernel* out) const {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!tried_) {
      tried_ = true;
      std::string log;
      if (const cl_int error = build_locked(&log)) {
        failure_ = std::string("building the OpenCL program failed with ") +
                   cl_error_name(error) + ": " + log;
      }
    }
    if (program_ == nullptr) {
      return hxplugin::make_status(services, HX_INTERNAL, "opencl plugin: %s", failure_.c_str());
    }
  }
  cl_int error = CL_SUCCESS;
  *out = clCreateKernel(program_, name, &error);
  return cl_status_about(services, error, "clCreateKernel", "for kernel %s", name);
}

}  // namespace hxopencl

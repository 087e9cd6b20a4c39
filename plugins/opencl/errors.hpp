// OpenCL error codes as statuses: one place that names them and picks the status code.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

namespace hxopencl {

// "CL_INVALID_VALUE"; "an unknown OpenCL error" for a code outside OpenCL 1.2's list.
const char* cl_error_name(cl_int error);

// NULL when `error` is CL_SUCCESS; else a status "opencl plugin: <call> failed with
// CL_... (-N)", OUT_OF_MEMORY for the codes that mean memory ran out, INTERNAL for the others
// (the plugin's own calls are well-formed, so any other code is a driver failure).
hx_status* cl_status(const hx_core_services& services, cl_int error, const char* call);
// The same with what the call was about appended: "... (-N) <about>". Formats into a fixed
// buffer: nothing here allocates or throws.
hx_status* cl_status_about(const hx_core_services& services, cl_int error, const char* call,
                           const char* format, ...) __attribute__((format(printf, 4, 5)));

}  // namespace hxopencl

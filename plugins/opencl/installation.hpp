// A description of everything that decides which OpenCL devices a discovery would find, read
// without loading the ICD loader's vendor libraries (PoCL's alone costs about 20 ms and 60 MB
// to load, as it links LLVM). Two equal fingerprints mean the device cache may be believed;
// what the fingerprint cannot see (a library replaced in place without running ldconfig) is
// caught when the first device is used (see device_cache.hpp).
#pragma once

#include <string>

namespace hxopencl {

// Lines of text, one per thing looked at:
// - this plugin's file (path, inode, size, modification and change times): a rebuilt plugin
//   may read devices differently;
// - the boot (its id): devices and drivers rarely change without a reboot, and a reboot is
//   cheap to rediscover after;
// - the ICD vendor files (the folder or file of $OCL_ICD_VENDORS, else /etc/OpenCL/vendors):
//   each file's path, identity and text, and the identity of the library it names where that
//   can be found ($LD_LIBRARY_PATH, the ICD loader's own folder, or an absolute path);
// - /etc/ld.so.cache's identity, which changes whenever a package installs a library;
// - the loaded kernel modules (/proc/modules) and the GPU device nodes (/dev/dri, /dev/accel,
//   /dev/nvidia*, /dev/kfd): a driver loaded or a device plugged in;
// - the CPUs this process may run on and the machine's memory, which CPU devices report;
// - the environment variables that OpenCL implementations read (OCL_*, OPENCL_*, POCL_*,
//   CUDA_*, ROCR_*, HIP_*, GPU_*, HSA_*, ZE_*, RUSTICL_*, LD_LIBRARY_PATH, ...).
std::string installation_fingerprint();

}  // namespace hxopencl

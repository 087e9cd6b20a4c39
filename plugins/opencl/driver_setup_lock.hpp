// The plugin's one lock on what the OpenCL driver sets up once per process: the driver's
// devices, and the process environment, which that set-up writes. Every instance of the plugin
// in the process shares it (each runtime inits the one copy loaded: dlopen of a path already
// open returns the same handle).
//
// Why: PoCL (3.1, as Debian 12 ships it; its sources still read so) sets its devices up in the
// first clGetDeviceIDs of a process (pocl_init_devices), and a second thread that calls it
// meanwhile does not wait: its guard against being re-entered from hwloc is read before PoCL's
// own lock, and answers that thread at once, with CL_SUCCESS and devices not yet set up. With
// several runtimes starting (no device cache: each init discovers) or first using their OpenCL
// devices (a current cache: each first use discovers) on several threads, that thread then
// crashed in clGetDeviceInfo (SIGSEGV on a device name not yet set), found no device, or got a
// device whose allocation limit read 0 (clCreateBuffer: CL_INVALID_BUFFER_SIZE). The same
// set-up calls setenv("HWLOC_PLUGINS_PATH"), which may move the environment's array (realloc)
// while another runtime's init reads it for the installation's fingerprint (ThreadSanitizer
// saw exactly that).
//
// Held, therefore, across every clGetDeviceIDs of the plugin (platform.cpp) and its reads of
// the environment (OpenClPlugin::list_devices); nothing else. The rest of discovery and first
// use proved safe from 8 threads at once in fresh processes and is left free: clGetPlatformIDs
// (the ICD loader, ocl-icd, loads its drivers under a pthread_once), clGetDeviceInfo once the
// devices are set up, clCreateContext, clCreateCommandQueue, and clBuildProgram with an empty
// kernel cache. Nothing can order the host program's own OpenCL calls, or other code's use of
// the environment, against these: a program should make its first clGetDeviceIDs before, not
// while, runtimes start.
#pragma once

#include <mutex>

namespace hxopencl {

std::mutex& driver_setup_mutex();

}  // namespace hxopencl

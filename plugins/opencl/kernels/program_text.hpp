// The OpenCL C source of every kernel of the plugin (kernels/program.cl), one program built
// once per device.
#pragma once

namespace hxopencl {

extern const char kProgramText[];

}  // namespace hxopencl

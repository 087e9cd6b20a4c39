# Decides whether the CUDA plugin is built (HXRT_BUILD_CUDA) and, if so, enables the CUDA
# language. Included once from the top-level CMakeLists.txt, after HXRT_WITH_CUDA is defined.
# Every way of not building the plugin says why in a status line; none fails the configure,
# because a machine without CUDA builds everything else.
set(HXRT_BUILD_CUDA OFF)
if(NOT HXRT_WITH_CUDA)
  message(STATUS "CUDA plugin: not built (HXRT_WITH_CUDA is OFF)")
  return()
endif()

find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND)
  message(STATUS "CUDA plugin: not built: no CUDA toolkit found "
                 "(set CUDAToolkit_ROOT, or put nvcc on the PATH)")
  return()
endif()

# cuDNN, which the plugin opens at first use as it does cuBLAS, needs only its headers here:
# installed into the toolkit (as NVIDIA's packages for the toolkit do) or beside it.
find_path(HXRT_CUDNN_INCLUDE_DIR cudnn_version.h HINTS ${CUDAToolkit_INCLUDE_DIRS}
          DOC "the folder of cuDNN's headers (cudnn.h), for the CUDA plugin")
if(NOT HXRT_CUDNN_INCLUDE_DIR)
  message(STATUS "CUDA plugin: not built: CUDA toolkit ${CUDAToolkit_VERSION} found, but not "
                 "cuDNN's headers (cudnn.h, cudnn_version.h) in it or on the compiler's path: "
                 "install cuDNN 9 for CUDA ${CUDAToolkit_VERSION_MAJOR}, or set "
                 "HXRT_CUDNN_INCLUDE_DIR to its include folder")
  return()
endif()
file(STRINGS ${HXRT_CUDNN_INCLUDE_DIR}/cudnn_version.h HXRT_CUDNN_MAJOR_LINE
     REGEX "^#define CUDNN_MAJOR [0-9]+")
string(REGEX REPLACE "^#define CUDNN_MAJOR ([0-9]+).*" "\\1" HXRT_CUDNN_MAJOR
       "${HXRT_CUDNN_MAJOR_LINE}")

# nvcc is where FindCUDAToolkit found it, even when it is not on the PATH, and compiles host
# code with the project's own C++ compiler, so that both sides agree on the C++ library.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND "$ENV{CUDACXX}" STREQUAL "")
  set(ENV{CUDACXX} "${CUDAToolkit_NVCC_EXECUTABLE}")
endif()
if(NOT DEFINED CMAKE_CUDA_HOST_COMPILER AND "$ENV{CUDAHOSTCXX}" STREQUAL "")
  set(ENV{CUDAHOSTCXX} "${CMAKE_CXX_COMPILER}")
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  if(DEFINED CMAKE_CUDA_HOST_COMPILER)
    set(host_compiler "${CMAKE_CUDA_HOST_COMPILER}")
  else()
    set(host_compiler "$ENV{CUDAHOSTCXX}")
  endif()
  message(STATUS "CUDA plugin: not built: CUDA toolkit ${CUDAToolkit_VERSION} found, but nvcc "
                 "cannot build a test program with ${host_compiler} as its host compiler "
                 "(see CMakeFiles/CMakeOutput.log and CMakeError.log)")
  return()
endif()

# Real code for sm_80 (A100) and sm_90 (H100, H200), and sm_90 PTX that the driver compiles
# for newer GPUs. Set CMAKE_CUDA_ARCHITECTURES to build for others (or fewer, for speed).
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 80-real 90-real 90-virtual)
endif()
enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)
# Warnings from nvcc's own passes (front end, PTX assembler) and from the host compiler on the
# host side of .cu files fail the build, as they do for C++. -Wpedantic stays off: CUDA's
# generated host code uses GNU extensions.
add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings;-Xcompiler=-Wall,-Wextra,-Werror>")
set(HXRT_BUILD_CUDA ON)
message(STATUS "CUDA plugin: built with CUDA ${CUDAToolkit_VERSION} for "
               "${CMAKE_CUDA_ARCHITECTURES}, host compiler ${CMAKE_CUDA_HOST_COMPILER}")

# The CUDA plugin's kernels, for plugins/cuda/CMakeLists.txt to compile into libhx_cuda.so.
# Paths are absolute, so the file can be included from any directory. The sources include
# "kernels/..." and "kernel_env.hpp": the including target needs plugins/cuda and cuDNN's
# headers on its include path, plus hxrt_plugin_support and CUDA::cudart (cuBLAS, cuBLASLt
# and cuDNN are opened at run time, toolkit_library.hpp).
set(HXRT_CUDA_KERNEL_DIR ${CMAKE_CURRENT_LIST_DIR})

# The element-wise launchers alone (no plugin services): the benchmark compiles them too, so
# that its raw baseline launches the very kernel the runtime does.
set(HXRT_CUDA_ELEMENTWISE_SOURCES ${HXRT_CUDA_KERNEL_DIR}/elementwise.cu)

set(HXRT_CUDA_KERNEL_SOURCES
  ${HXRT_CUDA_ELEMENTWISE_SOURCES}
  ${HXRT_CUDA_KERNEL_DIR}/addn.cpp
  ${HXRT_CUDA_KERNEL_DIR}/addn.cu
  ${HXRT_CUDA_KERNEL_DIR}/batch_norm.cpp
  ${HXRT_CUDA_KERNEL_DIR}/bias_activation.cu
  ${HXRT_CUDA_KERNEL_DIR}/cast.cpp
  ${HXRT_CUDA_KERNEL_DIR}/cast.cu
  ${HXRT_CUDA_KERNEL_DIR}/concat.cpp
  ${HXRT_CUDA_KERNEL_DIR}/conv.cpp
  ${HXRT_CUDA_KERNEL_DIR}/copy.cpp
  ${HXRT_CUDA_KERNEL_DIR}/cudnn_descriptors.cpp
  ${HXRT_CUDA_KERNEL_DIR}/dtypes.cpp
  ${HXRT_CUDA_KERNEL_DIR}/elementwise.cpp
  ${HXRT_CUDA_KERNEL_DIR}/fill.cpp
  ${HXRT_CUDA_KERNEL_DIR}/fill.cu
  ${HXRT_CUDA_KERNEL_DIR}/fused_activation.cpp
  ${HXRT_CUDA_KERNEL_DIR}/fused_gemm.cpp
  ${HXRT_CUDA_KERNEL_DIR}/gather.cpp
  ${HXRT_CUDA_KERNEL_DIR}/gather.cu
  ${HXRT_CUDA_KERNEL_DIR}/gpu_kernel_call.cpp
  ${HXRT_CUDA_KERNEL_DIR}/kernel_registry.cpp
  ${HXRT_CUDA_KERNEL_DIR}/matmul.cpp
  ${HXRT_CUDA_KERNEL_DIR}/onnx_window.cpp
  ${HXRT_CUDA_KERNEL_DIR}/pool.cpp
  ${HXRT_CUDA_KERNEL_DIR}/reduce.cpp
  ${HXRT_CUDA_KERNEL_DIR}/reduce.cu
  ${HXRT_CUDA_KERNEL_DIR}/softmax.cpp
  ${HXRT_CUDA_KERNEL_DIR}/softmax.cu
  ${HXRT_CUDA_KERNEL_DIR}/strided.cu
  ${HXRT_CUDA_KERNEL_DIR}/strided_layout.cpp
  ${HXRT_CUDA_KERNEL_DIR}/strided_views.cpp
  ${HXRT_CUDA_KERNEL_DIR}/unary.cpp
  ${HXRT_CUDA_KERNEL_DIR}/unary.cu)

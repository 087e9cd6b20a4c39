# hxrt_opencl_bench: a 1024 x 1024 float32 MatMul through the OpenCL plugin's function table,
# side by side with the same OpenCL kernel (plugins/opencl/kernels/program.cl) enqueued
# directly, in one run. Built with the OpenCL plugin.
if(TARGET hx_opencl)
  find_package(OpenCL REQUIRED)  # its imported target is visible only where it is found
  # The plugin is loaded and driven by the tests' plugin host (a fake core without Catch2),
  # compiled in rather than linked: the tests' library carries their Catch2 helpers too.
  add_executable(hxrt_opencl_bench
    bench_run.cpp opencl_direct.cpp opencl_matmul.cpp ratio_report.cpp
    ${PROJECT_SOURCE_DIR}/tests/support/plugin_host.cpp)
  target_include_directories(hxrt_opencl_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  target_link_libraries(hxrt_opencl_bench PRIVATE hxrt_opencl_program hxrt::plugin_api
                                                  benchmark::benchmark OpenCL::OpenCL
                                                  ${CMAKE_DL_LIBS})
  target_compile_definitions(hxrt_opencl_bench PRIVATE CL_TARGET_OPENCL_VERSION=120
                             HXRT_BENCH_PLUGIN_DIR="${HXRT_PLUGIN_OUTPUT_DIR}")
  add_dependencies(hxrt_opencl_bench hx_opencl)
endif()

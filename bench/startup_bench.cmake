# hxrt_startup: start-up to the first op in fresh processes, a host app and hxrt-info, with
# every plugin of the build's plugin folder and with each alone (bench/startup.sh runs it).
add_executable(hxrt_startup startup_main.cpp startup_child.cpp startup_process.cpp)
target_link_libraries(hxrt_startup PRIVATE hxrt::core)
target_compile_definitions(hxrt_startup PRIVATE
                           HXRT_BENCH_PLUGIN_DIR="${HXRT_PLUGIN_OUTPUT_DIR}"
                           HXRT_BENCH_INFO_PROGRAM="$<TARGET_FILE:hxrt-info>")
# It measures the plugins and hxrt-info of this build: they must be built with it.
add_dependencies(hxrt_startup hxrt-info hx_cpu hx_sim)
foreach(plugin hx_opencl hx_cuda)
  if(TARGET ${plugin})
    add_dependencies(hxrt_startup ${plugin})
  endif()
endforeach()

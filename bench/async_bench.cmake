# hxrt_async_bench: asynchronous execution on the sim plugin's timed GPUs, its figures read
# from a config file (bench/async_bench.json by default): the replication of a MatMul on
# several devices against one, and the overlap of copy-then-compute chains over devices
# against what the sim's performance model allows. It compiles the sim's model in, so that
# the ideal it compares with is the model's own arithmetic.
add_executable(hxrt_async_bench
  async_main.cpp async_config.cpp async_bench.cpp bench_run.cpp ratio_report.cpp
  ${PROJECT_SOURCE_DIR}/plugins/sim/perf_model.cpp)
target_include_directories(hxrt_async_bench PRIVATE ${PROJECT_SOURCE_DIR}/plugins/sim)
target_link_libraries(hxrt_async_bench PRIVATE hxrt::core benchmark::benchmark
                                               nlohmann_json::nlohmann_json)
target_compile_definitions(hxrt_async_bench PRIVATE
                           HXRT_ASYNC_BENCH_CONFIG="${CMAKE_CURRENT_SOURCE_DIR}/async_bench.json")
# It loads the sim plugin (and the CPU plugin beside it) from the build's plugin folder.
add_dependencies(hxrt_async_bench hx_cpu hx_sim)

# hxrt_placer_scenarios_bench: the dynamic placer against the simple one on scenarios of
# simulated devices that differ in speed, copies or memory (placer_scenarios.hpp). It loads the
# CPU and sim plugins from the build's plugin folder, and reads two scenarios' config files from
# the source tree (samples/dynamic, config/examples).
add_executable(hxrt_placer_scenarios_bench
  placer_scenarios_main.cpp placer_scenarios.cpp placer_scenarios_bench.cpp bench_run.cpp
  ratio_report.cpp)
target_link_libraries(hxrt_placer_scenarios_bench PRIVATE hxrt::core benchmark::benchmark)
target_compile_definitions(hxrt_placer_scenarios_bench PRIVATE
                           HXRT_BENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(hxrt_placer_scenarios_bench hx_cpu hx_sim)

# hxrt_placer_bench: the dynamic placer's list scheduler alone, a pure function of the core
# (from its private headers), on the problems its tests use (tests/placement/schedule_problems):
# the gap to exhaustive search on small graphs, the time on 10,000-task graphs, the gain over
# the simple placer.
add_executable(hxrt_placer_bench
  placer_main.cpp placer_bench.cpp bench_run.cpp ratio_report.cpp
  ${PROJECT_SOURCE_DIR}/tests/placement/schedule_problems.cpp)
target_include_directories(hxrt_placer_bench PRIVATE ${PROJECT_SOURCE_DIR}/tests/placement)
target_link_libraries(hxrt_placer_bench PRIVATE hxrt_internal benchmark::benchmark)

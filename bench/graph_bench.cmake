# hxrt_graph_bench: graph mode against the eager path (the executor's cost per node, a chain
# of tiny MatMuls) and independent nodes at once (the replication on timed sim GPUs, two CPU
# branches on two inter-op threads) and a replayed graph against the same chain kernel by
# kernel and eager, on a sim GPU with a GPU's host launch cost. It loads the CPU and sim plugins from the build's plugin
# folder.
add_executable(hxrt_graph_bench
  graph_main.cpp graph_overhead_bench.cpp graph_parallel_bench.cpp graph_recorded_bench.cpp
  graph_workloads.cpp
  graph_runtime.cpp bench_run.cpp ratio_report.cpp)
target_link_libraries(hxrt_graph_bench PRIVATE hxrt::core benchmark::benchmark)
add_dependencies(hxrt_graph_bench hx_cpu hx_sim)

# hxrt_graph_loop: runs of the executor-overhead graphs in loops of their own, on the calling
# thread alone, for bench/count_graph_instructions.sh to count under callgrind.
add_executable(hxrt_graph_loop graph_instructions.cpp graph_workloads.cpp graph_runtime.cpp)
target_link_libraries(hxrt_graph_loop PRIVATE hxrt::core)
add_dependencies(hxrt_graph_loop hx_cpu)

# graph_instructions_check: the MatMul chain as a graph against eager, in instructions counted
# by callgrind (bench/check_graph_instructions.sh). The limit is below the issue-16 target of
# 0.5x because the wall-clock ratio can run above the instruction ratio: 0.018 above it when a
# node paid a locked instruction and waited on its step's cache lines, within 0.005 since
# (bench/RESULTS.md, fourth session of issue 16). The executor before its views were kept
# bound, at 0.49x in instructions, missed the target on the wall clock and fails here. Release
# code only.
if(HXRT_BUILD_TESTS AND CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT HXRT_SANITIZE)
  add_test(NAME graph_instructions_check
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_graph_instructions.sh
            $<TARGET_FILE:hxrt_graph_loop> 0.47)
  set_tests_properties(graph_instructions_check PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# hxrt_graph_memory: the host memory a large graph, its executable and a second compile with
# the placement given back cost per node (bench/RESULTS.md, issue 31).
add_executable(hxrt_graph_memory graph_memory_main.cpp graph_workloads.cpp)
target_link_libraries(hxrt_graph_memory PRIVATE hxrt::core)
target_compile_definitions(hxrt_graph_memory PRIVATE HXRT_BENCH_PLUGIN_DIR="${HXRT_PLUGIN_OUTPUT_DIR}")
add_dependencies(hxrt_graph_memory hx_cpu)
# graph_memory_check: compiling a chain of 100,000 nodes keeps, and holds at its most, at most
# 1 KB per node (issue 31 found 3 KB; bench/RESULTS.md has today's figures). Release code
# only, and not under a sanitizer, whose allocator the program's counting operator new would
# bypass.
if(HXRT_BUILD_TESTS AND CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT HXRT_SANITIZE)
  add_test(NAME graph_memory_check COMMAND hxrt_graph_memory 100000 1024)
endif()

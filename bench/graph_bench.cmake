# hxrt_graph_bench: graph mode against the eager path (the executor's cost per node, a chain
# of tiny MatMuls) and independent nodes at once (the replication on timed sim GPUs, two CPU
# branches on two inter-op threads). It loads the CPU and sim plugins from the build's plugin
# folder.
add_executable(hxrt_graph_bench
  graph_main.cpp graph_overhead_bench.cpp graph_parallel_bench.cpp graph_workloads.cpp
  graph_runtime.cpp bench_run.cpp ratio_report.cpp)
target_link_libraries(hxrt_graph_bench PRIVATE hxrt::core benchmark::benchmark)
add_dependencies(hxrt_graph_bench hx_cpu hx_sim)

# hxrt_graph_loop: runs of the executor-overhead graphs in loops of their own, on the calling
# thread alone, for bench/count_graph_instructions.sh to count under callgrind.
add_executable(hxrt_graph_loop graph_instructions.cpp graph_workloads.cpp graph_runtime.cpp)
target_link_libraries(hxrt_graph_loop PRIVATE hxrt::core)
add_dependencies(hxrt_graph_loop hx_cpu)

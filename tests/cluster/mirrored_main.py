"""Run under mpirun (tests/cluster/CMakeLists.txt) with HXRT_CONFIG of two sim GPUs a task:
hxrt.distribute.MirroredStrategy from Python over every GPU of both tasks, in a traced
function. Task 0 builds and runs it; task 1's runtime serves its part until task 0 is done."""

import hxrt

runtime = hxrt.default_runtime()
cluster = runtime.cluster()
if cluster.rank == 0:
    strategy = hxrt.distribute.MirroredStrategy()
    print(strategy.num_replicas_in_sync, "replicas:", " ".join(strategy.devices))

    @hxrt.function
    def step(a, b):
        return strategy.reduce("sum", strategy.run(hxrt.matmul, args=(a, b)))

    a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    print(step(a, b).numpy().tolist())
    # Eagerly too: each replica's MatMul on its device of either task, reduced here.
    per_replica = strategy.run(hxrt.matmul, args=(a, b))
    print(strategy.reduce("mean", per_replica).numpy().tolist())

"""hxrt.distribute.MirroredStrategy in one process, on four sim GPUs: its devices, run and
reduce traced into one graph and called eagerly, every reduction, and its errors. Under mpirun
the same strategy spans tasks (tests/cluster)."""

from conftest import run_python


def test_replicas_on_every_gpu_reduced_in_a_traced_function(sim_gpus):
    out = run_python("""
        import hxrt
        strategy = hxrt.distribute.MirroredStrategy()
        print(strategy.num_replicas_in_sync, strategy.devices[3])

        @hxrt.function
        def step(a, b):
            per_replica = strategy.run(hxrt.matmul, args=(a, b))
            return strategy.reduce(hxrt.distribute.ReduceOp.SUM, per_replica)

        a = hxrt.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = hxrt.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        print(step(a, b).numpy().tolist())
        print(step(a, b).numpy().tolist())
        """, config=sim_gpus).stdout.splitlines()
    assert out == ["4 /job:localhost/replica:0/task:0/device:GPU:3",
                   "[[88.0, 112.0], [196.0, 256.0]]", "[[88.0, 112.0], [196.0, 256.0]]"]


def test_eager_replicas_each_reduction_and_tuples_of_values(sim_gpus):
    out = run_python("""
        import hxrt
        strategy = hxrt.distribute.MirroredStrategy(["GPU:0", "GPU:2", "/CPU:0"])
        x = hxrt.constant([1.0, -2.0, 4.0])
        scales = iter([1.0, 2.0, 3.0])

        def replica():
            scale = next(scales)
            return x * hxrt.constant([scale] * 3), x

        scaled, plain = strategy.run(replica)
        print(type(scaled).__name__, len(scaled.values), scaled.values[1].device)
        for op in ("sum", "mean", "max", "min"):
            print(op, strategy.reduce(op, scaled).numpy().tolist())
        print(strategy.reduce("sum", plain).numpy().tolist())
        """, config=sim_gpus).stdout.splitlines()
    assert out == ["PerReplica 3 /job:localhost/replica:0/task:0/device:GPU:2",
                   "sum [6.0, -12.0, 24.0]", "mean [2.0, -4.0, 8.0]", "max [3.0, -2.0, 12.0]",
                   "min [1.0, -6.0, 4.0]", "[3.0, -6.0, 12.0]"]


def test_without_gpus_the_cpu_and_the_errors():
    out = run_python("""
        import hxrt
        strategy = hxrt.distribute.MirroredStrategy()
        print(strategy.devices)
        per_replica = strategy.run(lambda: hxrt.constant([1.0]))
        for call in (lambda: strategy.reduce("sum", per_replica, axis=0),
                     lambda: strategy.reduce("sum", [1.0]),
                     lambda: strategy.reduce("median", per_replica),
                     lambda: hxrt.distribute.MirroredStrategy([])):
            try:
                call()
            except Exception as error:
                print(type(error).__name__, str(error).splitlines()[0][:60])
        """).stdout.splitlines()
    assert out[0] == "('/job:localhost/replica:0/task:0/device:CPU:0',)"
    assert out[1].startswith("NotImplementedError MirroredStrategy.reduce: axis is not availa")
    assert out[2].startswith("TypeError MirroredStrategy.reduce: expected the PerReplica")
    assert out[3].startswith("InvalidArgumentError")
    assert out[4].startswith("ValueError MirroredStrategy: no device to replicate on")

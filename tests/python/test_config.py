"""hxrt.config and hxrt.debugging as the guide uses tf.config and tf.debugging, each in a fresh
process (a process sets its devices up once)."""

from conftest import run_python


def test_physical_and_logical_devices_of_four_sim_gpus(sim_gpus):
    out = run_python("""
        import hxrt
        gpus = hxrt.config.list_physical_devices("GPU")
        print(len(gpus), gpus[0])
        print(len(hxrt.config.list_logical_devices("GPU")))
        """, config=sim_gpus).stdout.splitlines()
    assert out == ["4 PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')", "4"]


def test_visible_devices_before_initialization_and_tensorflows_error_after(sim_gpus):
    out = run_python("""
        import hxrt
        gpus = hxrt.config.list_physical_devices("GPU")
        hxrt.config.set_visible_devices(gpus[0], "GPU")
        logical = hxrt.config.list_logical_devices("GPU")
        print(len(gpus), "Physical GPUs,", len(logical), "Logical GPU")
        print([device.name for device in hxrt.config.get_visible_devices("GPU")])
        try:
            hxrt.config.set_visible_devices(gpus[1], "GPU")
        except RuntimeError as error:
            print(type(error).__name__ + ":", str(error).split(":")[0])
        """, config=sim_gpus).stdout.splitlines()
    assert out == ["4 Physical GPUs, 1 Logical GPU", "['/physical_device:GPU:0']",
                   "RuntimeError: Visible devices cannot be modified after being initialized"]


def test_logical_devices_cut_from_one_gpu_and_memory_growth(sim_gpus):
    out = run_python("""
        import hxrt
        gpus = hxrt.config.list_physical_devices("GPU")
        hxrt.config.experimental.set_memory_growth(gpus[1], True)
        hxrt.config.set_logical_device_configuration(
            gpus[0], [hxrt.config.LogicalDeviceConfiguration(memory_limit=64),
                      hxrt.config.LogicalDeviceConfiguration(memory_limit=64)])
        logical = hxrt.config.list_logical_devices("GPU")
        print(len(gpus), "Physical GPU,", len(logical), "Logical GPUs")
        print(hxrt.config.experimental.get_memory_growth(gpus[1]))
        try:
            hxrt.config.set_logical_device_configuration(
                gpus[0], [hxrt.config.LogicalDeviceConfiguration(memory_limit=32)])
        except RuntimeError as error:
            print(str(error).split(":")[0])
        """, config=sim_gpus).stdout.splitlines()
    assert out == ["4 Physical GPU, 5 Logical GPUs", "True",
                   "Virtual devices cannot be modified after being initialized"]


def test_memory_info_and_its_reset(sim_gpus):
    out = run_python("""
        import numpy as np
        import hxrt
        with hxrt.device("/GPU:0"):
            x = hxrt.constant(np.zeros((256, 1024), np.float32)) + 1.0
        info = hxrt.config.experimental.get_memory_info("GPU:0")
        print(sorted(info), info["current"] >= 2 ** 20, info["peak"] >= info["current"])
        del x
        hxrt.config.experimental.reset_memory_stats("GPU:0")
        info = hxrt.config.experimental.get_memory_info("GPU:0")
        print(info["peak"] == info["current"])
        """, config=sim_gpus).stdout.splitlines()
    assert out == ["['current', 'peak'] True True", "True"]


def test_log_device_placement_prints_the_c_api_lines(sim_gpus):
    result = run_python("""
        import hxrt
        hxrt.debugging.set_log_device_placement(True)
        a = hxrt.constant([[1.0, 2.0], [3.0, 4.0]])
        with hxrt.device("/GPU:1"):
            c = hxrt.matmul(a, a)
        print(c.device, hxrt.debugging.get_log_device_placement())
        """, config=sim_gpus)
    assert ("Executing op MatMul in device /job:localhost/replica:0/task:0/device:GPU:1"
            in result.stderr)
    assert result.stdout.split() == ["/job:localhost/replica:0/task:0/device:GPU:1", "True"]


def test_soft_placement_off_makes_a_missing_device_an_error(sim_gpus):
    out = run_python("""
        import hxrt
        print(hxrt.config.get_soft_device_placement())
        a = hxrt.constant([1.0])
        with hxrt.device("/GPU:9"):
            try:
                hxrt.add(a, a)
            except hxrt.errors.OpError as error:
                print(type(error).__name__)
        hxrt.config.set_soft_device_placement(True)
        with hxrt.device("/GPU:9"):
            print(hxrt.add(a, a).device.rsplit("device:", 1)[1])
        try:
            hxrt.device("GPU 1").__enter__()
        except hxrt.errors.InvalidArgumentError:
            print("malformed")
        """, config=sim_gpus).stdout.splitlines()
    assert out[0] == "True"
    assert out[1].endswith("Error")
    assert out[2] in {"GPU:0", "CPU:0"}
    assert out[3] == "malformed"


def test_device_functions_place_what_no_call_or_scope_places(sim_gpus):
    out = run_python("""
        import hxrt
        a = hxrt.constant([[1.0, 2.0], [3.0, 4.0]])

        def matmuls_on_gpu1(op):
            return "/GPU:1" if op.type == "MatMul" else None

        with hxrt.device(matmuls_on_gpu1):
            product, total = hxrt.matmul(a, a), hxrt.add(a, a)
            with hxrt.device("/GPU:2"):
                scoped = hxrt.matmul(a, a)
        after = hxrt.matmul(a, a)
        for tensor in (product, total, scoped, after):
            print(tensor.device.rsplit("device:", 1)[1])
        for answer in (lambda op: 3, lambda op: 1 / 0):
            with hxrt.device(answer):
                try:
                    hxrt.add(a, a)
                except hxrt.errors.InvalidArgumentError as error:
                    print(error)
        """, config=sim_gpus).stdout.splitlines()
    assert out[:4] == ["GPU:1", "GPU:0", "GPU:2", "GPU:0"]
    assert out[4].startswith("the placement function, asked for Add, returned a int;")
    assert out[5] == ("the placement function, asked for Add, raised ZeroDivisionError: "
                      "division by zero")

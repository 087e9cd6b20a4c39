"""The guide's Python snippets (samples/python), each run as a program on the sim plugin's four
GPUs, with its output checked: the placement log lines, the error texts, the device counts."""

import os
import subprocess
import sys


from conftest import ROOT

SAMPLES = ROOT / "samples" / "python"
CONFIG = SAMPLES / "sim_4_gpus_4gib.json"
DEVICE = "/job:localhost/replica:0/task:0/device:"
PRODUCT = ["hxrt.Tensor(", "[[22. 28.]", " [49. 64.]], shape=(2, 2), dtype=float32)"]


def run_sample(name):
    """The sample's output lines (stdout and stderr in order, as a terminal shows them)."""
    environment = dict(os.environ, HXRT_CONFIG=str(CONFIG))
    result = subprocess.run([sys.executable, str(SAMPLES / f"{name}.py")], env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout
    return result.stdout.splitlines()


def test_logging_placement():
    lines = run_sample("logging_placement")
    assert lines == [f"hxrt INFO: Executing op MatMul in device {DEVICE}GPU:0"] + PRODUCT


def test_manual_placement_copies_the_cpus_tensors_to_the_gpu():
    lines = run_sample("manual_placement")
    assert lines[:3] == [
        f"hxrt INFO: Copying input 0 of MatMul from {DEVICE}CPU:0 to {DEVICE}GPU:0",
        f"hxrt INFO: Copying input 1 of MatMul from {DEVICE}CPU:0 to {DEVICE}GPU:0",
        f"hxrt INFO: Executing op MatMul in device {DEVICE}GPU:0"]
    assert lines[3:] == PRODUCT


def test_memory_growth():
    assert run_sample("memory_growth") == ["4 Physical GPUs, 4 Logical GPUs"]


def test_visible_devices_and_tensorflows_error_after_initialization():
    lines = run_sample("visible_devices")
    assert lines[0] == "4 Physical GPUs, 1 Logical GPU"
    assert lines[1].startswith("Visible devices cannot be modified after being initialized")


def test_memory_limit():
    assert run_sample("memory_limit") == ["4 Physical GPUs, 4 Logical GPUs"]


def test_single_gpu_an_unknown_device_then_soft_placement():
    lines = run_sample("single_gpu")
    assert lines[0] == f"{DEVICE}GPU:7 unknown device."
    assert lines[1].startswith(f"Existing devices: {DEVICE}CPU:0")
    assert lines[2] == f"hxrt INFO: Executing op MatMul in device {DEVICE}GPU:0"
    assert "soft placement chose" in lines[3]
    assert lines[4:] == PRODUCT


def test_multiple_gpus_replicates_on_five_logical_gpus_and_sums_on_the_cpu():
    lines = run_sample("multiple_gpus")
    assert lines[0] == "4 Physical GPU, 5 Logical GPUs"
    assert [line for line in lines if "Executing op MatMul" in line] == [
        f"hxrt INFO: Executing op MatMul in device {DEVICE}GPU:{i}" for i in range(5)]
    assert f"hxrt INFO: Executing op AddN in device {DEVICE}CPU:0" in lines
    assert lines[-3:] == ["hxrt.Tensor(", "[[110. 140.]", " [245. 320.]], shape=(2, 2), "
                          "dtype=float32)"]

"""Per-op overhead from Python, side by side in one process: a 2x2 float32 MatMul through
hxrt.matmul, the operator @ on hxrt tensors, the extension's call without the Python wrapper,
NumPy's np.matmul, and torch.mm where torch is importable; DLPack exchange of 64 MiB with
NumPy both ways (and torch's), with whether both sides see the same address; and the time
`import hxrt` takes in a fresh interpreter (NumPy's own import beside it). Ratios are hxrt's
time over the peer's (below 1: hxrt is faster).

Needs the Python package built in the build tree (scripts/test.sh, or -DHXRT_PYTHON=ON):

  PYTHONPATH=build/python .cache/python-venv/bin/python bench/python_overhead.py [--calls N]

and beside PyTorch, in the environment scripts/make-torch-venv.sh makes:

  PYTHONPATH=build/python .cache/torch-venv/bin/python bench/python_overhead.py
"""

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

import hxrt


def per_call_ns(call, calls, repeats=7):
    """The median over `repeats` rounds of a round's time per call, in ns."""
    for _ in range(1000):
        call()
    rounds = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        rounds.append((time.perf_counter() - start) / calls * 1e9)
    return statistics.median(rounds)


def import_ms(module, runs=7):
    """The median wall time of `import module` in a fresh interpreter, from -X importtime's
    cumulative figure."""
    times = []
    for _ in range(runs):
        report = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                                capture_output=True, text=True, check=True).stderr
        line = [row for row in report.splitlines() if row.rstrip().endswith(f"| {module}")][-1]
        times.append(int(line.split("|")[1]) / 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100000)
    calls = parser.parse_args().calls

    values = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    a = hxrt.constant(values)
    matmul = hxrt.matmul
    native = hxrt.default_runtime().native
    op = hxrt.default_runtime().op("MatMul")
    rows = [("hxrt.matmul(a, b)", per_call_ns(lambda: matmul(a, a), calls)),
            ("a @ b (hxrt tensors)", per_call_ns(lambda: a @ a, calls)),
            ("the extension's execute alone", per_call_ns(
                lambda: native.execute(op, (a, a), None, ""), calls)),
            ("np.matmul(a, b)", per_call_ns(lambda: np.matmul(values, values), calls))]
    try:
        import torch

        t = torch.from_numpy(values)
        rows.append(("torch.mm(a, b)", per_call_ns(lambda: torch.mm(t, t), calls)))
    except ImportError:
        pass
    hxrt_ns = rows[0][1]
    print(f"2x2 float32 MatMul on the CPU, median of 7 rounds of {calls} calls")
    for name, ns in rows:
        print(f"  {name:32s} {ns:8.0f} ns   hxrt.matmul / this: {hxrt_ns / ns:5.2f}")
    big = hxrt.constant(np.zeros(1 << 24, np.float32))  # 64 MiB
    array = np.ones(1 << 24, np.float32)
    address = lambda a: a.__array_interface__["data"][0]
    exchanges = [
        ("np.from_dlpack(tensor)", lambda: np.from_dlpack(big),
         address(np.from_dlpack(big)) == address(np.from_dlpack(big))),
        ("hxrt.from_dlpack(numpy array)", lambda: hxrt.from_dlpack(array),
         address(np.from_dlpack(hxrt.from_dlpack(array))) == address(array))]
    try:
        import torch

        exchanges.append(("torch.from_dlpack(tensor)", lambda: torch.from_dlpack(big),
                          torch.from_dlpack(big).data_ptr() == address(np.from_dlpack(big))))
        torch_array = torch.ones(1 << 24, dtype=torch.float32)
        exchanges.append(("hxrt.from_dlpack(torch tensor)", lambda: hxrt.from_dlpack(torch_array),
                          address(np.from_dlpack(hxrt.from_dlpack(torch_array)))
                          == torch_array.data_ptr()))
        imported = ["hxrt", "numpy", "torch"]
    except ImportError:
        imported = ["hxrt", "numpy"]
    print("DLPack exchange of 64 MiB of float32, median of 7 rounds of 2000")
    for name, call, same in exchanges:
        print(f"  {name:32s} {per_call_ns(call, 2000) / 1e3:8.2f} us   same address: {same}")
    print("import, median of 7 fresh interpreters (-X importtime, cumulative)")
    for module in imported:
        print(f"  import {module:25s} {import_ms(module):8.1f} ms")


if __name__ == "__main__":
    main()

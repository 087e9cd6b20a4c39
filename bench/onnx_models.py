#!/usr/bin/env python3
"""Whole models through hxrt and ONNX Runtime, side by side, on the CPU.

The three models of tests/whole_models (make_models.py writes them, as torch.onnx.export
writes them, with seeded weights): the 784-512-512-10 MLP, the small CNN and the small
transformer encoder, each at batch 1 and at a throughput batch (MLP 64, CNN 16, transformer 8;
the transformer's sequences 32 tokens long), on 1 and 2 threads. Each runtime runs a model in
its own process, timed in-process: ONNX Runtime through its Python API (default graph
optimisations, intra-op threads as given, one inter-op thread), hxrt through hxrt-run
(HXRT_INTRA_OP_THREADS as given and HXRT_INTER_OP_THREADS=1, as ORT's, the same inputs from .npy
files). Prints per case the median time per
run of each, hxrt's throughput as a ratio of ONNX Runtime's (ORT's median / hxrt's), the
fastest run of each (on a busy machine the medians move with the load, the fastest runs far
less), and the largest difference of their outputs as a share of what the tests allow
(tests/whole_models/compare_outputs.py). Peak memory, per side: each process's peak resident
set (GNU time's %M; ONNX Runtime's includes its Python and NumPy, hxrt-run's its plugins'
libraries), and hxrt's own count of what a run allocates on the CPU (hxrt-run's
Memory line: the arena of intermediate tensors and the fetched outputs) beside the weights
it keeps; ONNX Runtime's Python API reports no such count.

Needs the model environment (scripts/make-model-venv.sh) and a Release build of hxrt-run:

  scripts/make-model-venv.sh
  .cache/model-venv/bin/python bench/onnx_models.py [--hxrt-run build/bin/hxrt-run] [--runs 200]
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "whole_models"))
import compare_outputs  # noqa: E402  (beside make_models.py, not a package)
import make_models  # noqa: E402

SEQUENCE = 32
CASES = [("mlp", 1), ("mlp", 64), ("cnn", 1), ("cnn", 16), ("transformer", 1),
         ("transformer", 8)]


# The child's peak resident set, as GNU time reports it (Debian's `time`): a process's own
# account (wait4's ru_maxrss, getrusage) would count the memory of the Python process it was
# forked from, which it holds until it execs; time's child is forked from time.
GNU_TIME = "/usr/bin/time"


def child_peak_mib(command, env=None):
    """Runs `command` to its end; (its stdout, its stderr, exit status, peak RSS in MiB, NaN
    without GNU time)."""
    with tempfile.NamedTemporaryFile("r") as peak:
        timed = os.path.exists(GNU_TIME)
        prefix = [GNU_TIME, "-f", "%M", "-o", peak.name] if timed else []
        result = subprocess.run(prefix + command, env=env, capture_output=True, text=True)
        kib = peak.read().strip().splitlines() if timed else []
    mib = float(kib[-1]) / 1024.0 if kib and kib[-1].isdigit() else float("nan")
    return result.stdout, result.stderr, result.returncode, mib


def onnxruntime_child(path, input_files, threads, runs, out_dir):
    """The ORT side in a process of its own (onnx_models.py --ort-child): its times as JSON on
    stdout, its outputs as .npy files in out_dir."""
    inputs = {name: np.load(file) for name, file in input_files.items()}
    median, fastest, outputs = onnxruntime_times_ms(path, inputs, threads, runs)
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, array in outputs.items():
        np.save(out_dir / f"{name}.npy", array)
    print(json.dumps({"median": median, "fastest": fastest}))


def onnxruntime_side(path, input_files, threads, runs, out_dir):
    command = [sys.executable, __file__, "--ort-child", str(path), str(threads), str(runs),
               str(out_dir)]
    for name, file in input_files.items():
        command += [f"{name}={file}"]
    out, err, status, peak = child_peak_mib(command)
    if status != 0:
        sys.exit(f"ONNX Runtime's process failed on {path}:\n{err}")
    times = json.loads(out.strip().splitlines()[-1])
    expected = {file.stem: np.load(file) for file in out_dir.glob("*.npy")}
    return times["median"], times["fastest"], expected, peak


def onnxruntime_times_ms(path, inputs, threads, runs):
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    outputs = session.run(None, inputs)  # the first run, untimed, as hxrt-run's is not apart
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, inputs)
        times.append((time.perf_counter() - start) * 1e3)
    names = [output.name for output in session.get_outputs()]
    return float(np.median(times)), min(times), dict(zip(names, outputs))


def hxrt_times_ms(hxrt_run, path, input_files, out_dir, threads, runs):
    # One inter-op thread, as ONNX Runtime gets: two, each with a team of `threads` OpenMP
    # threads, oversubscribe a machine of `threads` cores (the transformer at 8x32 on two
    # threads ran 0.90 ms a run so, 0.50 ms with one).
    environment = dict(os.environ, HXRT_INTRA_OP_THREADS=str(threads),
                       HXRT_INTER_OP_THREADS="1")
    command = [hxrt_run, str(path), "--device", "/CPU:0", "--runs", str(runs),
               "--save-outputs", str(out_dir)]
    for name, file in input_files.items():
        command += ["--input", f"{name}={file}"]
    out, err, status, peak = child_peak_mib(command, environment)
    if status != 0:
        sys.exit(f"hxrt-run failed on {path}:\n{err}")
    fastest = re.search(r"min ([0-9.]+) ms", out)
    median = re.search(r"median ([0-9.]+) ms", out)
    return float(median.group(1)), float(fastest.group(1)), peak, run_memory_kib(out)


UNITS_KIB = {"bytes": 1 / 1024, "KiB": 1, "MiB": 1024, "GiB": 1024 * 1024}


def run_memory_kib(report):
    """hxrt-run's Memory line: (what a run allocates, the weights kept) in KiB."""
    line = re.search(r"a run allocates ([0-9.]+) (\w+) .*; constants ([0-9.]+) (\w+)", report)
    return (float(line.group(1)) * UNITS_KIB[line.group(2)],
            float(line.group(3)) * UNITS_KIB[line.group(4)])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--ort-child":
        path, threads, runs, out_dir = sys.argv[2:6]
        files = dict(pair.split("=", 1) for pair in sys.argv[6:])
        onnxruntime_child(path, files, int(threads), int(runs), pathlib.Path(out_dir))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hxrt-run", default="build/bin/hxrt-run")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    print(f"Median of {args.runs} runs per side; ratio = hxrt's throughput / ONNX Runtime's "
          f"(onnxruntime {onnxruntime.__version__}); difference = the largest share of the "
          "tests' tolerance")
    baseline = child_peak_mib([sys.executable, "-c", "import numpy, onnxruntime"])[3]
    print(f"Peak RSS of each side's process in MiB (a Python process that imports numpy and "
          f"onnxruntime alone: {baseline:.1f}); hxrt's run: what a run allocates, KiB, and the "
          "weights it keeps, KiB")
    print(f"{'model':<11} {'batch':>5} {'threads':>7} {'ORT ms':>8} {'hxrt ms':>8} "
          f"{'ratio':>6} {'ORT min':>8} {'hxrt min':>8} {'difference':>10} {'ORT RSS':>8} "
          f"{'hxrt RSS':>8} {'hxrt run':>9} {'weights':>8}")
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        for name, batch in CASES:
            path = scratch / f"{name}_{batch}.onnx"
            onnx.save(make_models.build(name, batch), str(path))
            inputs = make_models.example_inputs(name, batch, SEQUENCE)
            input_files = {}
            for input_name, array in inputs.items():
                input_files[input_name] = scratch / f"{name}_{batch}_{input_name}.npy"
                np.save(input_files[input_name], array)
            shape = f"{batch}x{SEQUENCE}" if name == "transformer" else str(batch)
            for threads in (1, 2):
                ort_dir = scratch / f"ort_{name}_{batch}_{threads}"
                ort_ms, ort_min, expected, ort_peak = onnxruntime_side(
                    path, input_files, threads, args.runs, ort_dir)
                out_dir = scratch / "out"
                hxrt_ms, hxrt_min, hxrt_peak, (run_kib, weights_kib) = hxrt_times_ms(
                    args.hxrt_run, path, input_files, out_dir, threads, args.runs)
                share = max(compare_outputs.worst_difference(
                    np.load(out_dir / f"{output}.npy"), array)[1]
                    for output, array in expected.items())
                print(f"{name:<11} {shape:>5} {threads:>7} {ort_ms:>8.3f} {hxrt_ms:>8.3f} "
                      f"{ort_ms / hxrt_ms:>6.2f} {ort_min:>8.3f} {hxrt_min:>8.3f} "
                      f"{share:>10.3f} {ort_peak:>8.1f} {hxrt_peak:>8.1f} {run_kib:>9.1f} "
                      f"{weights_kib:>8.1f}", flush=True)


if __name__ == "__main__":
    main()

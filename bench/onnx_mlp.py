#!/usr/bin/env python3
"""The 784-512-512-10 MLP through hxrt and ONNX Runtime, side by side, on the CPU.

The model is written here with onnx.helper as torch.onnx.export writes nn.Linear layers (Gemm
with transB=1, Relu between them; seeded random weights). Each runtime runs it in its own
process, timed in-process: ONNX Runtime through its Python API, hxrt through hxrt-run (the same
inputs, from an .npy file). Prints per batch size and thread count the median time per run of
each, hxrt's throughput as a ratio of ONNX Runtime's, and the largest relative difference of
their outputs.

Needs onnx, onnxruntime and numpy (a virtual environment: python3 -m venv .cache/venv &&
.cache/venv/bin/pip install onnx onnxruntime numpy), and a Release build of hxrt-run.

  .cache/venv/bin/python bench/onnx_mlp.py [--hxrt-run build/bin/hxrt-run] [--runs 200]
"""
import argparse
import os
import pathlib
import re
import subprocess
import tempfile
import time

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper

SIZES = [784, 512, 512, 10]


def mlp_model(seed=0):
    rng = np.random.default_rng(seed)
    nodes, initializers = [], []
    previous = "x"
    for layer, (inputs, outputs) in enumerate(zip(SIZES, SIZES[1:])):
        weight = (rng.standard_normal((outputs, inputs)) / np.sqrt(inputs)).astype(np.float32)
        bias = (rng.standard_normal(outputs) * 0.1).astype(np.float32)
        initializers += [numpy_helper.from_array(weight, f"fc{layer}.weight"),
                         numpy_helper.from_array(bias, f"fc{layer}.bias")]
        out = f"fc{layer}" if layer + 2 < len(SIZES) else "y"
        nodes.append(helper.make_node("Gemm", [previous, f"fc{layer}.weight", f"fc{layer}.bias"],
                                      [out], name=f"/fc{layer}/Gemm", transB=1))
        previous = out
        if layer + 2 < len(SIZES):
            nodes.append(helper.make_node("Relu", [out], [f"relu{layer}"], name=f"/relu{layer}"))
            previous = f"relu{layer}"
    graph = helper.make_graph(
        nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", SIZES[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", SIZES[-1]])],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="bench/onnx_mlp.py")
    onnx.checker.check_model(model)
    return model


def onnxruntime_median_ms(path, x, threads, runs):
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    output = session.run(None, {"x": x})[0]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, {"x": x})
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times)), output


def hxrt_median_ms(hxrt_run, path, x_path, out_dir, threads, runs):
    environment = dict(os.environ, HXRT_INTRA_OP_THREADS=str(threads))
    result = subprocess.run([hxrt_run, str(path), "--input", f"x={x_path}", "--runs", str(runs),
                             "--save-outputs", str(out_dir)],
                            env=environment, capture_output=True, text=True, check=True)
    median = re.search(r"median ([0-9.]+) ms", result.stdout)
    return float(median.group(1)), np.load(out_dir / "y.npy")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hxrt-run", default="build/bin/hxrt-run")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        path = scratch / "mlp.onnx"
        onnx.save(mlp_model(), str(path))
        print(f"MLP {'-'.join(map(str, SIZES))}, median of {args.runs} runs per side; ratio = "
              "hxrt's throughput / ONNX Runtime's (onnxruntime " + onnxruntime.__version__ + ")")
        print(f"{'batch':>5} {'threads':>7} {'ORT ms':>9} {'hxrt ms':>9} {'ratio':>6} "
              f"{'max rel diff':>12}")
        for batch in (1, 64):
            x = np.random.default_rng(1).standard_normal((batch, SIZES[0])).astype(np.float32)
            x_path = scratch / "x.npy"
            np.save(x_path, x)
            for threads in (1, 2):
                ort_ms, expected = onnxruntime_median_ms(path, x, threads, args.runs)
                hxrt_ms, got = hxrt_median_ms(args.hxrt_run, path, x_path, scratch / "out",
                                              threads, args.runs)
                difference = float(np.max(np.abs(got - expected) /
                                          np.maximum(np.abs(expected), 1e-6)))
                print(f"{batch:>5} {threads:>7} {ort_ms:>9.4f} {hxrt_ms:>9.4f} "
                      f"{ort_ms / hxrt_ms:>6.2f} {difference:>12.2e}")


if __name__ == "__main__":
    main()

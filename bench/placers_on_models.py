#!/usr/bin/env python3
"""The dynamic placer against the simple placer on the three whole models, measured.

The models of tests/whole_models (make_models.py), each compiled by hxrt-run with
--placer simple and with --placer dynamic over every device this machine's plugins offer (the
CPU and, with PoCL, an OpenCL device), one thread each (HXRT_INTRA_OP_THREADS=1,
HXRT_INTER_OP_THREADS=1), alternating the two placers for several rounds so that a change of
the machine's load falls on both. Per model: the mean and the median time per run of each
placer (medians over the rounds), the dynamic placer's as a ratio of the simple placer's
(above 1: slower; the issue's bar is 1.05), and each placer's compile time. The dynamic
placer's mean carries its checks (a compile in the run's thread now and then), its median
does not.

  scripts/make-model-venv.sh
  .cache/model-venv/bin/python bench/placers_on_models.py [--hxrt-run build/bin/hxrt-run]
      [--runs 300] [--rounds 3]
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

import onnx

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "whole_models"))
import make_models  # noqa: E402

MODELS = [("mlp", ["--dim", "batch=64"]), ("cnn", []),
          ("transformer", ["--dim", "batch=8", "--dim", "seq=32"])]
RUN_LINE = re.compile(r"Run: \d+ runs: mean ([\d.]+) ms, min [\d.]+ ms, median ([\d.]+) ms")
COMPILE_LINE = re.compile(r"compile: ([\d.]+) ms")


def run_once(hxrt_run, model, dims, placer, runs):
    env = dict(os.environ, HXRT_INTRA_OP_THREADS="1", HXRT_INTER_OP_THREADS="1")
    out = subprocess.run([hxrt_run, str(model), *dims, "--placer", placer, "--runs", str(runs)],
                         env=env, check=True, capture_output=True, text=True).stdout
    mean, median = (float(value) for value in RUN_LINE.search(out).groups())
    return mean, median, float(COMPILE_LINE.search(out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hxrt-run", default="build/bin/hxrt-run")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.rounds} rounds of {args.runs} runs per placer; ratio = dynamic / simple")
    print(f"{'model':12} {'simple mean':>11} {'dyn mean':>9} {'ratio':>6} {'simple med':>10} "
          f"{'dyn med':>8} {'ratio':>6} {'compile ms (s/d)':>17}")
    with tempfile.TemporaryDirectory() as work:
        for name, dims in MODELS:
            path = pathlib.Path(work) / f"{name}.onnx"
            onnx.save(getattr(make_models, f"{name}_model")(), str(path))
            times = {"simple": [], "dynamic": []}
            for _ in range(args.rounds):
                for placer in times:
                    times[placer].append(run_once(args.hxrt_run, path, dims, placer, args.runs))
            simple, dynamic = ([statistics.median(t[i] for t in times[p]) for i in range(3)]
                               for p in ("simple", "dynamic"))
            print(f"{name:12} {simple[0]:11.3f} {dynamic[0]:9.3f} {dynamic[0] / simple[0]:6.2f} "
                  f"{simple[1]:10.3f} {dynamic[1]:8.3f} {dynamic[1] / simple[1]:6.2f} "
                  f"{simple[2]:8.1f}/{dynamic[2]:.1f}")


if __name__ == "__main__":
    main()

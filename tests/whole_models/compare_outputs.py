#!/usr/bin/env python3
"""Compares hxrt's outputs of a model with ONNX Runtime's, element by element.

  compare_outputs.py CASE_DIR    # CASE_DIR/expected/<output>.npy against CASE_DIR/hxrt/

Each element passes when |hxrt - ort| <= RELATIVE * max(|ort|, FLOOR * max|ort of that output|).
The floor is relative to the output's own scale: an element far smaller than its output's
largest is the sum of terms of about that scale which cancelled, and the rounding of such a sum
(in a different order in OpenBLAS, oneDNN and ONNX Runtime's MLAS) is an error relative to the
terms, not to the small result; with no floor those elements would need a looser RELATIVE for
all. Prints per output the largest difference, absolute and as a fraction of the allowed one;
exits 1 when an output differs beyond it, or is missing, or has another shape or dtype.
"""
import pathlib
import sys

import numpy as np

RELATIVE = 1e-4
FLOOR = 1e-2


def worst_difference(got, expected):
    """(largest |a-b|, the largest share of the allowed difference, where it is)."""
    expected64, got64 = expected.astype(np.float64), got.astype(np.float64)
    scale = float(np.max(np.abs(expected64), initial=0.0))
    allowed = RELATIVE * np.maximum(np.abs(expected64), FLOOR * scale)
    difference = np.abs(got64 - expected64)
    # allowed is 0 only where the whole output is 0: there any difference fails, and NaN does
    # wherever it is.
    share = np.where(allowed > 0, difference / np.where(allowed > 0, allowed, 1),
                     np.where(difference > 0, np.inf, 0))
    share = np.where(np.isnan(got64), np.inf, share)
    if share.size == 0:
        return 0.0, 0.0, []
    worst = np.unravel_index(np.argmax(share), share.shape)
    return float(difference.max()), float(share[worst]), [int(i) for i in worst]


def compare(name, got, expected):
    """Prints the line of one output; returns whether it passes."""
    if got.shape != expected.shape or got.dtype != expected.dtype:
        print(f"  {name}: hxrt gave {got.dtype} {list(got.shape)}, ONNX Runtime "
              f"{expected.dtype} {list(expected.shape)}")
        return False
    largest, share, where = worst_difference(got, expected)
    passed = share <= 1
    print(f"  {name}: {expected.dtype} {list(expected.shape)}, largest |a-b| {largest:.3e}, "
          f"largest share of the allowed {share:.3f} (at {where}), largest |b| "
          f"{float(np.max(np.abs(expected), initial=0)):.3e}: {'ok' if passed else 'DIFFERS'}")
    return passed


def main():
    case = pathlib.Path(sys.argv[1])
    expected_files = sorted((case / "expected").glob("*.npy"))
    if not expected_files:
        print(f"{case / 'expected'} holds no .npy: make_models.py did not write this case")
        return 1
    print(f"{case.name}: hxrt against ONNX Runtime, |a-b| <= {RELATIVE:g} * max(|b|, "
          f"{FLOOR:g} * max|b|)")
    passed = True
    for expected_file in expected_files:
        got_file = case / "hxrt" / expected_file.name
        if not got_file.exists():
            print(f"  {expected_file.stem}: hxrt-run wrote no {got_file}")
            passed = False
            continue
        passed &= compare(expected_file.stem, np.load(got_file), np.load(expected_file))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

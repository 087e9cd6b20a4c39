"""What the package's tests share: a snippet run in a fresh interpreter, for what a process
does once (setting its devices up, its default runtime), with the sim plugin as four GPUs."""

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIM_4_GPUS = ROOT / "config" / "examples" / "sim_4_gpus.json"


def run_python(code, config=None, check=True):
    """Runs `code` in a new interpreter with this one's path; HXRT_CONFIG is `config` (none by
    default). Returns the CompletedProcess (stdout and stderr as text)."""
    environment = dict(os.environ, HXRT_CONFIG=str(config) if config else "")
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=environment,
                            capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        pytest.fail(f"the snippet failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


@pytest.fixture
def sim_gpus():
    """The config of four sim GPUs beside the CPU."""
    return SIM_4_GPUS

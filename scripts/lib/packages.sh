# shellcheck shell=bash
# The Debian packages hxrt needs to build and test, checked and installed in one place.
# Sourced by scripts/setup-and-demo.sh, scripts/test.sh and .ci/run.

# python3 and python3-jsonschema check config/hxrt.schema.json against the loader's test cases
# (tests/config/check_schema.py); without them that test reports itself skipped. clang builds
# the sanitizer and fuzz builds of scripts/test.sh; libclang-rt-dev holds its sanitizer and
# libFuzzer runtimes (clang only recommends it, and recommendations are not installed); lld
# links all three builds of scripts/test.sh, several times faster than GNU ld.
# libopenblas-openmp-dev is OpenBLAS's build on OpenMP's threads, which oneDNN runs on too, so
# that the two share one pool (plugins/cpu/blas/blas_threads.hpp).
# ocl-icd-opencl-dev (the ICD loader) and opencl-headers build the OpenCL plugin;
# pocl-opencl-icd is the OpenCL platform its tests run on (one device on the host's cores).
# valgrind counts the instructions of an eager op for the hot path's budget
# (bench/check_instructions.sh); without it that test reports itself skipped.
# libdnnl-dev (oneDNN) gives the CPU plugin its convolution, pooling and normalisation kernels;
# libonnx-dev and libprotobuf-dev read ONNX models (core/src/models/onnx).
# doxygen makes the API reference from the public headers (docs/CMakeLists.txt); without it the
# build leaves the reference out and says so.
# libopenmpi-dev builds libhxrt_mpi.so, the clusters' transport (core/src/cluster/mpi), and
# openmpi-bin has mpirun, which runs the cluster tests (tests/cluster).
# python3-venv makes the virtual environments of PyPI's packages the tests use (the model
# environment, the Python package's); python3-dev has the headers the package's extension
# builds against.
HXRT_PACKAGES=(build-essential cmake pkg-config libopenblas-openmp-dev libtbb-dev nlohmann-json3-dev catch2
               libbenchmark-dev python3 python3-jsonschema python3-venv python3-dev
               clang libclang-rt-dev lld
               ocl-icd-opencl-dev opencl-headers pocl-opencl-icd valgrind doxygen
               libdnnl-dev libonnx-dev libprotobuf-dev libopenmpi-dev openmpi-bin)

# Prints the packages of HXRT_PACKAGES that are not installed, one per line.
hxrt_missing_packages() {
  local package
  for package in "${HXRT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
      echo "$package"
    fi
  done
}

# Installs the missing packages; runs apt-get update only when something is missing.
# Needs root when it has something to install.
hxrt_install_missing_packages() {
  local missing
  mapfile -t missing < <(hxrt_missing_packages)
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  if ((EUID != 0)); then
    echo "Missing packages: ${missing[*]}" >&2
    echo "Run this script as root (sudo) to install them." >&2
    return 1
  fi
  echo "Installing: ${missing[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# Fails with a message naming the missing packages and the command that installs them.
hxrt_require_packages() {
  if ! command -v dpkg-query >/dev/null; then
    echo "Not a Debian system: cannot check packages; CMake will report what it cannot find." >&2
    return 0
  fi
  local missing
  mapfile -t missing < <(hxrt_missing_packages)
  if ((${#missing[@]} != 0)); then
    echo "Missing packages: ${missing[*]}" >&2
    echo "Install them with: sudo scripts/setup-and-demo.sh" >&2
    return 1
  fi
}

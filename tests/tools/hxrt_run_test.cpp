// hxrt-run as an operator runs it: an ONNX model on random or given inputs, its placement
// summary, timings and saved outputs, and its errors.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "npy_file.hpp"
#include "onnx_models.hpp"
#include "run_program.hpp"
#include "temp_dir.hpp"

using hxrt_test::built_program;
using hxrt_test::run_program;
using hxrt_test::shell_quote;

namespace {

// The dense model of tests/models in `dir`, as model.onnx; its path, quoted for the shell.
std::string write_dense_model(const hxrt_test::TempDir& dir) {
  const std::string path = (dir.path() / "model.onnx").string();
  std::ofstream(path, std::ios::binary) << onnx_test::bytes_of(onnx_test::dense_model());
  return shell_quote(path);
}

hxrt_test::ProgramResult hxrt_run(const std::string& arguments) {
  return run_program(std::string(hxrt_test::kCleanEnvironment) + built_program("hxrt-run") +
                     " " + arguments + " 2>&1");
}

}  // namespace

TEST_CASE("hxrt-run runs a model on random inputs and summarises where it ran", "[tools]") {
  hxrt_test::TempDir dir("hxrt_run");
  const hxrt_test::ProgramResult result =
      hxrt_run(write_dense_model(dir) + " --dim batch=3 --runs 4");
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("(opset 17, made by hxrt-tests): 3 nodes, 0 more "
                                            "computed at load"));
  CHECK_THAT(result.output, Catch::Contains("  x: float32 [3, 2] (random)\n"));
  CHECK_THAT(result.output,
             Catch::Contains("  /job:localhost/replica:0/task:0/device:CPU:0: 1 node "
                             "(MatMulBias 1)\n  no node fell back from the device it asked "
                             "for\n"));
  CHECK_THAT(result.output, Catch::Contains("Run: 4 runs: mean "));
  CHECK_THAT(result.output, Catch::Contains("  y: float32 [3, 2]\n"));
}

TEST_CASE("hxrt-run reads inputs from .npy files and saves its outputs as .npy", "[tools]") {
  hxrt_test::TempDir dir("hxrt_run");
  hxrun::NpyArray x;
  x.shape = hxrt::Shape({2, 2});
  const float values[] = {1, 1, 2, 1};
  x.bytes.assign(reinterpret_cast<const char*>(values), sizeof(values));
  const std::string x_path = (dir.path() / "x.npy").string();
  hxrun::write_npy(x_path, x);
  const std::string out = (dir.path() / "out").string();
  const hxrt_test::ProgramResult result =
      hxrt_run(write_dense_model(dir) + " --input x=" + shell_quote(x_path) +
               " --save-outputs " + shell_quote(out) + " --runs 1");
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("  x: float32 [2, 2] (" + x_path + ")"));
  const hxrun::NpyArray y = hxrun::read_npy(out + "/y.npy");
  CHECK(y.shape == hxrt::Shape({2, 2}));
  std::vector<float> got(4);
  std::memcpy(got.data(), y.bytes.data(), y.bytes.size());
  CHECK(got == std::vector<float>{0, 7, 0, 9});
}

TEST_CASE("hxrt-run plans a model over a described cluster, and runs nothing", "[tools]") {
  hxrt_test::TempDir dir("hxrt_run");
  const std::string topology = (dir.path() / "cluster.json").string();
  std::ofstream(topology) << R"({"tasks": [{"count": 4, "devices": [{"like": "/CPU:0"}]}],
                                "network": {"gigabytes_per_second": 10, "latency_us": 5}})";
  hxrt_test::ProgramResult result = hxrt_run(write_dense_model(dir) + " --dim batch=3" +
                                             " --plan-topology " + shell_quote(topology));
  INFO(result.output);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("Planned over " + topology + " in "));
  // One small layer is not worth the network: it stays on the first task, planned as the
  // model was built (compile's passes fuse it).
  CHECK_THAT(result.output, Catch::Contains("  /job:worker/replica:0/task:0/device:CPU:0: 3 nodes "
                                            "(Add 1, MatMul 1, Relu 1)\n"));
  CHECK_THAT(result.output, Catch::Contains("Estimated run: "));
  CHECK_THAT(result.output, Catch::Contains(" ms on 1 task, against "));
  CHECK_THAT(result.output, !Catch::Contains("Run: "));

  std::ofstream(topology) << R"({"tasks": [{"devices": [{"like": "/CPU:0"}]}]})";
  result = hxrt_run(write_dense_model(dir) + " --dim batch=3 --plan-topology " +
                    shell_quote(topology));
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Catch::Contains("/network: missing"));
  result = hxrt_run(write_dense_model(dir) + " --dim batch=3 --plan-topology " +
                    shell_quote(topology + ".absent"));
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Catch::Contains("cannot read the file"));
}

TEST_CASE("hxrt-run says what is wrong with its command line and the model", "[tools]") {
  hxrt_test::TempDir dir("hxrt_run");
  const std::string model = write_dense_model(dir);
  hxrt_test::ProgramResult result = hxrt_run("");
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Catch::Contains("hxrt-run: give the model: an .onnx file\nusage: "));
  result = hxrt_run(model);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Catch::Contains("dimension 0 'batch' is left open. Bind it: "));
  CHECK_THAT(result.output, Catch::Contains("(hxrt-run: --dim batch=N, --shape x=..., or "
                                            "--input x=file.npy)"));
  result = hxrt_run(model + " --dim batch=1 --runs zero");
  CHECK_THAT(result.output, Catch::Contains("--runs takes a whole number, not 'zero'"));
  result = hxrt_run(model + " --dim batch=1 --input q=" + model);
  CHECK_THAT(result.output, Catch::Contains("is not a NumPy .npy file"));
  const std::string npy = (dir.path() / "q.npy").string();
  hxrun::NpyArray q;
  q.shape = hxrt::Shape({1});
  q.bytes.assign(4, '\0');
  hxrun::write_npy(npy, q);
  result = hxrt_run(model + " --dim batch=1 --input q=" + shell_quote(npy));
  CHECK_THAT(result.output, Catch::Contains("--input q: the model has no input of that name; "
                                            "its inputs: x"));
}

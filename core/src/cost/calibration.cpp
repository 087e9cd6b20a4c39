#include "cost/calibration.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "execution/transfers.hpp"
#include "tensor_impl.hpp"

namespace hxrt::detail {
namespace {

constexpr int kRepeats = 3;
constexpr int64_t kMatMulSide = 256;
constexpr int64_t kVectorFloats = int64_t{1} << 18;  // 1 MiB
constexpr int64_t kBigCopyFloats = int64_t{1} << 18;

// The median wall time of `work` (which waits for what it times), or nullopt when it throws.
std::optional<double> median_seconds(const std::function<void()>& work) {
  std::vector<double> times;
  try {
    work();  // warm: the first call makes instances and takes memory
    for (int i = 0; i < kRepeats; ++i) {
      const auto start = std::chrono::steady_clock::now();
      work();
      times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  } catch (const Error&) {
    return std::nullopt;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Tensor zeros(Device& device, const Shape& shape) {
  const size_t bytes = tensor_bytes(DType::kF32, shape);
  const std::vector<unsigned char> host(bytes, 0);
  return Tensor(tensor_from_host(device, DType::kF32, shape, host.data(), bytes));
}

// `op` on `inputs`, run on `device` and waited for; throws when it ran elsewhere (the device
// has no kernel for it and soft placement moved it).
void run_on(Runtime::Impl& runtime, Device& device, const std::string& op,
            const std::vector<Tensor>& inputs) {
  Tensor output;
  runtime.run(runtime.schema_of(op), inputs.data(), inputs.size(), {}, device.name(), &output);
  output.wait();
  if (output.device() != device.name()) {
    throw Error(StatusCode::kUnimplemented, op + " did not run on " + device.name());
  }
}

void calibrate_device(Runtime::Impl& runtime, CostModel& model, Device& device) {
  DeviceSpeed speed;
  const Tensor one = zeros(device, {1});
  const Tensor square = zeros(device, {kMatMulSide, kMatMulSide});
  const Tensor vector = zeros(device, {kVectorFloats});
  const std::optional<double> latency =
      median_seconds([&] { run_on(runtime, device, "Relu", {one}); });
  speed.latency = latency.value_or(0);
  const std::optional<double> matmul =
      median_seconds([&] { run_on(runtime, device, "MatMul", {square, square}); });
  const std::optional<double> add =
      median_seconds([&] { run_on(runtime, device, "Add", {vector, vector}); });
  if (!latency && !matmul && !add) return;  // nothing runs there: the defaults stay
  const double side = static_cast<double>(kMatMulSide);
  if (matmul) speed.flops_per_second = 2 * side * side * side / std::max(*matmul - speed.latency, 1e-9);
  if (add) {
    speed.bytes_per_second =
        3 * 4 * static_cast<double>(kVectorFloats) / std::max(*add - speed.latency, 1e-9);
  }
  model.set_speed(device.index(), speed);
}

void calibrate_link(Runtime::Impl& runtime, CostModel& model, Device& from, Device& to) {
  const Tensor small = zeros(from, {4});
  const Tensor big = zeros(from, {kBigCopyFloats});
  auto copy = [&](const Tensor& tensor) { runtime.copy_to(tensor, to).wait(); };
  const std::optional<double> latency = median_seconds([&] { copy(small); });
  const std::optional<double> large = median_seconds([&] { copy(big); });
  if (!latency || !large) return;
  model.set_link(from.index(), to.index(),
                 {4 * static_cast<double>(kBigCopyFloats) / std::max(*large - *latency, 1e-9),
                  *latency});
}

}  // namespace

void calibrate(Runtime::Impl& runtime, CostModel& model, const std::vector<Device*>& devices) {
  const QuietPlacementLog quiet;
  for (Device* device : devices) {
    if (!model.has_speed(device->index())) calibrate_device(runtime, model, *device);
  }
  for (Device* from : devices) {
    for (Device* to : devices) {
      if (from != to && !model.has_link(from->index(), to->index())) {
        calibrate_link(runtime, model, *from, *to);
      }
    }
  }
}

}  // namespace hxrt::detail

#include "eager/calibration.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

#include "eager/quiet_placement_log.hpp"
#include "tensors/transfers.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {
namespace {

constexpr int kRepeats = 3;
// Sizes grow until a call takes long enough to time well, so a slow device is not kept busy
// with calls of a size that would take it seconds.
constexpr double kLongEnough = 2e-3;
constexpr int64_t kMatMulSides[] = {64, 128, 256};
constexpr int64_t kVectorFloats[] = {int64_t{1} << 14, int64_t{1} << 16, int64_t{1} << 18};
constexpr int64_t kBigCopyFloats = int64_t{1} << 18;

// The shortest wall time of `work` (which waits for what it times), or nullopt when it throws:
// a busy machine only ever adds time (a thread descheduled, a cache flushed by a neighbour),
// so the fastest of a few calls is the device's own, where the median still moved with the
// load when two of three calls were slowed (a parallel test run beside a build).
std::optional<double> fastest_seconds(const std::function<void()>& work) {
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
  return *std::min_element(times.begin(), times.end());
}

Tensor zeros(Device& device, const Shape& shape) {
  const size_t bytes = tensor_bytes(DType::kF32, shape);
  const std::vector<unsigned char> host(bytes, 0);
  return Tensor(tensor_from_host(device, DType::kF32, shape, host.data(), bytes));
}

// `op` on `inputs`, run on `device` and waited for; throws when it ran elsewhere (the device
// has no kernel for it and soft placement moved it).
void run_on(EagerOps& eager, Device& device, const std::string& op,
            const std::vector<Tensor>& inputs) {
  Tensor output;
  const std::vector<TensorArg> args(inputs.begin(), inputs.end());
  eager.run(eager.schema_of(op), args.data(), args.size(), {}, device.name(), &output);
  output.wait();
  if (output.device() != device.name()) {
    throw Error(StatusCode::kUnimplemented, op + " did not run on " + device.name());
  }
}

// Work per second of `op` on `device`, its inputs `count` zeros of `shape`, at the first size
// of `sizes` that takes long enough; `work` is what one call at that size does. nullopt when
// the device cannot run it.
template <class ShapeOf, class WorkOf>
std::optional<double> rate(EagerOps& eager, Device& device, const std::string& op,
                           const int64_t (&sizes)[3], ShapeOf shape_of, WorkOf work_of,
                           double latency) {
  for (int64_t size : sizes) {
    const Tensor input = zeros(device, shape_of(size));
    const std::optional<double> seconds =
        fastest_seconds([&] { run_on(eager, device, op, {input, input}); });
    if (!seconds) return std::nullopt;
    if (*seconds >= kLongEnough || size == sizes[2]) {
      return work_of(static_cast<double>(size)) / std::max(*seconds - latency, 1e-9);
    }
  }
  return std::nullopt;
}

void calibrate_device(EagerOps& eager, CostModel& model, Device& device) {
  DeviceSpeed speed;
  const Tensor one = zeros(device, {1});
  const std::optional<double> latency =
      fastest_seconds([&] { run_on(eager, device, "Relu", {one}); });
  speed.latency = latency.value_or(0);
  const std::optional<double> flops = rate(
      eager, device, "MatMul", kMatMulSides, [](int64_t side) { return Shape{side, side}; },
      [](double side) { return 2 * side * side * side; }, speed.latency);
  const std::optional<double> bytes = rate(
      eager, device, "Add", kVectorFloats, [](int64_t floats) { return Shape{floats}; },
      [](double floats) { return 3 * 4 * floats; }, speed.latency);
  if (!latency && !flops && !bytes) return;  // nothing runs there: the defaults stay
  speed.flops_per_second = flops.value_or(0);
  speed.bytes_per_second = bytes.value_or(0);
  model.set_speed(device.index(), speed);
}

void calibrate_link(EagerOps& eager, CostModel& model, Device& from, Device& to) {
  const Tensor small = zeros(from, {4});
  const Tensor big = zeros(from, {kBigCopyFloats});
  auto copy = [&](const Tensor& tensor) { eager.copy_to(tensor, to).wait(); };
  const std::optional<double> latency = fastest_seconds([&] { copy(small); });
  const std::optional<double> large = fastest_seconds([&] { copy(big); });
  if (!latency || !large) return;
  model.set_link(from.index(), to.index(),
                 {4 * static_cast<double>(kBigCopyFloats) / std::max(*large - *latency, 1e-9),
                  *latency});
}

}  // namespace

void calibrate(EagerOps& eager, CostModel& model, const std::vector<Device*>& devices) {
  const QuietPlacementLog quiet;
  // A device too small or too busy for a measurement keeps the defaults for it.
  for (Device* device : devices) {
    if (model.has_speed(device->index())) continue;
    try {
      calibrate_device(eager, model, *device);
    } catch (const Error&) {
    }
  }
  for (Device* from : devices) {
    for (Device* to : devices) {
      if (from == to || model.has_link(from->index(), to->index())) continue;
      try {
        calibrate_link(eager, model, *from, *to);
      } catch (const Error&) {
      }
    }
  }
  // The memory the measurements took goes back, so the graph's plan finds it whole.
  for (Device* device : devices) device->release_unused_memory();
}

}  // namespace hxrt::detail

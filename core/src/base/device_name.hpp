// Device names in every form of the TensorFlow GPU guide, parsed into one DeviceSpec.
//
// Accepted: "/device:CPU:0", "/CPU:0", "/cpu:0", "CPU:0", "/GPU:1", "/gpu:1",
// "/device:GPU:1", "/job:localhost/replica:0/task:0/device:GPU:1", and partial specs such as
// "/GPU" or "/device:GPU" (any GPU), "/job:localhost" (any device of that job). Types are
// upper-cased ("gpu" -> "GPU"); a type matches [A-Z][A-Z0-9_]* after that.
//
// The parser is strict: components appear at most once, in the order job, replica, task,
// device; indices are decimal digits only and fit in an int; the keywords job, replica, task
// and device (any case) are never device types. Syntax is all it checks: whether the device
// exists is the placer's question.
#pragma once

#include <string>
#include <string_view>

namespace hxrt::detail {

struct DeviceSpec {
  std::string job;   // empty: any job
  int replica = -1;  // -1: any
  int task = -1;     // -1: any
  std::string type;  // empty: any type; upper case otherwise
  int index = -1;    // -1: any device of the type

  bool fully_specified() const { return !type.empty() && index >= 0; }
};

// The task of a cluster a device belongs to, as its name gives it: "/job:worker/replica:0/
// task:1". A process outside a cluster is /job:localhost/replica:0/task:0.
struct TaskName {
  std::string job = "localhost";
  int task = 0;

  // "/job:worker/replica:0/task:1"
  std::string prefix() const;
  // Whether `spec` leaves this task's devices in: its job, replica and task are this one's or
  // unset. Outside a cluster, "localhost" also names this task (as TensorFlow's do).
  bool admits(const DeviceSpec& spec) const;
  bool operator==(const TaskName& other) const { return job == other.job && task == other.task; }
};

// Throws Error(kInvalidArgument) for a malformed name, quoting it and listing the forms.
DeviceSpec parse_device_name(std::string_view text);

// "/job:localhost/replica:0/task:0/device:GPU:1"
std::string canonical_device_name(std::string_view type, int index);
// "/job:worker/replica:0/task:1/device:GPU:1"
std::string canonical_device_name(const TaskName& task, std::string_view type, int index);
// "GPU:1"
std::string short_device_name(std::string_view type, int index);
// The canonical form of whatever the spec pins down: "/job:localhost/device:GPU" for a
// partial one, the full canonical name for a complete one.
std::string to_string(const DeviceSpec& spec);

}  // namespace hxrt::detail

#include "base/device_name.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "hxrt/error.hpp"

namespace hxrt::detail {

namespace {

constexpr const char* kAcceptedForms =
    "Accepted forms: \"/device:GPU:1\", \"/GPU:1\", \"/gpu:1\", \"GPU:1\", "
    "\"/job:localhost/replica:0/task:0/device:GPU:1\", and partial specs such as \"/GPU\", "
    "\"/device:GPU\" or \"/job:localhost\". A device type is CPU, GPU or a plugin's own "
    "(letters, digits and '_', starting with a letter, any case); an index is an integer from 0 "
    "to 2147483647.";

[[noreturn]] void reject(std::string_view name, const std::string& reason) {
  throw Error(StatusCode::kInvalidArgument, "Invalid device name '" + std::string(name) +
                                                "': " + reason + ". " + kAcceptedForms);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      parts.push_back(text.substr(start));
      return parts;
    }
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

bool is_upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

std::string ascii_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

bool is_identifier(std::string_view upper) {
  if (upper.empty() || !(upper[0] >= 'A' && upper[0] <= 'Z')) return false;
  for (char c : upper) {
    if (!is_upper_or_digit(c) && c != '_') return false;
  }
  return true;
}

// Component keywords, in the order they must appear. Compared without case so that no device
// type can be spelled like a keyword.
enum Field { kJob = 0, kReplica = 1, kTask = 2, kDevice = 3 };
constexpr const char* kFieldNames[] = {"job", "replica", "task", "device"};

class Parser {
 public:
  explicit Parser(std::string_view name) : name_(name) {}

  DeviceSpec parse() {
    if (name_.empty()) reject(name_, "the name is empty");
    std::string_view body = name_;
    if (body.front() == '/') body.remove_prefix(1);
    for (std::string_view component : split(body, '/')) parse_component(component);
    return spec_;
  }

 private:
  void parse_component(std::string_view component) {
    if (component.empty()) {
      reject(name_, "it has an empty component (a '/' at the end, or two '/' in a row)");
    }
    const std::vector<std::string_view> parts = split(component, ':');
    const std::string keyword = ascii_upper(parts[0]);
    if (keyword == "JOB") {
      enter(kJob, component);
      expect_parts(component, parts, 2, 2, "job:NAME");
      if (!is_identifier(ascii_upper(parts[1]))) {
        reject(name_, "the job name '" + std::string(parts[1]) +
                          "' must be letters, digits and '_', starting with a letter");
      }
      spec_.job = std::string(parts[1]);
    } else if (keyword == "REPLICA") {
      enter(kReplica, component);
      expect_parts(component, parts, 2, 2, "replica:N");
      spec_.replica = parse_number(parts[1], "replica");
    } else if (keyword == "TASK") {
      enter(kTask, component);
      expect_parts(component, parts, 2, 2, "task:N");
      spec_.task = parse_number(parts[1], "task");
    } else if (keyword == "DEVICE") {
      enter(kDevice, component);
      expect_parts(component, parts, 2, 3, "device:TYPE or device:TYPE:INDEX");
      parse_device(parts[1], parts.size() == 3 ? &parts[2] : nullptr);
    } else {
      enter(kDevice, component);
      expect_parts(component, parts, 1, 2, "TYPE or TYPE:INDEX");
      parse_device(parts[0], parts.size() == 2 ? &parts[1] : nullptr);
    }
  }

  // Each field at most once, in the canonical order: a name like "/GPU:0/CPU:0" is ambiguous.
  void enter(Field field, std::string_view component) {
    if (field < next_field_) {
      const std::string where = field == next_field_ - 1
                                    ? std::string("it names the ") + kFieldNames[field] + " twice"
                                    : "'" + std::string(component) + "' comes too late";
      reject(name_, where + "; components go in the order /job, /replica, /task, /device, "
                            "each at most once");
    }
    next_field_ = field + 1;
  }

  void expect_parts(std::string_view component, const std::vector<std::string_view>& parts,
                    size_t min_parts, size_t max_parts, const char* form) {
    if (parts.size() < min_parts || parts.size() > max_parts) {
      reject(name_, "the component '" + std::string(component) + "' is not of the form " + form);
    }
  }

  void parse_device(std::string_view type, const std::string_view* index) {
    if (type.empty()) reject(name_, "the device type is empty");
    const std::string upper = ascii_upper(type);
    if (!is_identifier(upper)) {
      reject(name_, "'" + std::string(type) +
                        "' is not a device type: a type is letters, digits and '_', starting "
                        "with a letter");
    }
    // Only "/device:TYPE" gets here with a keyword: it would print as a name ("/TASK:3")
    // that parses as another component.
    for (const char* keyword : kFieldNames) {
      if (upper == ascii_upper(keyword)) {
        reject(name_, "'" + std::string(type) +
                          "' is a component keyword (job, replica, task, device), never a "
                          "device type");
      }
    }
    spec_.type = upper;
    if (index) spec_.index = parse_number(*index, "device index");
  }

  int parse_number(std::string_view digits, const char* what) {
    if (digits.empty()) reject(name_, std::string("the ") + what + " is empty");
    long long value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') {
        reject(name_, std::string("the ") + what + " '" + std::string(digits) +
                          "' is not an integer from 0 to 2147483647");
      }
      value = value * 10 + (c - '0');
      if (value > INT_MAX) {
        reject(name_, std::string("the ") + what + " '" + std::string(digits) +
                          "' is larger than 2147483647");
      }
    }
    return static_cast<int>(value);
  }

  std::string_view name_;
  DeviceSpec spec_;
  int next_field_ = kJob;
};

}  // namespace

DeviceSpec parse_device_name(std::string_view text) { return Parser(text).parse(); }

std::string TaskName::prefix() const {
  return "/job:" + job + "/replica:0/task:" + std::to_string(task);
}

bool TaskName::admits(const DeviceSpec& spec) const {
  return (spec.job.empty() || spec.job == job) && spec.replica <= 0 &&
         (spec.task < 0 || spec.task == task);
}

std::string canonical_device_name(std::string_view type, int index) {
  return canonical_device_name(TaskName{}, type, index);
}

std::string canonical_device_name(const TaskName& task, std::string_view type, int index) {
  return task.prefix() + "/device:" + short_device_name(type, index);
}

std::string short_device_name(std::string_view type, int index) {
  return std::string(type) + ":" + std::to_string(index);
}

std::string to_string(const DeviceSpec& spec) {
  std::string out = "/job:" + (spec.job.empty() ? std::string("localhost") : spec.job);
  // A complete name always spells out replica and task, as TensorFlow's canonical names do.
  const bool complete = spec.fully_specified();
  if (spec.replica >= 0 || complete) out += "/replica:" + std::to_string(std::max(spec.replica, 0));
  if (spec.task >= 0 || complete) out += "/task:" + std::to_string(std::max(spec.task, 0));
  if (!spec.type.empty()) out += "/device:" + spec.type;
  if (spec.index >= 0) out += ":" + std::to_string(spec.index);
  return out;
}

}  // namespace hxrt::detail

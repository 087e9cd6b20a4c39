// The cost model as JSON text (Runtime::cost_model_json) and back (load_cost_model_json,
// CompileOptions::cost_model_json): a saved model is read through the one checked JSON path,
// so every mistake in it is an Error naming its JSON pointer, never the JSON library's own
// exception.
#include <cmath>
#include <optional>

#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "cost/cost_model.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "hxrt cost model";
constexpr int64_t kVersion = 1;

json window_json(const SampleWindow& window, double work) {
  return {{"work", work}, {"seconds", window.values()}};
}

// Reads one saved model: each reader fails with the source and the JSON pointer of the value.
class SavedModelReader {
 public:
  SavedModelReader(const std::string& source, const std::vector<std::string>& names)
      : source_(source), names_(names) {}

  // `object`'s member `key`, nullptr when it has none.
  static const json* member(const json& object, const char* key) {
    auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
  }

  const json& required(const json& object, const char* key, const std::string& path,
                       const char* expected) const {
    const json* value = member(object, key);
    if (value == nullptr) {
      fail(source_, pointer_child(path, key), std::string("missing; expected ") + expected);
    }
    return *value;
  }

  void object(const json& value, const std::string& path) const {
    require_object(value, source_, path);
  }

  void array(const json& value, const std::string& path) const {
    if (!value.is_array()) fail(source_, path, "expected an array, got " + type_of(value));
  }

  double seconds_or_rate(const json& value, const std::string& path) const {
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
      fail(source_, path, "expected a number >= 0, got " + type_of(value));
    }
    return value.get<double>();
  }

  double number_at(const json& object, const char* key, const std::string& path) const {
    return seconds_or_rate(required(object, key, path, "a number >= 0"), pointer_child(path, key));
  }

  std::string string_at(const json& object, const char* key, const std::string& path) const {
    const json& value = required(object, key, path, "a string");
    if (!value.is_string()) {
      fail(source_, pointer_child(path, key), "expected a string, got " + type_of(value));
    }
    return value.get<std::string>();
  }

  // The index of the device `name`; nullopt for a device this runtime lacks, whose entries
  // are read (and checked) but kept by no one.
  std::optional<size_t> device(const std::string& name) const {
    for (size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == name) return i;
    }
    return std::nullopt;
  }

  std::optional<size_t> device_at(const json& object, const char* key,
                                  const std::string& path) const {
    return device(string_at(object, key, path));
  }

  // Samples saved by window_json.
  void window(const json& saved, const std::string& path, double& work, SampleWindow& into) const {
    work = number_at(saved, "work", path);
    const std::string seconds_path = pointer_child(path, "seconds");
    const json& seconds = required(saved, "seconds", path, "an array of numbers");
    array(seconds, seconds_path);
    for (size_t i = 0; i < seconds.size(); ++i) {
      into.add(seconds_or_rate(seconds[i], pointer_child(seconds_path, i)));
    }
  }

  void header(const json& saved) const {
    if (!saved.is_object()) {
      fail(source_, "",
           std::string("expected a cost model saved by hxrt, an object with \"format\": \"") +
               kFormat + "\", got " + type_of(saved));
    }
    const json* format = member(saved, "format");
    if (format == nullptr || !format->is_string() ||
        format->get_ref<const std::string&>() != kFormat) {
      fail(source_, "/format",
           std::string("expected \"") + kFormat +
               "\" (a cost model saved by Runtime::cost_model_json), got " +
               (format == nullptr ? std::string("nothing") : type_of(*format)));
    }
    const json* version = member(saved, "version");
    if (version == nullptr || integer_in(*version, kVersion, kVersion) != kVersion) {
      fail(source_, "/version",
           "expected " + std::to_string(kVersion) + ", the version this hxrt reads, got " +
               (version == nullptr ? std::string("nothing") : type_of(*version)));
    }
  }

 private:
  const std::string& source_;
  const std::vector<std::string>& names_;
};

}  // namespace

std::string CostModel::to_json(const std::vector<std::string>& names) const {
  std::lock_guard<std::mutex> lock(mutex_);
  json devices = json::object();
  for (const auto& [device, speed] : speeds_) {
    devices[names.at(device)]["speed"] = {{"flops_per_second", speed.flops_per_second},
                                          {"bytes_per_second", speed.bytes_per_second},
                                          {"latency", speed.latency}};
  }
  for (const auto& [key, measured] : kernels_) {
    const auto& [op, device, flops, size_class] = key;
    json entry = window_json(measured.seconds, measured.work);
    entry["op"] = op;
    entry["flops"] = flops;
    devices[names.at(device)]["kernels"].push_back(std::move(entry));
  }
  json links = json::array();
  for (const auto& [pair, speed] : links_) {
    links.push_back({{"from", names.at(pair.first)},
                     {"to", names.at(pair.second)},
                     {"bytes_per_second", speed.bytes_per_second},
                     {"latency", speed.latency}});
  }
  json copies = json::array();
  for (const auto& [key, measured] : transfers_) {
    json entry = window_json(measured.seconds, measured.work);
    entry["from"] = names.at(std::get<0>(key));
    entry["to"] = names.at(std::get<1>(key));
    copies.push_back(std::move(entry));
  }
  return json_text({{"format", kFormat},
                    {"version", kVersion},
                    {"devices", devices},
                    {"links", links},
                    {"copies", copies}},
                   2) +
         "\n";
}

void CostModel::merge_json(const std::string& text, const std::string& source,
                           const std::vector<std::string>& names) {
  const json saved = parse_json(text, source);
  const SavedModelReader read(source, names);
  read.header(saved);
  // Read into a copy first, so that a malformed text changes nothing.
  CostModel parsed;
  if (const json* devices = SavedModelReader::member(saved, "devices")) {
    read.object(*devices, "/devices");
    for (const auto& [name, entry] : devices->items()) {
      const std::string path = pointer_child("/devices", name);
      read.object(entry, path);
      const std::optional<size_t> device = read.device(name);
      if (const json* speed = SavedModelReader::member(entry, "speed")) {
        const std::string speed_path = pointer_child(path, "speed");
        read.object(*speed, speed_path);
        const DeviceSpeed value{read.number_at(*speed, "flops_per_second", speed_path),
                                read.number_at(*speed, "bytes_per_second", speed_path),
                                read.number_at(*speed, "latency", speed_path)};
        if (device) parsed.speeds_[*device] = value;
      }
      const json* kernels = SavedModelReader::member(entry, "kernels");
      if (kernels == nullptr) continue;
      const std::string kernels_path = pointer_child(path, "kernels");
      read.array(*kernels, kernels_path);
      for (size_t i = 0; i < kernels->size(); ++i) {
        const std::string kernel_path = pointer_child(kernels_path, i);
        const json& kernel = (*kernels)[i];
        read.object(kernel, kernel_path);
        const std::string op = read.string_at(kernel, "op", kernel_path);
        const bool flops = read_bool(read.required(kernel, "flops", kernel_path, "true or false"),
                                     source, pointer_child(kernel_path, "flops"));
        Measured measured;
        read.window(kernel, kernel_path, measured.work, measured.seconds);
        const WorkSize work{flops, measured.work};
        if (device) parsed.kernels_[{op, *device, work.flops, work.size_class()}] = measured;
      }
    }
  }
  for (const char* section : {"links", "copies"}) {
    const json* list = SavedModelReader::member(saved, section);
    if (list == nullptr) continue;
    const std::string list_path = std::string("/") + section;
    read.array(*list, list_path);
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string path = pointer_child(list_path, i);
      const json& entry = (*list)[i];
      read.object(entry, path);
      const std::optional<size_t> from = read.device_at(entry, "from", path);
      const std::optional<size_t> to = read.device_at(entry, "to", path);
      if (std::string(section) == "links") {
        const LinkSpeed speed{read.number_at(entry, "bytes_per_second", path),
                              read.number_at(entry, "latency", path)};
        if (from && to) parsed.links_[{*from, *to}] = speed;
      } else {
        Measured measured;
        read.window(entry, path, measured.work, measured.seconds);
        if (from && to) {
          parsed.transfers_[{*from, *to, WorkSize{false, measured.work}.size_class()}] = measured;
        }
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& entry : parsed.speeds_) speeds_[entry.first] = entry.second;
  for (auto& entry : parsed.kernels_) kernels_[entry.first] = entry.second;
  for (auto& entry : parsed.links_) links_[entry.first] = entry.second;
  for (auto& entry : parsed.transfers_) transfers_[entry.first] = entry.second;
}

}  // namespace hxrt::detail

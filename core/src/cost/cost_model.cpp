#include "cost/cost_model.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "config/json_pointer.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

// Speeds assumed for a device or a link nothing is known of: a modest CPU's.
constexpr DeviceSpeed kDefaultSpeed{10e9, 5e9, 10e-6};
constexpr LinkSpeed kDefaultLink{5e9, 20e-6};

// A rate of 0 is one calibration could not measure: the default's stands in.
double modelled(const DeviceSpeed& speed, const WorkSize& work) {
  const double rate = work.flops ? speed.flops_per_second : speed.bytes_per_second;
  const double fallback = work.flops ? kDefaultSpeed.flops_per_second
                                     : kDefaultSpeed.bytes_per_second;
  return speed.latency + work.amount / (rate > 0 ? rate : fallback);
}

double modelled(const LinkSpeed& link, uint64_t bytes) {
  const double rate = link.bytes_per_second > 0 ? link.bytes_per_second
                                                : kDefaultLink.bytes_per_second;
  return link.latency + static_cast<double>(bytes) / rate;
}

// The measurement nearest in size class to `size_class` among the keys of `table` that match
// `prefix` (every part of the key but the class), scaled linearly by the work; never below
// `floor` when scaled down (a call costs its latency however small).
template <class Table, class Prefix>
std::optional<double> scaled(const Table& table, const Prefix& prefix, int size_class,
                             double work, double floor) {
  const typename Table::value_type* nearest = nullptr;
  for (auto it = table.lower_bound(std::tuple_cat(prefix, std::make_tuple(INT32_MIN)));
       it != table.end() && it->first < std::tuple_cat(prefix, std::make_tuple(INT32_MAX)); ++it) {
    const int distance = std::abs(std::get<std::tuple_size_v<Prefix>>(it->first) - size_class);
    if (nearest == nullptr ||
        distance < std::abs(std::get<std::tuple_size_v<Prefix>>(nearest->first) - size_class)) {
      nearest = &*it;
    }
  }
  if (nearest == nullptr || nearest->second.work <= 0) return std::nullopt;
  const double median = nearest->second.seconds.median();
  const double ratio = work / nearest->second.work;
  return ratio >= 1 ? median * ratio : std::max(median * ratio, std::min(floor, median));
}

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
  throw Error(StatusCode::kInvalidArgument, "cost model JSON: " + path + ": " + what);
}

double number_at(const nlohmann::json& object, const std::string& key, const std::string& path) {
  auto found = object.find(key);
  if (found == object.end() || !found->is_number() || found->get<double>() < 0 ||
      !std::isfinite(found->get<double>())) {
    malformed(pointer_child(path, key), "expected a number >= 0");
  }
  return found->get<double>();
}

nlohmann::json window_json(const SampleWindow& window, double work) {
  return {{"work", work}, {"seconds", window.values()}};
}

// Samples saved by window_json into `into`.
void read_window(const nlohmann::json& saved, const std::string& path, double& work,
                 SampleWindow& into) {
  work = number_at(saved, "work", path);
  auto seconds = saved.find("seconds");
  if (seconds == saved.end() || !seconds->is_array()) {
    malformed(pointer_child(path, "seconds"), "expected an array of numbers");
  }
  for (size_t i = 0; i < seconds->size(); ++i) {
    const nlohmann::json& value = (*seconds)[i];
    if (!value.is_number() || value.get<double>() < 0 || !std::isfinite(value.get<double>())) {
      malformed(pointer_child(pointer_child(path, "seconds"), i), "expected a number >= 0");
    }
    into.add(value.get<double>());
  }
}

}  // namespace

std::string milliseconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
  return text;
}

const char* cost_source_name(CostSource source) {
  switch (source) {
    case CostSource::kMeasured: return "measured";
    case CostSource::kScaled: return "scaled from another size";
    case CostSource::kCalibrated: return "calibrated";
    case CostSource::kDefault: return "assumed";
  }
  return "assumed";
}

CostEstimate CostModel::kernel(const std::string& op, size_t device, const WorkSize& work) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const int size_class = work.size_class();
  auto found = kernels_.find({op, device, work.flops, size_class});
  if (found != kernels_.end()) return {found->second.seconds.median(), CostSource::kMeasured};
  auto speed = speeds_.find(device);
  const double latency = speed != speeds_.end() ? speed->second.latency : kDefaultSpeed.latency;
  if (std::optional<double> estimate = scaled(kernels_, std::make_tuple(op, device, work.flops),
                                              size_class, work.amount, latency)) {
    return {*estimate, CostSource::kScaled};
  }
  if (speed != speeds_.end()) return {modelled(speed->second, work), CostSource::kCalibrated};
  return {modelled(kDefaultSpeed, work), CostSource::kDefault};
}

CostEstimate CostModel::transfer(size_t from, size_t to, uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const WorkSize size{false, static_cast<double>(bytes)};
  auto found = transfers_.find({from, to, size.size_class()});
  if (found != transfers_.end()) return {found->second.seconds.median(), CostSource::kMeasured};
  auto link = links_.find({from, to});
  const double latency = link != links_.end() ? link->second.latency : kDefaultLink.latency;
  if (std::optional<double> estimate =
          scaled(transfers_, std::make_tuple(from, to), size.size_class(), size.amount, latency)) {
    return {*estimate, CostSource::kScaled};
  }
  if (link != links_.end()) return {modelled(link->second, bytes), CostSource::kCalibrated};
  auto to_host = links_.find({from, host_});
  auto from_host = links_.find({host_, to});
  if (to_host != links_.end() && from_host != links_.end()) {
    return {modelled(to_host->second, bytes) + modelled(from_host->second, bytes),
            CostSource::kCalibrated};
  }
  return {modelled(kDefaultLink, bytes), CostSource::kDefault};
}

void CostModel::add_kernel(const std::string& op, size_t device, const WorkSize& work,
                           double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  Measured& measured = kernels_[{op, device, work.flops, work.size_class()}];
  measured.seconds.add(seconds);
  measured.work = work.amount;
}

void CostModel::add_transfer(size_t from, size_t to, uint64_t bytes, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  const WorkSize size{false, static_cast<double>(bytes)};
  Measured& measured = transfers_[{from, to, size.size_class()}];
  measured.seconds.add(seconds);
  measured.work = size.amount;
}

bool CostModel::has_speed(size_t device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return speeds_.count(device) != 0;
}

void CostModel::set_speed(size_t device, const DeviceSpeed& speed) {
  std::lock_guard<std::mutex> lock(mutex_);
  speeds_[device] = speed;
}

bool CostModel::has_link(size_t from, size_t to) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return links_.count({from, to}) != 0;
}

void CostModel::set_link(size_t from, size_t to, const LinkSpeed& speed) {
  std::lock_guard<std::mutex> lock(mutex_);
  links_[{from, to}] = speed;
}

nlohmann::json CostModel::to_json(const std::vector<std::string>& names) const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json devices = nlohmann::json::object();
  for (const auto& [device, speed] : speeds_) {
    devices[names.at(device)]["speed"] = {{"flops_per_second", speed.flops_per_second},
                                          {"bytes_per_second", speed.bytes_per_second},
                                          {"latency", speed.latency}};
  }
  for (const auto& [key, measured] : kernels_) {
    const auto& [op, device, flops, size_class] = key;
    nlohmann::json entry = window_json(measured.seconds, measured.work);
    entry["op"] = op;
    entry["flops"] = flops;
    devices[names.at(device)]["kernels"].push_back(std::move(entry));
  }
  nlohmann::json links = nlohmann::json::array();
  for (const auto& [pair, speed] : links_) {
    links.push_back({{"from", names.at(pair.first)},
                     {"to", names.at(pair.second)},
                     {"bytes_per_second", speed.bytes_per_second},
                     {"latency", speed.latency}});
  }
  nlohmann::json copies = nlohmann::json::array();
  for (const auto& [key, measured] : transfers_) {
    nlohmann::json entry = window_json(measured.seconds, measured.work);
    entry["from"] = names.at(std::get<0>(key));
    entry["to"] = names.at(std::get<1>(key));
    copies.push_back(std::move(entry));
  }
  return {{"format", "hxrt cost model"}, {"version", 1}, {"devices", devices},
          {"links", links}, {"copies", copies}};
}

void CostModel::merge_json(const nlohmann::json& saved, const std::vector<std::string>& names) {
  auto index_of = [&](const nlohmann::json& name, const std::string& path) -> std::optional<size_t> {
    if (!name.is_string()) malformed(path, "expected a device name");
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name.get<std::string>()) return i;
    }
    return std::nullopt;  // a device this runtime does not have
  };
  if (!saved.is_object() || saved.value("format", "") != "hxrt cost model") {
    malformed("", "not a cost model saved by hxrt (\"format\": \"hxrt cost model\")");
  }
  if (saved.value("version", 0) != 1) malformed("/version", "expected 1");
  // Parsed into a copy first, so a malformed file changes nothing.
  CostModel parsed;
  const nlohmann::json devices = saved.value("devices", nlohmann::json::object());
  if (!devices.is_object()) malformed("/devices", "expected an object");
  for (const auto& [name, entry] : devices.items()) {
    const std::string path = pointer_child("/devices", name);
    if (!entry.is_object()) malformed(path, "expected an object");
    const std::optional<size_t> device = index_of(name, path);
    if (!device) continue;
    if (entry.contains("speed")) {
      const std::string speed_path = pointer_child(path, "speed");
      const nlohmann::json& speed = entry["speed"];
      if (!speed.is_object()) malformed(speed_path, "expected an object");
      parsed.speeds_[*device] = {number_at(speed, "flops_per_second", speed_path),
                                 number_at(speed, "bytes_per_second", speed_path),
                                 number_at(speed, "latency", speed_path)};
    }
    const nlohmann::json kernels = entry.value("kernels", nlohmann::json::array());
    if (!kernels.is_array()) malformed(pointer_child(path, "kernels"), "expected an array");
    for (size_t i = 0; i < kernels.size(); ++i) {
      const std::string kernel_path = pointer_child(pointer_child(path, "kernels"), i);
      const nlohmann::json& kernel = kernels[i];
      if (!kernel.is_object() || !kernel.value("op", nlohmann::json()).is_string() ||
          !kernel.value("flops", nlohmann::json()).is_boolean()) {
        malformed(kernel_path, "expected {\"op\": name, \"flops\": bool, \"work\", \"seconds\"}");
      }
      Measured measured;
      read_window(kernel, kernel_path, measured.work, measured.seconds);
      const WorkSize work{kernel["flops"].get<bool>(), measured.work};
      parsed.kernels_[{kernel["op"].get<std::string>(), *device, work.flops, work.size_class()}] =
          measured;
    }
  }
  for (const char* section : {"links", "copies"}) {
    const nlohmann::json list = saved.value(section, nlohmann::json::array());
    const std::string list_path = std::string("/") + section;
    if (!list.is_array()) malformed(list_path, "expected an array");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = pointer_child(list_path, i);
      const nlohmann::json& entry = list[i];
      if (!entry.is_object()) malformed(path, "expected an object");
      const std::optional<size_t> from =
          index_of(entry.value("from", nlohmann::json()), pointer_child(path, "from"));
      const std::optional<size_t> to =
          index_of(entry.value("to", nlohmann::json()), pointer_child(path, "to"));
      if (!from || !to) continue;
      if (std::string(section) == "links") {
        parsed.links_[{*from, *to}] = {number_at(entry, "bytes_per_second", path),
                                       number_at(entry, "latency", path)};
      } else {
        Measured measured;
        read_window(entry, path, measured.work, measured.seconds);
        parsed.transfers_[{*from, *to, WorkSize{false, measured.work}.size_class()}] = measured;
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

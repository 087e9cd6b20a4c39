#include "cost/cost_model.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>


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

void CostModel::set_host(size_t host) {
  std::lock_guard<std::mutex> lock(mutex_);
  host_ = host;
}

bool CostModel::has_link(size_t from, size_t to) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return links_.count({from, to}) != 0;
}

void CostModel::set_link(size_t from, size_t to, const LinkSpeed& speed) {
  std::lock_guard<std::mutex> lock(mutex_);
  links_[{from, to}] = speed;
}

}  // namespace hxrt::detail

#include "base/attr_identity.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <type_traits>

namespace hxrt::detail {
namespace {

uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

uint64_t value_fingerprint(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> uint64_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>) {
          return bits_of(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return std::hash<std::string>()(v);  // a string value: rare
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          uint64_t hash = v.size();
          for (int64_t item : v) hash = mix_fingerprint(hash, static_cast<uint64_t>(item));
          return hash;
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          uint64_t hash = v.size();
          for (double item : v) hash = mix_fingerprint(hash, bits_of(item));
          return hash;
        } else {
          return static_cast<uint64_t>(v);  // bool, int64_t, DType
        }
      },
      value);
}

}  // namespace

uint64_t attrs_fingerprint(const Attrs& attrs) {
  uint64_t hash = attrs.items().size();
  for (const auto& item : attrs.items()) {
    const std::string& name = item.first;
    const uint64_t ends = name.empty() ? 0
                                       : static_cast<unsigned char>(name.front()) |
                                             static_cast<uint64_t>(
                                                 static_cast<unsigned char>(name.back()))
                                                 << 8;
    hash = mix_fingerprint(hash, name.size() << 16 | ends);
    hash = mix_fingerprint(hash, item.second.index());
    hash = mix_fingerprint(hash, value_fingerprint(item.second));
  }
  return hash;
}

bool same_attr_value(const AttrValue& a, const AttrValue& b) {
  if (a.index() != b.index()) return false;
  if (const double* x = std::get_if<double>(&a)) return bits_of(*x) == bits_of(std::get<double>(b));
  if (const auto* xs = std::get_if<std::vector<double>>(&a)) {
    const auto& ys = std::get<std::vector<double>>(b);
    return std::equal(xs->begin(), xs->end(), ys.begin(), ys.end(),
                      [](double x, double y) { return bits_of(x) == bits_of(y); });
  }
  return a == b;
}

}  // namespace hxrt::detail

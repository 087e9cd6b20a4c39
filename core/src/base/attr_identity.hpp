// When two calls' attributes are the same for a kernel instance: the same names in the same
// order with the same values, floats compared by their bits. An instance made for 0.0 must not
// serve -0.0 (Fill would write the wrong sign), and NaN must find the instance made for NaN
// rather than make one per call. The fingerprint is what the instance cache hashes: it reads
// each name's length and end characters, never hashing a whole name, so the common few short
// attributes cost a handful of instructions; the exact comparison settles every match.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hxrt/attrs.hpp"

namespace hxrt::detail {

uint64_t attrs_fingerprint(const Attrs& attrs);
bool same_attr_value(const AttrValue& a, const AttrValue& b);

// Inline: every cached call compares its attributes, most often none against none.
inline bool same_attrs(const Attrs& a, const Attrs& b) {
  const auto& x = a.items();
  const auto& y = b.items();
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].first != y[i].first || !same_attr_value(x[i].second, y[i].second)) return false;
  }
  return true;
}

// Mixes `part` into `hash` (FNV-1a's prime over 64-bit words).
inline uint64_t mix_fingerprint(uint64_t hash, uint64_t part) {
  return (hash ^ part) * 1099511628211ull;
}

}  // namespace hxrt::detail

// The secret that tells hxrt-probe's own report lines from lines the plugin it loads writes
// into the same channel: a 128-bit key made afresh for each probe, and the tag (SipHash-2-4, a
// keyed hash made to be a MAC for short messages) that the probe puts on each line it writes.
// Lines carry tags, never the key, so a plugin that intercepts some of them learns nothing
// that lets it make one of its own (probe_protocol.hpp says how the key travels and what it
// cannot protect against).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hxrt::detail {

struct ProbeKey {
  uint64_t k0 = 0;  // bytes 0 to 7 of the key, little-endian, as SipHash reads them
  uint64_t k1 = 0;  // bytes 8 to 15
};

// A key from the kernel's random source; nullopt when that cannot be read.
std::optional<ProbeKey> random_probe_key();

// The key's 16 bytes as 32 lowercase hex digits, and back; nullopt for any other text.
std::string probe_key_text(const ProbeKey& key);
std::optional<ProbeKey> parse_probe_key(std::string_view text);

// SipHash-2-4 of `message` under `key`.
uint64_t probe_tag(const ProbeKey& key, std::string_view message);

}  // namespace hxrt::detail

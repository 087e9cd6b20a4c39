// Device names (core/src/device_name.hpp): the input is a name. The parser either returns a
// spec or throws Error(kInvalidArgument); a spec prints (to_string) as a name that parses back
// to a spec that prints the same and keeps everything the first one pinned down; a complete
// spec's canonical and short names parse back to its type and index.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/device_name.hpp"
#include "hxrt/error.hpp"

namespace {

using hxrt::detail::DeviceSpec;

[[noreturn]] void finding(const std::string& what, std::string_view input) {
  std::fprintf(stderr, "device_name_fuzz: %s (input '%.*s')\n", what.c_str(),
               static_cast<int>(input.size()), input.data());
  std::abort();
}

DeviceSpec parse_printed(const std::string& printed, std::string_view input) {
  try {
    return hxrt::detail::parse_device_name(printed);
  } catch (const hxrt::Error& error) {
    finding("the printed name '" + printed + "' does not parse: " + error.what(), input);
  }
}

// `printed` was parsed from `original`'s printed form: every field `original` sets must
// survive (to_string may fill in the fields it leaves open, such as the job).
void check_keeps(const DeviceSpec& original, const DeviceSpec& printed, const std::string& form,
                 std::string_view input) {
  const bool kept = printed.type == original.type && printed.index == original.index &&
                    (original.job.empty() || printed.job == original.job) &&
                    (original.replica < 0 || printed.replica == original.replica) &&
                    (original.task < 0 || printed.task == original.task);
  if (!kept) finding("the " + form + " form loses part of the spec", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  DeviceSpec spec;
  try {
    spec = hxrt::detail::parse_device_name(input);
  } catch (const hxrt::Error& error) {
    if (error.code() != hxrt::StatusCode::kInvalidArgument) {
      finding(std::string("rejected with a code other than INVALID_ARGUMENT: ") + error.what(),
              input);
    }
    return 0;
  }

  const std::string printed = hxrt::detail::to_string(spec);
  const DeviceSpec reparsed = parse_printed(printed, input);
  check_keeps(spec, reparsed, "printed", input);
  if (hxrt::detail::to_string(reparsed) != printed) {
    finding("printing is not stable: '" + printed + "' prints again as '" +
                hxrt::detail::to_string(reparsed) + "'",
            input);
  }

  if (spec.fully_specified()) {
    DeviceSpec device_only;
    device_only.type = spec.type;
    device_only.index = spec.index;
    check_keeps(device_only,
                parse_printed(hxrt::detail::canonical_device_name(spec.type, spec.index), input),
                "canonical", input);
    check_keeps(device_only,
                parse_printed(hxrt::detail::short_device_name(spec.type, spec.index), input),
                "short", input);
  }
  return 0;
}

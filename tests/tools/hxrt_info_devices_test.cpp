// hxrt-info's physical -> visible -> logical mapping and per-device memory, on two sim GPUs
// of which only GPU:0 is visible, split into logical GPUs of 1024 and 512 MiB
// (split_gpus_config.json), whose kernels bind at most 64 KiB and whose streams wait for other
// devices on the host. The config disables the OpenCL plugin, whose devices come and go with
// the machine's OpenCL platforms, so the device counts are the same everywhere.
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "byte_sizes.hpp"
#include "json_output.hpp"
#include "program_output.hpp"
#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::ends_with;
using hxrt_test::field;
using hxrt_test::find_element;
using hxrt_test::find_line;
using hxrt_test::find_line_starting_with;
using hxrt_test::kNoLine;
using hxrt_test::Lines;
using hxrt_test::shell_quote;
using hxrt_test::words_of;
using nlohmann::json;

namespace {

using hxrt_test::kMiB;

std::string info_command(const std::string& arguments) {
  const std::string config = hxrt_test::source_file("tests/tools/split_gpus_config.json");
  return hxrt_test::kCleanEnvironment + std::string("HXRT_CONFIG=") + shell_quote(config) + " " +
         built_program("hxrt-info") + arguments;
}

// The lines of a device's block in the text report: from its name to the next device's.
Lines device_block(const Lines& lines, const std::string& short_name) {
  const size_t start = find_line(lines, "  /job:localhost/replica:0/task:0/device:" + short_name);
  if (start == kNoLine) return {};
  size_t end = start + 1;
  while (end < lines.size() && hxrt_test::starts_with(lines[end], "    ")) ++end;
  return Lines(lines.begin() + static_cast<std::ptrdiff_t>(start),
               lines.begin() + static_cast<std::ptrdiff_t>(end));
}

// The value after a label in a device block: "    memory limit        512.00 MiB".
std::string block_field(const Lines& block, const std::string& label) {
  const size_t line = find_line_starting_with(block, "    " + label + "  ");
  if (line == kNoLine) return "(no " + label + " line)";
  const std::string& text = block[line];
  return text.substr(text.find_first_not_of(' ', 4 + label.size()));
}

json by_short_name(const json& devices, const std::string& short_name) {
  return find_element(
      devices, [&](const json& device) { return field(device, "short_name") == short_name; });
}

}  // namespace

TEST_CASE("hxrt-info maps each physical device to its logical devices, or says it is hidden") {
  const hxrt_test::ProgramResult result = hxrt_test::run_program(info_command(" 2>&1"));
  INFO("output:\n" << result.output);
  REQUIRE(result.exit_code == 0);
  const Lines lines = hxrt_test::lines_of(result.output);

  const size_t section = find_line(lines, "Physical devices: 3");
  REQUIRE(section != kNoLine);
  CHECK(words_of(lines[section + 1]) ==
        hxrt_test::Words{"PHYSICAL", "PLUGIN", "PRODUCT", "MEMORY", "LOGICAL", "DEVICES"});
  const size_t gpu0 = find_line_starting_with(lines, "  GPU:0 ", section);
  const size_t gpu1 = find_line_starting_with(lines, "  GPU:1 ", section);
  const size_t cpu0 = find_line_starting_with(lines, "  CPU:0 ", section);
  REQUIRE((gpu0 != kNoLine && gpu1 != kNoLine && cpu0 != kNoLine));
  // Columns: PHYSICAL PLUGIN PRODUCT MEMORY LOGICAL-DEVICES; the widths vary with the machine.
  for (size_t row : {gpu0, gpu1}) {
    CHECK(hxrt_test::contains(lines[row], " sim "));
    CHECK(hxrt_test::contains(lines[row], " 2.00 GiB "));
  }
  CHECK(ends_with(lines[gpu0], " GPU:0, GPU:1"));
  CHECK(ends_with(lines[gpu1], " not visible"));
  CHECK(ends_with(lines[cpu0], "  CPU:0"));
}

TEST_CASE("hxrt-info shows each logical device's physical device, policy and memory figures") {
  const hxrt_test::ProgramResult result = hxrt_test::run_program(info_command(" 2>&1"));
  INFO("output:\n" << result.output);
  REQUIRE(result.exit_code == 0);
  const Lines lines = hxrt_test::lines_of(result.output);
  CHECK(find_line(lines, "Devices: 3") != kNoLine);

  for (const auto& [name, limit] :
       {std::pair<std::string, std::string>{"GPU:0", "1.00 GiB"}, {"GPU:1", "512.00 MiB"}}) {
    INFO(name);
    const Lines block = device_block(lines, name);
    REQUIRE_FALSE(block.empty());
    CHECK(block_field(block, "physical") == "GPU:0");
    CHECK(block_field(block, "memory policy") == "growth, limit " + limit);
    CHECK(block_field(block, "memory limit") == limit);
    // Nothing has been allocated: the runtime was only started.
    CHECK(block_field(block, "memory in use") == "0 B");
    CHECK(block_field(block, "memory peak") == "0 B");
    CHECK(block_field(block, "memory reserved") == "0 B");
    CHECK(block_field(block, "allocations") == "0 live, 0 since start");
    CHECK(block_field(block, "largest free block") == "0 B");
    CHECK(block_field(block, "fragmentation") == "0.0%");
  }
  // The CPU has no limit but its own memory.
  CHECK(block_field(device_block(lines, "CPU:0"), "memory limit") == "none");
  // What the devices declare of their kernels' bindings and their waits (ABI 2.5).
  CHECK(block_field(device_block(lines, "GPU:0"), "max binding") == "64.00 KiB");
  CHECK(block_field(device_block(lines, "GPU:0"), "cross-device waits") == "on host");
  CHECK(block_field(device_block(lines, "CPU:0"), "max binding") == "no limit");
  CHECK(block_field(device_block(lines, "CPU:0"), "cross-device waits") == "in plugin");
}

TEST_CASE("hxrt-info --json gives the mapping under physical_devices and each device's memory") {
  const json report = hxrt_test::run_json_program(info_command(" --json"));
  INFO("report:\n" << report.dump(2));

  const json physical = field(report, "physical_devices");
  const json gpu0 = by_short_name(physical, "GPU:0");
  CHECK(field(gpu0, "name") == "/physical_device:GPU:0");
  CHECK(field(gpu0, "plugin") == "sim");
  CHECK(field(gpu0, "memory_total_bytes") == 2048 * kMiB);
  CHECK(field(gpu0, "visible") == true);
  CHECK(field(gpu0, "logical") == json::array({"GPU:0", "GPU:1"}));
  const json gpu1 = by_short_name(physical, "GPU:1");
  CHECK(field(gpu1, "visible") == false);
  CHECK(field(gpu1, "logical") == json::array());

  const json devices = field(report, "devices");
  const json logical1 = by_short_name(devices, "GPU:1");
  CHECK(field(logical1, "physical") == "GPU:0");
  CHECK(field(logical1, "memory_policy") == "growth, limit 512.00 MiB");
  CHECK(field(logical1, "max_binding_bytes") == 65536);
  CHECK(field(logical1, "cross_device_wait") == "on host");
  CHECK(field(by_short_name(devices, "CPU:0"), "max_binding_bytes") == 0);
  const json memory = field(logical1, "memory");
  CHECK(field(memory, "bytes_limit") == 512 * kMiB);
  for (const char* figure : {"bytes_in_use", "peak_bytes_in_use", "bytes_reserved",
                             "allocation_count", "total_allocations", "largest_free_block"}) {
    INFO(figure);
    CHECK(field(memory, figure) == 0);
  }
  CHECK(field(memory, "fragmentation") == 0.0);
  // No limit is null, not SIZE_MAX.
  CHECK(field(field(by_short_name(devices, "CPU:0"), "memory"), "bytes_limit").is_null());
}

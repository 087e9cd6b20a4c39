// The plugin ABI's layout promises, checked where the C++ compiler can see them: every
// HX_<NAME>_STRUCT_SIZE is the end of its struct's last field, every boundary struct starts with
// struct_size and its extension chain, the extension head and the fields every major keeps sit
// where the header says, enums cross as int32_t, and the ABI's enums agree with the C++ API's.
#include <catch2/catch.hpp>

#include <cstddef>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "hxrt/dtype.hpp"
#include "hxrt/error.hpp"
#include "hxrt/log.hpp"
#include "hxrt/plugin_api.h"
#include "hxrt/plugin_vocabulary.h"
#include "hxrt/shape.hpp"

namespace {

// The header's word, spelled out: the first four fields of the plugin's table are
// struct_size, extensions, abi_major, abi_minor, packed in that order in every major version,
// so that any core can read any plugin's version.
constexpr size_t kExtensionsOffset = sizeof(size_t);
constexpr size_t kAbiMajorOffset = kExtensionsOffset + sizeof(void*);
constexpr size_t kAbiMinorOffset = kAbiMajorOffset + sizeof(uint32_t);
static_assert(offsetof(hx_plugin_api, struct_size) == 0);
static_assert(offsetof(hx_plugin_api, extensions) == kExtensionsOffset);
static_assert(offsetof(hx_plugin_api, abi_major) == kAbiMajorOffset);
static_assert(offsetof(hx_plugin_api, abi_minor) == kAbiMinorOffset);
static_assert(std::is_same_v<decltype(hx_plugin_api::struct_size), size_t>);
static_assert(std::is_same_v<decltype(hx_plugin_api::extensions), const hx_extension*>);
static_assert(std::is_same_v<decltype(hx_plugin_api::abi_major), uint32_t>);
static_assert(std::is_same_v<decltype(hx_plugin_api::abi_minor), uint32_t>);

// The head of every extension struct: its kind as int32_t, then the next link.
static_assert(offsetof(hx_extension, type) == 0);
static_assert(std::is_same_v<decltype(hx_extension::type), int32_t>);
static_assert(offsetof(hx_extension, next) == alignof(const hx_extension*));
static_assert(std::is_same_v<decltype(hx_extension::next), const hx_extension*>);
static_assert(sizeof(hx_extension) == 2 * sizeof(void*));
static_assert(HX_EXTENSION_TYPE_NONE == 0);

// The init arguments of 2.0 keep their places in 2.1, which appended intra_op_threads after
// them: a 2.0 plugin reads what it knows of a 2.1 core's struct, and a 2.1 plugin finds a 2.0
// core's struct_size short of the new field.
constexpr size_t kInitArgs20Size = HX_STRUCT_SIZE(hx_plugin_init_args, options_json_length);
static_assert(offsetof(hx_plugin_init_args, core_abi_major) == kAbiMajorOffset);
static_assert(offsetof(hx_plugin_init_args, core_abi_minor) == kAbiMinorOffset);
static_assert(offsetof(hx_plugin_init_args, services) == kAbiMinorOffset + sizeof(uint32_t));
static_assert(offsetof(hx_plugin_init_args, core) ==
              offsetof(hx_plugin_init_args, services) + sizeof(void*));
static_assert(offsetof(hx_plugin_init_args, options_json) ==
              offsetof(hx_plugin_init_args, core) + sizeof(void*));
static_assert(offsetof(hx_plugin_init_args, options_json_length) ==
              offsetof(hx_plugin_init_args, options_json) + sizeof(void*));
static_assert(offsetof(hx_plugin_init_args, intra_op_threads) == kInitArgs20Size);
static_assert(std::is_same_v<decltype(hx_plugin_init_args::intra_op_threads), uint32_t>);
static_assert(HX_PLUGIN_INIT_ARGS_STRUCT_SIZE > kInitArgs20Size);
// The events group of 2.0 and 2.1 ends with query; 2.2 appended elapsed_ns right after it, so
// a group written for 2.1 ends where the new field starts and reads it as absent.
constexpr size_t kEventApi21Size = HX_STRUCT_SIZE(hx_event_api, query);
static_assert(HX_EVENT_API_REQUIRED_SIZE == kEventApi21Size);
static_assert(offsetof(hx_event_api, elapsed_ns) == kEventApi21Size);
static_assert(std::is_same_v<decltype(hx_event_api::elapsed_ns),
                             hx_status* (*)(hx_device*, hx_event*, hx_event*, uint64_t*)>);
// The services of 2.5 end with option_keys; 2.6 appended attr_floats right after it, so a
// 2.5 core's table ends where the getter starts and a plugin reads it as absent.
static_assert(offsetof(hx_core_services, attr_floats) ==
              HX_STRUCT_SIZE(hx_core_services, option_keys));
static_assert(
    std::is_same_v<decltype(hx_core_services::attr_floats),
                   hx_status* (*)(const hx_kernel_context*, const char*, const double**, size_t*)>);
// The kernel arguments of 2.7 end with instance; 2.8 appended output_extents right after it,
// so a 2.7 plugin's kernel finds the arguments it knows where they were.
static_assert(offsetof(hx_kernel_args, output_extents) ==
              HX_STRUCT_SIZE(hx_kernel_args, instance));
static_assert(std::is_same_v<decltype(hx_kernel_args::output_extents), int64_t*>);
// 2.10 appended input_constants to the arguments, and forget_constants to the kernel
// definition after 2.0's last field, which stays the smallest definition a core accepts.
static_assert(offsetof(hx_kernel_args, input_constants) ==
              HX_STRUCT_SIZE(hx_kernel_args, output_extents));
static_assert(std::is_same_v<decltype(hx_kernel_args::input_constants), const uint64_t*>);
static_assert(offsetof(hx_kernel_def, forget_constants) == HX_KERNEL_DEF_REQUIRED_SIZE);
static_assert(std::is_same_v<decltype(hx_kernel_def::forget_constants),
                             void (*)(hx_kernel_instance*, const uint64_t*, size_t, void*)>);
// Appending a field is a minor version (CONVENTIONS, Versioning).
static_assert(HX_ABI_VERSION_MAJOR == 2 && HX_ABI_VERSION_MINOR >= 2);

static_assert(hxrt::Shape::kMaxRank == HX_MAX_RANK);

// Enums cross the boundary as int32_t (CONVENTIONS, Enums), so a value outside the enumerators
// is representable and checked by the receiver: every field, parameter and result that carries
// one is declared int32_t, never as the enum type, whose size and range the C compiler chooses.
static_assert(std::is_same_v<decltype(hx_extension::type), int32_t>);
static_assert(std::is_same_v<decltype(hx_tensor_view::dtype), int32_t>);
static_assert(std::is_same_v<decltype(hx_kernel_create_args::input_dtypes), const int32_t*>);
static_assert(std::is_same_v<decltype(hx_kernel_create_args::output_dtypes), const int32_t*>);
static_assert(std::is_same_v<decltype(hx_kernel_def::dtypes), const int32_t*>);
static_assert(std::is_same_v<decltype(hx_kernel_def::output_dtypes), const int32_t*>);
static_assert(std::is_same_v<decltype(hx_output_spec::dtype), int32_t>);
static_assert(std::is_same_v<decltype(hx_device_properties::memory_kind), int32_t>);
static_assert(std::is_same_v<decltype(hx_device_properties::placement_class), int32_t>);
static_assert(std::is_same_v<decltype(hx_device_properties::cross_device_wait), int32_t>);
static_assert(std::is_same_v<decltype(hx_core_services::status_create),
                             hx_status* (*)(int32_t, const char*)>);
static_assert(std::is_same_v<decltype(hx_core_services::status_code),
                             int32_t (*)(const hx_status*)>);
static_assert(std::is_same_v<decltype(hx_core_services::log),
                             void (*)(hx_core*, int32_t, const char*)>);
static_assert(std::is_same_v<decltype(hx_core_services::attr_dtype),
                             hx_status* (*)(const hx_kernel_context*, const char*, int32_t*)>);

// One struct that crosses the boundary: its size macro, where its last field ends, and the
// facts every such struct shares.
struct StructLayout {
  const char* name;
  size_t size_macro;
  size_t last_field_end;
  size_t struct_size_offset;
  size_t extensions_offset;
  bool struct_size_is_size_t;
  bool extensions_is_chain;
  size_t sizeof_struct;
  size_t alignof_struct;
};

#define HX_LAYOUT(type, macro, last_field)                                                  \
  StructLayout {                                                                            \
    #type, macro, offsetof(type, last_field) + sizeof(type::last_field),                    \
        offsetof(type, struct_size), offsetof(type, extensions),                            \
        std::is_same_v<decltype(type::struct_size), size_t>,                                \
        std::is_same_v<decltype(type::extensions), const hx_extension*>, sizeof(type),      \
        alignof(type)                                                                       \
  }

// Every boundary struct of 2.13, each with the field the header names as its last.
const StructLayout kLayouts[] = {
    HX_LAYOUT(hx_tensor_view, HX_TENSOR_VIEW_STRUCT_SIZE, device),
    HX_LAYOUT(hx_kernel_create_args, HX_KERNEL_CREATE_ARGS_STRUCT_SIZE, user_data),
    HX_LAYOUT(hx_kernel_args, HX_KERNEL_ARGS_STRUCT_SIZE, input_constants),
    HX_LAYOUT(hx_kernel_def, HX_KERNEL_DEF_STRUCT_SIZE, forget_constants),
    HX_LAYOUT(hx_output_spec, HX_OUTPUT_SPEC_STRUCT_SIZE, shape),
    HX_LAYOUT(hx_shape_inference_args, HX_SHAPE_INFERENCE_ARGS_STRUCT_SIZE, user_data),
    HX_LAYOUT(hx_op_def, HX_OP_DEF_STRUCT_SIZE, type_input),
    HX_LAYOUT(hx_device_properties, HX_DEVICE_PROPERTIES_STRUCT_SIZE, min_alignment),
    HX_LAYOUT(hx_core_services, HX_CORE_SERVICES_STRUCT_SIZE, attr_floats),
    HX_LAYOUT(hx_stream_api, HX_STREAM_API_STRUCT_SIZE, wait_event),
    HX_LAYOUT(hx_event_api, HX_EVENT_API_STRUCT_SIZE, elapsed_ns),
    HX_LAYOUT(hx_host_memory_api, HX_HOST_MEMORY_API_STRUCT_SIZE, copy_to_host),
    HX_LAYOUT(hx_recording_api, HX_RECORDING_API_STRUCT_SIZE, destroy),
    HX_LAYOUT(hx_plugin_api, HX_PLUGIN_API_STRUCT_SIZE, recording),
    HX_LAYOUT(hx_plugin_init_args, HX_PLUGIN_INIT_ARGS_STRUCT_SIZE, intra_op_threads),
};

#undef HX_LAYOUT

}  // namespace

TEST_CASE("every struct-size macro is the end of its struct's last field") {
  for (const StructLayout& layout : kLayouts) {
    INFO(layout.name);
    CHECK(layout.size_macro == layout.last_field_end);
    // Anything after the macro's end but padding is a field the macro forgot: appending a
    // field without moving the macro to it would leave the new field unreadable.
    CHECK(layout.sizeof_struct - layout.size_macro < layout.alignof_struct);
  }
}

TEST_CASE("every struct starts with struct_size and then its typed extension chain") {
  for (const StructLayout& layout : kLayouts) {
    INFO(layout.name);
    CHECK(layout.struct_size_offset == 0);
    CHECK(layout.struct_size_is_size_t);
    CHECK(layout.extensions_offset == kExtensionsOffset);
    CHECK(layout.extensions_is_chain);
  }
}

namespace {

hx_status* no_time(hx_device*, hx_event*, hx_event*, uint64_t*) { return nullptr; }

hx_plugin_api table_with_events(const hx_event_api& events) {
  hx_plugin_api api{};
  api.struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api.events = &events;
  return api;
}

}  // namespace

TEST_CASE("an events group of 2.1 is whole without elapsed_ns, which it reads as absent") {
  hx_event_api events{};
  events.elapsed_ns = no_time;  // beyond a 2.1 struct_size: never read
  events.struct_size = kEventApi21Size;
  hx_plugin_api api = table_with_events(events);
  CHECK(hx_plugin_api_short_group(&api) == nullptr);
  CHECK_FALSE(hx_event_api_has_elapsed_ns(&events));

  events.struct_size = HX_EVENT_API_STRUCT_SIZE;
  CHECK(hx_event_api_has_elapsed_ns(&events));
  events.elapsed_ns = nullptr;  // [optional]: a 2.2 group may leave it out
  api = table_with_events(events);
  CHECK_FALSE(hx_event_api_has_elapsed_ns(&events));
  CHECK(hx_plugin_api_short_group(&api) == nullptr);
  CHECK_FALSE(hx_event_api_has_elapsed_ns(nullptr));

  // Ending before a required function is still short.
  events.struct_size = offsetof(hx_event_api, query);
  api = table_with_events(events);
  CHECK(std::string(hx_plugin_api_short_group(&api)) == "events");
}

namespace {

hx_status* no_recording_call(hx_device*, hx_stream*) { return nullptr; }
hx_status* no_end(hx_device*, hx_stream*, hx_recording**) { return nullptr; }
hx_status* no_replay(hx_device*, hx_stream*, hx_recording*) { return nullptr; }
void no_destroy(hx_device*, hx_recording*) {}

// A table of this version with every required function of the main table set.
hx_plugin_api whole_table() {
  hx_plugin_api api{};
  api.struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  api.shutdown = [](hx_plugin*) {};
  api.device_count = [](hx_plugin*, int32_t*) -> hx_status* { return nullptr; };
  api.device_get = [](hx_plugin*, int32_t, hx_device**) -> hx_status* { return nullptr; };
  api.device_properties = [](hx_device*, hx_device_properties*) -> hx_status* {
    return nullptr;
  };
  api.allocate = [](hx_device*, size_t, size_t, hx_buffer**) -> hx_status* { return nullptr; };
  api.deallocate = [](hx_device*, hx_buffer*, size_t) {};
  api.memset = [](hx_device*, hx_stream*, hx_buffer*, uint64_t, uint8_t,
                  size_t) -> hx_status* { return nullptr; };
  api.copy_host_to_device = [](hx_device*, hx_stream*, hx_buffer*, uint64_t, const void*,
                               size_t) -> hx_status* { return nullptr; };
  api.copy_device_to_host = [](hx_device*, hx_stream*, void*, const hx_buffer*, uint64_t,
                               size_t) -> hx_status* { return nullptr; };
  api.copy_device_to_device = [](hx_device*, hx_stream*, hx_buffer*, uint64_t, hx_device*,
                                 const hx_buffer*, uint64_t, size_t) -> hx_status* {
    return nullptr;
  };
  return api;
}

}  // namespace

TEST_CASE("a 2.3 table ends before the recording group, which it reads as absent") {
  const hx_recording_api recording{HX_RECORDING_API_STRUCT_SIZE, nullptr, no_recording_call,
                                   no_end, no_replay, no_destroy};
  hx_plugin_api api{};
  api.recording = &recording;  // beyond a 2.3 struct_size: never read
  api.struct_size = HX_PLUGIN_API_REQUIRED_SIZE;
  CHECK(HX_PLUGIN_API_REQUIRED_SIZE == offsetof(hx_plugin_api, recording));
  CHECK(hx_plugin_api_recording(&api) == nullptr);
  CHECK(hx_plugin_api_short_group(&api) == nullptr);

  api.struct_size = HX_PLUGIN_API_STRUCT_SIZE;
  CHECK(hx_plugin_api_recording(&api) == &recording);
  CHECK(hx_plugin_api_short_group(&api) == nullptr);
}

TEST_CASE("a recording group is whole only with its four functions in its struct_size") {
  hx_recording_api recording{HX_RECORDING_API_STRUCT_SIZE, nullptr, no_recording_call,
                             no_end, no_replay, nullptr};
  hx_plugin_api api = whole_table();
  api.recording = &recording;
  CHECK(std::string(hx_plugin_api_missing_function(&api)) == "recording.destroy");
  recording.destroy = no_destroy;
  recording.begin = nullptr;
  CHECK(std::string(hx_plugin_api_missing_function(&api)) == "recording.begin");
  recording.begin = no_recording_call;
  CHECK(hx_plugin_api_missing_function(&api) == nullptr);
  recording.struct_size = offsetof(hx_recording_api, destroy);
  CHECK(std::string(hx_plugin_api_short_group(&api)) == "recording");
}

// The C++ API converts by value between these enums; a renumbering on either side would
// silently change meanings.
#define HX_SAME_VALUE(cpp, c) static_assert(static_cast<int>(cpp) == static_cast<int>(c))
HX_SAME_VALUE(hxrt::DType::kF32, HX_DTYPE_F32);
HX_SAME_VALUE(hxrt::DType::kF64, HX_DTYPE_F64);
HX_SAME_VALUE(hxrt::DType::kF16, HX_DTYPE_F16);
HX_SAME_VALUE(hxrt::DType::kBF16, HX_DTYPE_BF16);
HX_SAME_VALUE(hxrt::DType::kI32, HX_DTYPE_I32);
HX_SAME_VALUE(hxrt::DType::kI64, HX_DTYPE_I64);
HX_SAME_VALUE(hxrt::DType::kBool, HX_DTYPE_BOOL);
HX_SAME_VALUE(hxrt::StatusCode::kOk, HX_OK);
HX_SAME_VALUE(hxrt::StatusCode::kInvalidArgument, HX_INVALID_ARGUMENT);
HX_SAME_VALUE(hxrt::StatusCode::kNotFound, HX_NOT_FOUND);
HX_SAME_VALUE(hxrt::StatusCode::kAlreadyExists, HX_ALREADY_EXISTS);
HX_SAME_VALUE(hxrt::StatusCode::kOutOfMemory, HX_OUT_OF_MEMORY);
HX_SAME_VALUE(hxrt::StatusCode::kUnimplemented, HX_UNIMPLEMENTED);
HX_SAME_VALUE(hxrt::StatusCode::kFailedPrecondition, HX_FAILED_PRECONDITION);
HX_SAME_VALUE(hxrt::StatusCode::kUnavailable, HX_UNAVAILABLE);
HX_SAME_VALUE(hxrt::StatusCode::kOutOfRange, HX_OUT_OF_RANGE);
HX_SAME_VALUE(hxrt::StatusCode::kInternal, HX_INTERNAL);
HX_SAME_VALUE(hxrt::LogLevel::kDebug, HX_LOG_DEBUG);
HX_SAME_VALUE(hxrt::LogLevel::kInfo, HX_LOG_INFO);
HX_SAME_VALUE(hxrt::LogLevel::kWarning, HX_LOG_WARNING);
HX_SAME_VALUE(hxrt::LogLevel::kError, HX_LOG_ERROR);
#undef HX_SAME_VALUE
static_assert(std::is_same_v<std::underlying_type_t<hxrt::DType>, int32_t>);

TEST_CASE("the C++ API lists every ABI dtype, in ABI order") {
  REQUIRE(std::size(hxrt::kAllDTypes) == static_cast<size_t>(HX_DTYPE_F8E5M2FNUZ));
  for (size_t i = 0; i < std::size(hxrt::kAllDTypes); ++i) {
    CHECK(static_cast<int>(hxrt::kAllDTypes[i]) == static_cast<int>(i) + 1);
    CHECK(hxrt::dtype_size(hxrt::kAllDTypes[i]) == hx_dtype_size(static_cast<int32_t>(i) + 1));
  }
}

TEST_CASE("status code names are the ABI's enum names without HX_, one vocabulary for both") {
  // Load reports print these names ("init failed: INVALID_ARGUMENT: ..."), so a plugin
  // author can look the code up in plugin_api.h.
  const std::pair<int32_t, const char*> names[] = {
      {HX_OK, "OK"},
      {HX_INVALID_ARGUMENT, "INVALID_ARGUMENT"},
      {HX_NOT_FOUND, "NOT_FOUND"},
      {HX_ALREADY_EXISTS, "ALREADY_EXISTS"},
      {HX_OUT_OF_MEMORY, "OUT_OF_MEMORY"},
      {HX_UNIMPLEMENTED, "UNIMPLEMENTED"},
      {HX_FAILED_PRECONDITION, "FAILED_PRECONDITION"},
      {HX_UNAVAILABLE, "UNAVAILABLE"},
      {HX_OUT_OF_RANGE, "OUT_OF_RANGE"},
      {HX_INTERNAL, "INTERNAL"},
  };
  for (const auto& [code, name] : names) {
    CHECK(std::string(hx_status_code_name(code)) == name);
    CHECK(std::string(hxrt::status_code_name(static_cast<hxrt::StatusCode>(code))) == name);
  }
  // A code from a plugin may lie outside the enum; the name says so rather than guessing.
  CHECK(std::string(hx_status_code_name(99)) == "UNKNOWN");
}

// The core-services table called the way a careless plugin calls it: NULL pointers, values
// outside an enum (enums cross as int32_t, so any value can arrive), counts that run off an
// array, text with escape codes, calls after init, and the registration rules of ABI 2.0.
// Every call answers with a status or a logged warning; none crashes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "loader_support.hpp"
#include "plugins/core_handle.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using hxrt::detail::core_services;
using loader_test::LogLines;

namespace {

hx_status* noop_kernel(const hx_kernel_args*) { return nullptr; }
hx_status* noop_create(const hx_kernel_create_args*, hx_kernel_instance** out_instance) {
  *out_instance = nullptr;
  return nullptr;
}
void noop_destroy(hx_kernel_instance*, void*) {}
hx_status* noop_infer(const hx_shape_inference_args*) { return nullptr; }

// Writes dtype 42 for its output, as a plugin with a stale dtype table would.
hx_status* infer_dtype_42(const hx_shape_inference_args* args) {
  args->outputs[0].dtype = 42;
  return nullptr;
}

// One plugin's core handle, as the loader makes it during init, with its log collected.
struct PluginCore {
  hxrt::detail::OpRegistry core_ops;
  hx_core_s core;
  LogLines log;
  const hx_core_services& services = *core_services();

  PluginCore() {
    hxrt::detail::add_builtin_ops(core_ops);
    core.plugin_name = "careless";
    core.logger = std::make_shared<hxrt::detail::Logger>();
    core.logger->set_sink(log.sink());
    core.core_ops = &core_ops;
  }

  // Frees `status` and returns its code and message; HX_OK and "" for NULL.
  std::pair<int32_t, std::string> answer(hx_status* status) const {
    std::pair<int32_t, std::string> result{services.status_code(status),
                                                  services.status_message(status)};
    services.status_destroy(status);
    return result;
  }
};

// A valid f32 Relu kernel definition.
hx_kernel_def relu_def(const int32_t* dtypes) {
  hx_kernel_def def;
  std::memset(&def, 0, sizeof def);
  def.struct_size = HX_KERNEL_DEF_STRUCT_SIZE;
  def.op = "Relu";
  def.dtypes = dtypes;
  def.num_dtypes = 1;
  def.compute = noop_kernel;
  return def;
}

// A valid custom op definition with one input and one output.
hx_op_def op_def(const char* name, hx_shape_inference_fn infer) {
  hx_op_def def;
  std::memset(&def, 0, sizeof def);
  def.struct_size = HX_OP_DEF_STRUCT_SIZE;
  def.name = name;
  def.min_inputs = 1;
  def.max_inputs = 1;
  def.num_outputs = 1;
  def.infer = infer;
  return def;
}

}  // namespace

TEST_CASE("status_create keeps only error codes, escapes its message and bounds its length") {
  PluginCore p;
  for (int32_t code : {99, -1, 0}) {
    INFO("code " << code);
    auto [got_code, message] =
        p.answer(p.services.status_create(code, "bad"));
    CHECK(got_code == HX_INTERNAL);
    CHECK(message == "bad (status_create was given code " + std::to_string(code) +
                         ", which is not an hx_status_code error)");
  }
  CHECK(p.answer(p.services.status_create(HX_NOT_FOUND, "\x1b[2Jgone")) ==
        std::make_pair(int32_t{HX_NOT_FOUND}, std::string("\\x1b[2Jgone")));
  CHECK(p.answer(p.services.status_create(HX_INTERNAL, nullptr)).second.empty());
  const std::string long_message(10000, 'm');
  CHECK(p.answer(p.services.status_create(HX_INTERNAL, long_message.c_str())).second ==
        std::string(4096, 'm') + "...");
  CHECK(p.services.status_code(nullptr) == HX_OK);
  CHECK(std::string(p.services.status_message(nullptr)).empty());
}

TEST_CASE("log ignores a NULL core or message and logs an unknown level as a warning") {
  PluginCore p;
  p.services.log(nullptr, HX_LOG_ERROR, "no core");
  p.services.log(&p.core, HX_LOG_ERROR, nullptr);
  CHECK(p.log.lines().empty());

  p.services.log(&p.core, 17, "odd level \x1b[31m");
  REQUIRE(p.log.lines().size() == 1);
  CHECK(p.log.lines()[0].level == hxrt::LogLevel::kWarning);
  CHECK(p.log.lines()[0].text ==
        "plugin 'careless': odd level \\x1b[31m (logged with level 17, which is not an "
        "hx_log_level)");
}

TEST_CASE("register_kernel refuses NULL and garbage definitions with INVALID_ARGUMENT") {
  PluginCore p;
  static const int32_t f32[] = {HX_DTYPE_F32};
  const auto refused = [&](const hx_kernel_def* def) {
    auto [code, message] = p.answer(p.services.register_kernel(&p.core, def));
    CHECK(code == HX_INVALID_ARGUMENT);
    return message;
  };
  CHECK(p.answer(p.services.register_kernel(nullptr, nullptr)).first == HX_INVALID_ARGUMENT);
  refused(nullptr);

  hx_kernel_def def = relu_def(f32);
  def.struct_size = HX_KERNEL_DEF_REQUIRED_SIZE - 1;
  CHECK_THAT(refused(&def), Contains("struct_size"));
  def = relu_def(f32);
  def.op = nullptr;
  CHECK_THAT(refused(&def), Equals("register_kernel: op is NULL"));
  def = relu_def(f32);
  def.compute = nullptr;
  CHECK_THAT(refused(&def), Equals("register_kernel: kernel for 'Relu' has no compute function"));
  def = relu_def(f32);
  def.dtypes = nullptr;
  CHECK_THAT(refused(&def), Equals("register_kernel: dtypes is NULL but its count is 1"));

  // A count beyond the array: the core must not read on.
  def = relu_def(f32);
  def.num_dtypes = SIZE_MAX;
  CHECK_THAT(refused(&def), Equals("register_kernel: dtypes has " + std::to_string(SIZE_MAX) +
                                   " entries; there are only 17 dtypes, so list each at most "
                                   "once"));
  const int32_t bad_output = -3;
  def = relu_def(f32);
  def.output_dtypes = &bad_output;
  def.num_output_dtypes = 1;
  CHECK_THAT(refused(&def), Equals("register_kernel: output_dtypes[0] is -3, which is not an "
                                   "hx_dtype (1 to 17)"));

  const std::string long_op(100, 'R');
  def = relu_def(f32);
  def.op = long_op.c_str();
  CHECK_THAT(refused(&def), Equals("register_kernel: op '" + long_op.substr(0, 64) +
                                   "...' is longer than 64 characters"));

  CHECK(p.core.pending->kernels.size() == 0);
  def = relu_def(f32);
  CHECK(p.services.register_kernel(&p.core, &def) == nullptr);
  CHECK(p.core.pending->kernels.size() == 1);
}

TEST_CASE("register_op refuses NULL, overlong and garbage definitions, and caps ops per plugin") {
  PluginCore p;
  const auto answer = [&](const hx_op_def* def) {
    return p.answer(p.services.register_op(&p.core, def));
  };
  CHECK(answer(nullptr).first == HX_INVALID_ARGUMENT);
  hx_op_def def = op_def(nullptr, noop_infer);
  CHECK(answer(&def) == std::make_pair(int32_t{HX_INVALID_ARGUMENT},
                                       std::string("register_op: op name is NULL")));
  def = op_def("Careless_Gelu", nullptr);
  CHECK(answer(&def).first == HX_INVALID_ARGUMENT);
  def = op_def("Careless_Gelu", noop_infer);
  def.num_outputs = INT32_MAX;
  CHECK_THAT(answer(&def).second, Contains("num_outputs is 2147483647; an op has 1 to 64 outputs"));
  def = op_def("bad\x1b[2J", noop_infer);
  CHECK_THAT(answer(&def).second,
             Contains("op 'bad\\x1b[2J' from plugin 'careless': an op name must match"));
  def = op_def("Relu", noop_infer);
  CHECK(answer(&def).first == HX_ALREADY_EXISTS);

  std::vector<std::string> names;
  for (int i = 0; i < 1001; ++i) names.push_back("Op" + std::to_string(i));
  for (int i = 0; i < 1000; ++i) {
    def = op_def(names[i].c_str(), noop_infer);
    REQUIRE(p.services.register_op(&p.core, &def) == nullptr);
  }
  def = op_def(names[1000].c_str(), noop_infer);
  CHECK(answer(&def) ==
        std::make_pair(int32_t{HX_OUT_OF_RANGE}, std::string("register_op: plugin 'careless' has "
                                                    "registered 1000 ops, the most one plugin "
                                                    "may register")));
}

TEST_CASE("registration after hx_plugin_init returned is refused with FAILED_PRECONDITION") {
  PluginCore p;
  p.core.registration_open = false;
  static const int32_t f32[] = {HX_DTYPE_F32};
  const hx_kernel_def kernel = relu_def(f32);
  const hx_op_def op = op_def("Careless_Gelu", noop_infer);
  for (hx_status* status : {p.services.register_kernel(&p.core, &kernel),
                            p.services.register_op(&p.core, &op)}) {
    auto [code, message] = p.answer(status);
    CHECK(code == HX_FAILED_PRECONDITION);
    CHECK_THAT(message, Contains("plugin 'careless' registered after its hx_plugin_init "
                                 "returned; register ops and kernels only during "
                                 "hx_plugin_init"));
  }
}

TEST_CASE("attribute getters refuse a NULL out pointer instead of writing through it") {
  PluginCore p;
  const hxrt::Attrs attrs{{"flag", true},
                          {"count", int64_t{3}},
                          {"alpha", 0.5},
                          {"to", hxrt::DType::kF32},
                          {"axes", std::vector<int64_t>{0, 1}},
                          {"scales", std::vector<double>{0.5, 2}},
                          {"mode", std::string("same")}};
  const hx_kernel_context_s context{&attrs};
  const hx_kernel_context* ctx = &context;
  const int64_t* ints = nullptr;
  const double* floats = nullptr;
  const char* text = nullptr;
  size_t length = 0;
  hx_status* answers[] = {
      p.services.attr_bool(ctx, "flag", nullptr),
      p.services.attr_int(ctx, "count", nullptr),
      p.services.attr_float(ctx, "alpha", nullptr),
      p.services.attr_dtype(ctx, "to", nullptr),
      p.services.attr_ints(ctx, "axes", nullptr, &length),
      p.services.attr_ints(ctx, "axes", &ints, nullptr),
      p.services.attr_floats(ctx, "scales", nullptr, &length),
      p.services.attr_floats(ctx, "scales", &floats, nullptr),
      p.services.attr_string(ctx, "mode", nullptr, &length),
      p.services.attr_string(ctx, "mode", &text, nullptr),
  };
  for (hx_status* status : answers) {
    auto [code, message] = p.answer(status);
    CHECK(code == HX_INVALID_ARGUMENT);
    CHECK_THAT(message, Contains("an out pointer is NULL; pass where the value goes"));
  }
  bool flag = false;
  CHECK(p.answer(p.services.attr_bool(nullptr, "flag", &flag)).first == HX_INVALID_ARGUMENT);
  CHECK(p.answer(p.services.attr_bool(ctx, nullptr, &flag)).first == HX_INVALID_ARGUMENT);
  CHECK(p.services.attr_bool(ctx, "flag", &flag) == nullptr);
  CHECK(flag);
}

TEST_CASE("attr_floats reads a list of floats, and only that (ABI 2.6)") {
  PluginCore p;
  const hxrt::Attrs attrs{{"scales", std::vector<double>{0.5, 2}},
                          {"axes", std::vector<int64_t>{0, 1}}};
  const hx_kernel_context_s context{&attrs};
  const double* floats = nullptr;
  size_t count = 0;
  REQUIRE(p.services.attr_floats(&context, "scales", &floats, &count) == nullptr);
  CHECK(std::vector<double>(floats, floats + count) == std::vector<double>{0.5, 2});
  auto [code, message] = p.answer(p.services.attr_floats(&context, "axes", &floats, &count));
  CHECK(code == HX_INVALID_ARGUMENT);
  CHECK(message == "attribute 'axes' must be a list of floats, got list of ints ([0, 1])");
  CHECK(p.answer(p.services.attr_floats(&context, "roi", &floats, &count)).first == HX_NOT_FOUND);
}

TEST_CASE("a custom op whose shape inference writes dtype 42 fails the call, not the process") {
  PluginCore p;
  const hx_op_def def = op_def("Stale", infer_dtype_42);
  REQUIRE(p.services.register_op(&p.core, &def) == nullptr);
  const hxrt::detail::OpSchema* schema = p.core.pending->ops.find("Stale");
  REQUIRE(schema != nullptr);

  const std::string op = "Stale";
  const hxrt::detail::TensorMeta input{hxrt::DType::kF32, hxrt::Shape({2})};
  const hxrt::Attrs attrs;
  hxrt::detail::TensorMeta output;
  const hxrt::detail::InferContext call{op, &input, 1, attrs, schema};
  auto error = loader_test::error_from([&] { schema->infer(call, &output); });
  REQUIRE(error.has_value());
  CHECK(error->code() == hxrt::StatusCode::kInternal);
  CHECK_THAT(error->what(), Contains("Stale: the plugin's shape inference wrote dtype 42 and "
                                     "rank 0 for output 0"));
}

TEST_CASE("register_kernel refuses what ABI 2.0 rules out: create without destroy, no dtypes, "
          "a dtype outside hx_dtype or listed twice") {
  PluginCore p;
  static const int32_t f32[] = {HX_DTYPE_F32};
  const auto refused = [&](const hx_kernel_def& def) {
    auto [code, message] = p.answer(p.services.register_kernel(&p.core, &def));
    CHECK(code == HX_INVALID_ARGUMENT);
    return message;
  };
  hx_kernel_def def = relu_def(f32);
  def.create = noop_create;
  CHECK_THAT(refused(def), Equals("register_kernel: kernel for 'Relu' has create but no destroy; "
                                  "instances create makes are freed with destroy, so give both"));
  def = relu_def(f32);
  def.num_dtypes = 0;
  CHECK_THAT(refused(def), Equals("register_kernel: kernel for 'Relu' lists no dtypes"));
  static const int32_t not_a_dtype[] = {42};
  def = relu_def(not_a_dtype);
  CHECK_THAT(refused(def), Equals("register_kernel: dtypes[0] is 42, which is not an hx_dtype "
                                  "(1 to 17)"));
  static const int32_t invalid[] = {HX_DTYPE_INVALID};
  def = relu_def(invalid);
  CHECK_THAT(refused(def), Contains("dtypes[0] is 0, which is not an hx_dtype"));
  static const int32_t repeated[] = {HX_DTYPE_F32, HX_DTYPE_F64, HX_DTYPE_F32};
  def = relu_def(repeated);
  def.num_dtypes = 3;
  CHECK_THAT(refused(def), Equals("register_kernel: dtypes[2] is float32 again; list each dtype "
                                  "at most once"));
  def = relu_def(f32);
  def.output_dtypes = repeated;
  def.num_output_dtypes = 3;
  CHECK_THAT(refused(def), Equals("register_kernel: output_dtypes[2] is float32 again; list each "
                                  "dtype at most once"));
  CHECK(p.core.pending->kernels.size() == 0);

  // Each optional function on its own, and create with destroy, are accepted.
  def = relu_def(f32);
  def.create = noop_create;
  def.destroy = noop_destroy;
  CHECK(p.services.register_kernel(&p.core, &def) == nullptr);
  def = relu_def(f32);
  def.priority = 1;
  def.destroy = noop_destroy;
  CHECK(p.services.register_kernel(&p.core, &def) == nullptr);
  REQUIRE(p.core.pending->kernels.size() == 2);
  const hxrt::detail::KernelEntry& kept = *p.core.pending->kernels.all().back();
  CHECK(kept.priority == 0);
  CHECK(kept.create == noop_create);
  CHECK(kept.destroy == noop_destroy);
  CHECK(kept.plugin == "careless");
}

TEST_CASE("register_kernel refuses a second kernel of one op, dtype and priority from one plugin "
          "with ALREADY_EXISTS") {
  PluginCore p;
  static const int32_t f32[] = {HX_DTYPE_F32};
  static const int32_t f64_and_f32[] = {HX_DTYPE_F64, HX_DTYPE_F32};
  hx_kernel_def def = relu_def(f32);
  REQUIRE(p.services.register_kernel(&p.core, &def) == nullptr);
  // Sharing one dtype of several is a tie too.
  def = relu_def(f64_and_f32);
  def.num_dtypes = 2;
  auto [code, message] = p.answer(p.services.register_kernel(&p.core, &def));
  CHECK(code == HX_ALREADY_EXISTS);
  CHECK(message == "register_kernel: plugin 'careless' registered two kernels for op 'Relu' with "
                   "T=float32 and priority 0; give one of them another priority (the higher is "
                   "tried first)");
  // Another priority, or another dtype, is no tie.
  def = relu_def(f32);
  def.priority = -1;
  CHECK(p.services.register_kernel(&p.core, &def) == nullptr);
  def = relu_def(f64_and_f32);
  CHECK(p.services.register_kernel(&p.core, &def) == nullptr);
  CHECK(p.core.pending->kernels.size() == 3);
}

TEST_CASE("register_op keeps a custom op's summary and the input that carries T") {
  PluginCore p;
  hx_op_def def = op_def("Careless_Gelu", noop_infer);
  def.summary = "Gaussian error linear unit \x1b[31m";
  def.type_input = 0;
  REQUIRE(p.services.register_op(&p.core, &def) == nullptr);
  const hxrt::detail::OpSchema* gelu = p.core.pending->ops.find("Careless_Gelu");
  REQUIRE(gelu != nullptr);
  CHECK(gelu->summary == "Gaussian error linear unit \\x1b[31m");
  CHECK(gelu->type_parameter.source == hxrt::TypeParameter::Source::kInput);
  CHECK(gelu->type_parameter.input == 0);

  // A summary is optional, and one beyond 256 bytes is cut.
  def = op_def("Silent", noop_infer);
  REQUIRE(p.services.register_op(&p.core, &def) == nullptr);
  CHECK(p.core.pending->ops.find("Silent")->summary.empty());
  const std::string long_summary(1000, 's');
  def = op_def("Wordy", noop_infer);
  def.summary = long_summary.c_str();
  REQUIRE(p.services.register_op(&p.core, &def) == nullptr);
  CHECK(p.core.pending->ops.find("Wordy")->summary == std::string(256, 's') + "...");

  // Without inputs, T is the first output's dtype (type_input -1).
  def = op_def("Source", noop_infer);
  def.min_inputs = 0;
  def.max_inputs = 0;
  def.type_input = -1;
  REQUIRE(p.services.register_op(&p.core, &def) == nullptr);
  CHECK(p.core.pending->ops.find("Source")->type_parameter.source ==
        hxrt::TypeParameter::Source::kOutput);
}

TEST_CASE("register_op refuses a type_input that names no input every call has") {
  PluginCore p;
  const auto refused = [&](const char* name, int32_t min_inputs, int32_t type_input) {
    hx_op_def def = op_def(name, noop_infer);
    def.min_inputs = min_inputs;
    def.max_inputs = 3;
    def.type_input = type_input;
    auto [code, message] = p.answer(p.services.register_op(&p.core, &def));
    CHECK(code == HX_INVALID_ARGUMENT);
    CHECK(p.core.pending->ops.find(name) == nullptr);
    return message;
  };
  // Input 1 is optional when the op may be called with one input.
  CHECK_THAT(refused("Pair", 1, 1), Contains("type_input 1 is not an input every call has; "
                                             "expected 0 to 0"));
  CHECK_THAT(refused("Far", 2, INT32_MAX), Contains("type_input 2147483647 is not an input"));
  CHECK_THAT(refused("Below", 1, -2),
             Equals("register_op: op 'Below': type_input is -2; expected the index of the input "
                    "that carries T, or -1 for T from the first output"));
  CHECK_THAT(refused("Lowest", 1, INT32_MIN), Contains("type_input is -2147483648"));
  // An op that may be called without inputs cannot take T from one.
  CHECK_THAT(refused("Optional", 0, 0),
             Contains("the op may be called without inputs, so T must come from its first "
                      "output (type_input -1)"));
}

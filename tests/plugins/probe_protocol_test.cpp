// The pieces that keep a plugin from writing its own probe verdict, without a process: the key
// and its tag (SipHash-2-4), the signed lines, the core's reading of a report channel the
// plugin shares, and the verdict, which puts what the process did before what it reported.
#include "plugins/probe_protocol.hpp"

#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <string>

#include "plugins/probe_key.hpp"
#include "plugins/probe_report.hpp"
#include "plugins/probe_verdict.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using hxrt::detail::ProbeEnd;
using hxrt::detail::ProbeKey;
using hxrt::detail::ProbeNames;
using hxrt::detail::ProbeOutcome;
using hxrt::detail::ProbeReport;
namespace protocol = hxrt::detail::probe_protocol;

namespace {

// The key of SipHash's reference vectors: bytes 00 to 0f.
ProbeKey reference_key() {
  const std::optional<ProbeKey> key =
      hxrt::detail::parse_probe_key("000102030405060708090a0b0c0d0e0f");
  REQUIRE(key.has_value());
  return *key;
}

const ProbeKey kKey{0x0123456789abcdefULL, 0xfedcba9876543210ULL};

// A report of `lines` signed with kKey, numbered from 0.
ProbeReport signed_report(std::initializer_list<const char*> lines) {
  ProbeReport report(kKey);
  uint64_t sequence = 0;
  for (const char* line : lines) report.add(protocol::signed_line(kKey, sequence++, line));
  return report;
}

int exited(int code) { return (code & 0xff) << 8; }  // a wait status, as waitpid gives it
int killed_by(int signal) { return signal; }

ProbeOutcome judge(const ProbeReport& report, ProbeEnd end) {
  ProbeNames names;
  names.program = "/lib/hxrt/hxrt-probe";
  names.plugin_name = "x";
  names.time_limit = std::chrono::milliseconds(1000);
  return hxrt::detail::judge_probe(end, report, names);
}

}  // namespace

TEST_CASE("a probe's tag is SipHash-2-4 (the reference vectors of its paper)") {
  std::string message;
  for (char byte = 0; byte < 15; ++byte) message += byte;
  CHECK(hxrt::detail::probe_tag(reference_key(), message) == 0xa129ca6149be45e5ULL);
  CHECK(hxrt::detail::probe_tag(reference_key(), "") == 0x726fdb47dd0e0e31ULL);
  CHECK(hxrt::detail::probe_tag(reference_key(), message.substr(0, 8)) == 0x93f5f5799a932462ULL);
}

TEST_CASE("a probe key goes through its text and back, and nothing else reads as one") {
  const std::optional<ProbeKey> random = hxrt::detail::random_probe_key();
  REQUIRE(random.has_value());
  const std::string text = hxrt::detail::probe_key_text(*random);
  CHECK(text.size() == 32);
  const std::optional<ProbeKey> back = hxrt::detail::parse_probe_key(text);
  REQUIRE(back.has_value());
  CHECK(back->k0 == random->k0);
  CHECK(back->k1 == random->k1);
  CHECK(hxrt::detail::probe_key_text(reference_key()) == "000102030405060708090a0b0c0d0e0f");
  for (const char* bad :
       {"", "00", "000102030405060708090a0b0c0d0e0", "000102030405060708090a0b0c0d0e0f0",
        "000102030405060708090A0B0C0D0E0F", "000102030405060708090a0b0c0d0e0g"}) {
    INFO(bad);
    CHECK_FALSE(hxrt::detail::parse_probe_key(bad).has_value());
  }
  const std::optional<ProbeKey> other = hxrt::detail::random_probe_key();
  REQUIRE(other.has_value());
  CHECK((other->k0 != random->k0 || other->k1 != random->k1));
}

TEST_CASE("a signed line checks out under its key only, as it was written") {
  const std::string line = protocol::signed_line(kKey, 7, "step device_count");
  REQUIRE(line.front() == '\n');
  REQUIRE(line.back() == '\n');
  const std::string body = line.substr(1, line.size() - 2);
  const std::optional<protocol::SignedLine> read = protocol::verify_line(kKey, body);
  REQUIRE(read.has_value());
  CHECK(read->sequence == 7);
  CHECK(read->text == "step device_count");

  CHECK_FALSE(protocol::verify_line(ProbeKey{kKey.k0, kKey.k1 ^ 1}, body).has_value());
  std::string other_text = body;
  other_text.replace(other_text.size() - 5, 5, "xount");
  CHECK_FALSE(protocol::verify_line(kKey, other_text).has_value());
  CHECK_FALSE(protocol::verify_line(kKey, "0" + body).has_value());  // "07": another spelling
  std::string other_number = body;
  other_number[0] = '8';
  CHECK_FALSE(protocol::verify_line(kKey, other_number).has_value());
  for (const char* forged : {"", "done", "7 done", "7 0123456789abcdef done", "error x"}) {
    INFO(forged);
    CHECK_FALSE(protocol::verify_line(kKey, forged).has_value());
  }
}

TEST_CASE("a report counts the probe's signed lines and drops the plugin's") {
  SECTION("the lines of the old protocol, unsigned, say nothing") {
    ProbeReport report(kKey);
    report.add("step hx_plugin_init\ndone\nerror x\n");
    CHECK_FALSE(report.last_step().has_value());
    CHECK_FALSE(report.done());
    CHECK_FALSE(report.error().has_value());
    CHECK(report.forged_lines() == 3);
  }
  SECTION("signed lines count, in pieces of any size") {
    const std::string bytes = protocol::signed_line(kKey, 0, "step dlopen") +
                              protocol::signed_line(kKey, 1, "step hx_plugin_init") +
                              protocol::signed_line(kKey, 2, "done");
    ProbeReport report(kKey);
    for (char byte : bytes) report.add(std::string(1, byte));
    CHECK(report.last_step() == "hx_plugin_init");
    CHECK(report.done());
    CHECK(report.forged_lines() == 0);
  }
  SECTION("a line of the probe's sent again, or one from another key, is dropped") {
    const std::string first = protocol::signed_line(kKey, 0, "step dlopen");
    ProbeReport report(kKey);
    report.add(first);
    report.add(protocol::signed_line(kKey, 1, "step hx_plugin_init"));
    report.add(first);
    report.add(protocol::signed_line(ProbeKey{1, 2}, 5, "done"));
    CHECK(report.last_step() == "hx_plugin_init");
    CHECK_FALSE(report.done());
    CHECK(report.forged_lines() == 2);
  }
  SECTION("an unfinished line of the plugin's does not swallow the probe's next line") {
    ProbeReport report(kKey);
    report.add("half a line, no newline");
    report.add(protocol::signed_line(kKey, 0, "step dlopen"));
    CHECK(report.last_step() == "dlopen");
  }
  SECTION("a flood without a newline is not kept, and a signed line after it still counts") {
    ProbeReport report(kKey);
    const std::string flood(64 * 1024, 'x');
    for (int i = 0; i < 64; ++i) report.add(flood);
    report.add(protocol::signed_line(kKey, 0, "done"));
    CHECK(report.done());
    CHECK(report.forged_lines() == 1);
  }
  SECTION("step and error texts are made safe for a terminal") {
    ProbeReport report = signed_report({"step a\x1b[2Jb", "error c\x1b]0;d"});
    REQUIRE(report.last_step().has_value());
    REQUIRE(report.error().has_value());
    CHECK(report.last_step()->find('\x1b') == std::string::npos);
    CHECK(report.error()->find('\x1b') == std::string::npos);
  }
}

TEST_CASE("the verdict comes from what the probe process did first, its report second") {
  SECTION("'done' and the probe's own exit status: survived") {
    CHECK(judge(signed_report({"step dlopen", "done"}), {false, exited(0)}).verdict ==
          ProbeOutcome::Verdict::kSurvived);
  }
  SECTION("'done' and then a crash: fatal, blamed on the way out") {
    const ProbeOutcome outcome =
        judge(signed_report({"step dlopen", "done"}), {false, killed_by(SIGSEGV)});
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
    CHECK_THAT(outcome.reason, StartsWith("plugin 'x' crashed in the exit of its probe process, "
                                          "after every step returned: SIGSEGV"));
  }
  SECTION("'done' and then another exit status: fatal") {
    const ProbeOutcome outcome = judge(signed_report({"step dlopen", "done"}), {false, exited(3)});
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
    CHECK_THAT(outcome.reason, Contains("called exit(3) in the exit of its probe process"));
  }
  SECTION("'done' and then a hang: fatal") {
    const ProbeOutcome outcome =
        judge(signed_report({"step dlopen", "done"}), {true, killed_by(SIGKILL)});
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
    CHECK_THAT(outcome.reason, Contains("did not return from the exit of its probe process"));
  }
  SECTION("'error' and a crash, a hang or another exit status: fatal") {
    const ProbeReport report = signed_report({"step dlopen", "step hx_plugin_init", "error x"});
    const ProbeEnd end =
        GENERATE(ProbeEnd{false, killed_by(SIGSEGV)}, ProbeEnd{true, killed_by(SIGKILL)},
                 ProbeEnd{false, exited(0)}, ProbeEnd{false, exited(1)});
    const ProbeOutcome outcome = judge(report, end);
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
    CHECK_THAT(outcome.reason, Contains("hx_plugin_init"));
  }
  SECTION("'error' and the probe's own exit status for it: nothing learnt") {
    const ProbeOutcome outcome = judge(signed_report({"step dlopen", "error out of memory"}),
                                       {false, exited(protocol::kCouldNotProbeExit)});
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kUnknown);
    CHECK(outcome.reason == "/lib/hxrt/hxrt-probe could not probe it: out of memory");
  }
  SECTION("a forged 'done' or 'error' with the probe's exit statuses: fatal") {
    ProbeReport report = signed_report({"step dlopen", "step hx_plugin_init"});
    report.add("done\nerror x\n");
    for (int code : {protocol::kFinishedExit, protocol::kCouldNotProbeExit}) {
      const ProbeOutcome outcome = judge(report, {false, exited(code)});
      CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
      CHECK_THAT(outcome.reason,
                 Contains("called exit(" + std::to_string(code) + ") in hx_plugin_init"));
    }
  }
  SECTION("a probe that never reached the plugin learnt nothing, unless it hung") {
    const ProbeOutcome outcome = judge(signed_report({}), {false, exited(127)});
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kUnknown);
    CHECK(outcome.reason ==
          "/lib/hxrt/hxrt-probe ended before it reached the plugin (exit status 127)");
    CHECK(judge(signed_report({}), {true, killed_by(SIGKILL)}).verdict ==
          ProbeOutcome::Verdict::kFatal);
  }
  SECTION("without a wait status only a signed 'done' passes") {
    CHECK(judge(signed_report({"step dlopen", "done"}), {false, std::nullopt}).verdict ==
          ProbeOutcome::Verdict::kSurvived);
    ProbeReport forged = signed_report({"step dlopen", "step hx_plugin_init"});
    forged.add("done\n");
    const ProbeOutcome outcome = judge(forged, {false, std::nullopt});
    CHECK(outcome.verdict == ProbeOutcome::Verdict::kFatal);
    CHECK_THAT(outcome.reason, Contains("ended its probe process in hx_plugin_init"));
  }
}

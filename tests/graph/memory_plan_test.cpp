// The memory planner of compiled graphs: values share memory only when no order the executor
// may choose lets them be live at once, and share it along chains, diamonds and after joins.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "error_from.hpp"
#include "graph/compile/memory_plan.hpp"
#include "plan_checker.hpp"

using hxrt::StatusCode;
using hxrt::detail::MemoryPlan;
using hxrt::detail::plan_memory;
using hxrt::detail::plan_memory_within;
using hxrt::detail::PlanStep;
using hxrt::detail::PlanValue;
using hxrt_test::error_from;
using hxrt_test::plan_problem;

namespace {

PlanValue value(size_t producer, std::vector<size_t> readers, size_t bytes = 64,
                size_t device = 0) {
  PlanValue planned;
  planned.device = device;
  planned.bytes = bytes;
  planned.producer = producer;
  planned.readers = std::move(readers);
  return planned;
}

bool overlap(const std::vector<PlanValue>& values, const MemoryPlan& plan, size_t a, size_t b) {
  return values[a].device == values[b].device &&
         plan.offsets[a] < plan.offsets[b] + values[b].bytes &&
         plan.offsets[b] < plan.offsets[a] + values[a].bytes;
}

// Steps 0 .. length-1, each after the one before, each writing one value read by the next.
void add_chain(size_t length, std::vector<PlanStep>& steps, std::vector<PlanValue>& values) {
  for (size_t i = 0; i < length; ++i) {
    steps.push_back(i == 0 ? PlanStep{} : PlanStep{{i - 1}});
    values.push_back(value(i, i + 1 < length ? std::vector<size_t>{i + 1} : std::vector<size_t>{}));
  }
}

// Two chains a and b of `length` steps each, their steps interleaved: a0 b0 a1 b1 ...
void add_interleaved_chains(size_t length, std::vector<PlanStep>& steps,
                            std::vector<PlanValue>& values) {
  for (size_t i = 0; i < 2 * length; ++i) {
    steps.push_back(i < 2 ? PlanStep{} : PlanStep{{i - 2}});
    values.push_back(
        value(i, i + 2 < 2 * length ? std::vector<size_t>{i + 2} : std::vector<size_t>{}));
  }
}

// Checks that plan_memory refuses this input with INVALID_ARGUMENT, naming every part.
void check_refused(const std::vector<PlanStep>& steps, const std::vector<PlanValue>& values,
                   size_t num_devices, size_t alignment, std::initializer_list<const char*> parts) {
  const auto error = error_from([&] { plan_memory(steps, values, num_devices, alignment); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kInvalidArgument);
  for (const char* part : parts) CHECK_THAT(error->what(), Catch::Contains(part));
}

}  // namespace

TEST_CASE("A long chain of equal values needs an arena of two of them", "[graph][memory_plan]") {
  std::vector<PlanStep> steps;
  std::vector<PlanValue> values;
  add_chain(1000, steps, values);
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK(plan.arena_bytes == std::vector<uint64_t>{128});
  CHECK(plan.unshared_bytes == std::vector<uint64_t>{64000});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE("Two independent branches never share memory, whatever their order in the list",
          "[graph][memory_plan]") {
  // a1 -> a2 and b1 -> b2, listed a1 a2 b1 b2: in list order a1's value is dead after a2, but
  // b1 may run before or during a2.
  const std::vector<PlanStep> steps = {{}, {{0}}, {}, {{2}}};
  const std::vector<PlanValue> values = {value(0, {1}), value(1, {}), value(2, {3}), value(3, {})};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  for (size_t a : {0, 1}) {
    for (size_t b : {2, 3}) CHECK_FALSE(overlap(values, plan, a, b));
  }
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE(
    "A value read by a step of another branch stays live until that step, and its memory "
    "is reused after the join",
    "[graph][memory_plan]") {
  // 0 a1, 1 a2 (after a1), 2 b1, 3 b2 (after b1, reads a1's value), 4 a3 (after a2),
  // 5 join (after b2 and a3). a1's value is last read at step 3 in list order, but step 4
  // may run before step 3.
  const std::vector<PlanStep> steps = {{}, {{0}}, {}, {{2, 0}}, {{1}}, {{3, 4}}};
  const std::vector<PlanValue> values = {value(0, {1, 3}), value(1, {4}), value(2, {3}),
                                         value(3, {5}),    value(4, {5}), value(5, {})};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK_FALSE(overlap(values, plan, 0, 4));
  CHECK(plan.arena_bytes == std::vector<uint64_t>{5 * 64});
  // After the join, a1's, a2's and b1's values are dead: the join's value takes one's place.
  CHECK(
      (overlap(values, plan, 5, 0) || overlap(values, plan, 5, 1) || overlap(values, plan, 5, 2)));
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE("Diamonds share: a value is reused once both branches that read it are done",
          "[graph][memory_plan]") {
  // 0 -> {1, 2} -> 3 -> 4: step 3's value may take step 0's place, step 4's that of 1 or 2.
  const std::vector<PlanStep> steps = {{}, {{0}}, {{0}}, {{1, 2}}, {{3}}};
  const std::vector<PlanValue> values = {value(0, {1, 2}), value(1, {3}), value(2, {3}),
                                         value(3, {4}), value(4, {})};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK(plan.arena_bytes == std::vector<uint64_t>{3 * 64});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE("A value may span dead values next to each other", "[graph][memory_plan]") {
  // Step 0's value lives to the end, so no value is dead before every later step. Steps 1 and
  // 2 write a and b, read by 3; step 4, after 3, writes twice their size where they were.
  const std::vector<PlanStep> steps = {{}, {}, {}, {{1, 2}}, {{3}}, {{0, 4}}};
  const std::vector<PlanValue> values = {value(0, {5}), value(1, {3}), value(2, {3}), value(3, {4}),
                                         value(4, {}, 128)};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK(plan.offsets[4] == 64);
  CHECK(plan.arena_bytes == std::vector<uint64_t>{4 * 64});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE("A value that grows the arena starts over the dead values at its top",
          "[graph][memory_plan]") {
  // Step 0's value lives to the end. a (step 1), b (step 2, after 1) and c (step 3, after 2)
  // form a chain; c takes a's place, so the dead b is at the top when step 4 writes d, three
  // times their size.
  const std::vector<PlanStep> steps = {{}, {}, {{1}}, {{2}}, {{3}}, {{0, 4}}};
  const std::vector<PlanValue> values = {value(0, {5}), value(1, {2}), value(2, {3}), value(3, {4}),
                                         value(4, {}, 192)};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK(plan.offsets == std::vector<uint64_t>{0, 64, 128, 64, 128});
  CHECK(plan.arena_bytes == std::vector<uint64_t>{320});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE("A value nobody reads is dead once its producer completes, for its successors only",
          "[graph][memory_plan]") {
  // Step 1 follows step 0 and may reuse its unread value; step 2 is independent of both.
  const std::vector<PlanStep> steps = {{}, {{0}}, {}};
  const std::vector<PlanValue> values = {value(0, {}), value(1, {}), value(2, {})};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK(overlap(values, plan, 0, 1));
  CHECK_FALSE(overlap(values, plan, 0, 2));
  CHECK_FALSE(overlap(values, plan, 1, 2));
  CHECK(plan.arena_bytes == std::vector<uint64_t>{128});
}

TEST_CASE("The outputs of one step never share memory, whether read later or never",
          "[graph][memory_plan]") {
  // Step 0 writes three values (LayerNormalization's Y, Mean, InvStdDev): the second is read by
  // step 1, the others by nothing. All three are written at once; step 1's own value may reuse
  // the two dead ones, never the one it reads.
  const std::vector<PlanStep> steps = {{}, {{0}}};
  const std::vector<PlanValue> values = {value(0, {}), value(0, {1}), value(0, {}),
                                         value(1, {})};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  CHECK(plan_problem(steps, values, 1, 64, plan).empty());
  CHECK_FALSE(overlap(values, plan, 0, 1));
  CHECK_FALSE(overlap(values, plan, 0, 2));
  CHECK_FALSE(overlap(values, plan, 1, 2));
  CHECK_FALSE(overlap(values, plan, 1, 3));
  CHECK(plan.arena_bytes == std::vector<uint64_t>{192});
}

TEST_CASE("Each device has its own arena", "[graph][memory_plan]") {
  // Two independent steps, one value each on devices 0 and 1; device 2 has none.
  const std::vector<PlanStep> steps = {{}, {}};
  const std::vector<PlanValue> values = {value(0, {}, 100, 0), value(1, {}, 300, 1)};
  const MemoryPlan plan = plan_memory(steps, values, 3, 4);
  CHECK(plan.offsets == std::vector<uint64_t>{0, 0});
  CHECK(plan.arena_bytes == std::vector<uint64_t>{100, 300, 0});
  CHECK(plan.unshared_bytes == std::vector<uint64_t>{100, 300, 0});
}

TEST_CASE("An unshareable value overlaps no other, and the others still share",
          "[graph][memory_plan]") {
  std::vector<PlanStep> steps;
  std::vector<PlanValue> values;
  add_chain(6, steps, values);
  values[2].shareable = false;
  const MemoryPlan plan = plan_memory(steps, values, 1, 64);
  for (size_t other = 0; other < values.size(); ++other) {
    if (other != 2) CHECK_FALSE(overlap(values, plan, 2, other));
  }
  CHECK(plan.arena_bytes == std::vector<uint64_t>{3 * 64});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

TEST_CASE("Every offset is a multiple of the alignment, and unshared_bytes sums aligned sizes",
          "[graph][memory_plan]") {
  std::vector<PlanStep> steps;
  std::vector<PlanValue> values;
  add_chain(5, steps, values);
  const std::vector<size_t> sizes = {1, 300, 257, 3, 512};
  for (size_t i = 0; i < values.size(); ++i) values[i].bytes = sizes[i];
  values[3].shareable = false;
  const MemoryPlan plan = plan_memory(steps, values, 1, 256);
  for (const uint64_t offset : plan.offsets) CHECK(offset % 256 == 0);
  CHECK(plan.unshared_bytes == std::vector<uint64_t>{256 + 512 + 512 + 256 + 512});
  CHECK(plan_problem(steps, values, 1, 256, plan) == "");
}

TEST_CASE("Sizes whose sum on one device overflows 64 bits are refused", "[graph][memory_plan]") {
  const size_t half = std::numeric_limits<size_t>::max() / 2 + 1;
  const std::vector<PlanStep> steps = {{}, {}};
  SECTION("two values on one device") {
    check_refused(steps, {value(0, {}, half), value(1, {}, half)}, 1, 1,
                  {"value 1", "device 0", "2^64"});
  }
  SECTION("one value rounded up to the alignment") {
    check_refused(steps, {value(0, {}, std::numeric_limits<size_t>::max())}, 1, 2,
                  {"value 0", "2^64"});
  }
  SECTION("but not the same values on two devices") {
    const std::vector<PlanValue> values = {value(0, {}, half, 0), value(1, {}, half, 1)};
    const MemoryPlan plan = plan_memory(steps, values, 2, 1);
    CHECK(plan.arena_bytes == std::vector<uint64_t>{half, half});
  }
}

TEST_CASE("Inconsistent input is refused, naming what is wrong", "[graph][memory_plan]") {
  const std::vector<PlanStep> steps = {{}, {{0}}, {{1}}};
  const std::vector<PlanValue> good = {value(0, {1}), value(1, {2})};
  SECTION("alignment") {
    check_refused(steps, good, 1, 0, {"alignment 0", "power of two"});
    check_refused(steps, good, 1, 48, {"alignment 48", "power of two"});
  }
  SECTION("a predecessor not below its step") {
    check_refused({{}, {{1}}}, {}, 1, 1, {"step 1 has predecessor 1", "topological order"});
    check_refused({{{2}}, {}, {}}, {}, 1, 1, {"step 0 has predecessor 2"});
  }
  SECTION("a device out of range") {
    check_refused(steps, {value(0, {}, 64, 2)}, 2, 1, {"value 0", "device 2", "2 devices"});
  }
  SECTION("a value of no bytes") {
    check_refused(steps, {value(0, {1}), value(1, {}, 0)}, 1, 1, {"value 1", "0 bytes"});
  }
  SECTION("a producer out of range") {
    check_refused(steps, {value(3, {})}, 1, 1, {"value 0", "step 3", "3 steps"});
  }
  SECTION("a reader out of range") {
    check_refused(steps, {value(0, {1, 7})}, 1, 1, {"value 0", "read by step 7", "3 steps"});
  }
  SECTION("a reader not after the producer") {
    check_refused(steps, {value(1, {1})}, 1, 1, {"value 0", "read by step 1", "not after"});
    check_refused(steps, {value(2, {0})}, 1, 1, {"value 0", "read by step 0", "not after"});
  }
}

TEST_CASE("An empty plan has empty arenas", "[graph][memory_plan]") {
  const MemoryPlan plan = plan_memory({}, {}, 2, 8);
  CHECK(plan.offsets.empty());
  CHECK(plan.arena_bytes == std::vector<uint64_t>{0, 0});
  CHECK(plan.unshared_bytes == std::vector<uint64_t>{0, 0});
}

TEST_CASE("Past its memory budget for reachability the planner shares less, still safely",
          "[graph][memory_plan]") {
  std::vector<PlanStep> steps;
  std::vector<PlanValue> values;
  SECTION("interleaved chains: each chain's value may reuse the one two links back") {
    add_interleaved_chains(50, steps, values);
    const MemoryPlan exact = plan_memory(steps, values, 1, 64);
    CHECK(exact.arena_bytes == std::vector<uint64_t>{4 * 64});
    const MemoryPlan cheap = plan_memory_within(steps, values, 1, 64, 0);
    CHECK(cheap.arena_bytes[0] > 4 * 64);
    CHECK(plan_problem(steps, values, 1, 64, cheap) == "");
  }
  SECTION("what precedes a join is dead after it") {
    // Steps 0, 1, 2 are independent and joined by 3; step 4, after it, writes a value twice
    // their size, where two of them were.
    steps = {{}, {}, {}, {{0, 1, 2}}, {{3}}};
    values = {value(0, {3}), value(1, {3}), value(2, {3}), value(3, {4}), value(4, {}, 128)};
    const MemoryPlan cheap = plan_memory_within(steps, values, 1, 64, 0);
    CHECK(cheap.arena_bytes == std::vector<uint64_t>{4 * 64});
    CHECK(plan_problem(steps, values, 1, 64, cheap) == "");
  }
  SECTION("a chain still needs two values") {
    add_chain(100, steps, values);
    const MemoryPlan cheap = plan_memory_within(steps, values, 1, 64, 0);
    CHECK(cheap.arena_bytes == std::vector<uint64_t>{128});
  }
}

TEST_CASE("Random graphs: no two values overlap unless one is dead before the other starts",
          "[graph][memory_plan]") {
  std::mt19937_64 random(14);
  for (int round = 0; round < 300; ++round) {
    std::uniform_int_distribution<size_t> step_count(1, 40);
    const size_t num_steps = step_count(random);
    const size_t num_devices = 1 + random() % 3;
    const size_t alignment = size_t{1} << (random() % 9);
    // Sparse graphs are mostly chains and branches; dense ones, joins.
    std::bernoulli_distribution edge(std::uniform_real_distribution<double>(0.02, 0.5)(random));
    std::bernoulli_distribution read(std::uniform_real_distribution<double>(0.02, 0.4)(random));
    std::bernoulli_distribution unshareable(0.1);
    std::vector<PlanStep> steps(num_steps);
    std::vector<PlanValue> values;
    for (size_t y = 0; y < num_steps; ++y) {
      for (size_t x = 0; x < y; ++x) {
        if (edge(random)) steps[y].predecessors.push_back(x);
      }
      for (size_t k = random() % 3; k > 0; --k) {
        PlanValue written = value(y, {}, 1 + random() % 1000, random() % num_devices);
        // Mostly, as in a real graph, a step that reads a value comes after its producer;
        // sometimes it is any later step, which the rule must cover too.
        for (size_t reader = y + 1; reader < num_steps; ++reader) {
          if (!read(random)) continue;
          written.readers.push_back(reader);
          if (random() % 4 != 0) steps[reader].predecessors.push_back(y);
        }
        written.shareable = !unshareable(random);
        values.push_back(written);
      }
    }
    INFO("round " << round << ": " << num_steps << " steps, " << values.size() << " values");
    const MemoryPlan exact = plan_memory(steps, values, num_devices, alignment);
    CHECK(plan_problem(steps, values, num_devices, alignment, exact) == "");
    const MemoryPlan cheap = plan_memory_within(steps, values, num_devices, alignment, 0);
    CHECK(plan_problem(steps, values, num_devices, alignment, cheap) == "");
    // Largest first and searched, as for runs on one thread.
    const MemoryPlan tight = plan_memory(steps, values, num_devices, alignment, true);
    CHECK(plan_problem(steps, values, num_devices, alignment, tight) == "");
    for (size_t device = 0; device < num_devices; ++device) {
      CHECK(tight.arena_bytes[device] <= exact.arena_bytes[device]);
    }
  }
}

TEST_CASE("Largest first, the arena is the smaller of two packings, down to the most ever live at "
          "once here",
          "[graph][memory_plan]") {
  // Steps 0 to 7 one after another. a (64 bytes) lives over steps 0-2, b (64) over 1-4, and
  // step 4 writes c (128, read at 6) and d (128, read at 7). In production order, a at 0 and
  // b at 64 leave c and d no room below 128: 384 bytes. Largest first, c and d go low, b
  // above them, a beside b where c and d do not yet live: 320, what steps 4 to 6 hold at once.
  std::vector<PlanStep> steps;
  for (size_t i = 0; i < 8; ++i) steps.push_back(i == 0 ? PlanStep{} : PlanStep{{i - 1}});
  const std::vector<PlanValue> values = {value(0, {2}), value(1, {4}), value(4, {6}, 128),
                                         value(4, {7}, 128)};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64, true);
  CHECK(plan.widest_bytes == std::vector<uint64_t>{320});
  CHECK(plan.arena_bytes == std::vector<uint64_t>{320});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
  // In production order alone (runs on several threads, compile's choice): 384.
  const MemoryPlan in_order = plan_memory(steps, values, 1, 64);
  CHECK(in_order.arena_bytes == std::vector<uint64_t>{384});
  CHECK(in_order.widest_bytes == std::vector<uint64_t>{320});
}

TEST_CASE("Where both greedy packings leave a gap, a search packs the most ever live at once",
          "[graph][memory_plan]") {
  // The pattern of the tests' transformer, reduced: steps 0 to 18 one after another; values
  // of 64 bytes over steps 0-11, 4-13, 8-14, 12-15 and 14-16, then one of 128 over 16-18.
  // At most 192 bytes are live at once, yet in production order and largest first alike the
  // 128 finds no two adjacent free slots: 256. Offsets searched, each value at the bottom or
  // on another's top, give 192.
  std::vector<PlanStep> steps;
  for (size_t i = 0; i < 19; ++i) steps.push_back(i == 0 ? PlanStep{} : PlanStep{{i - 1}});
  const std::vector<PlanValue> values = {value(0, {11}),  value(4, {13}),  value(8, {14}),
                                         value(12, {15}), value(14, {16}), value(16, {18}, 128)};
  const MemoryPlan plan = plan_memory(steps, values, 1, 64, true);
  CHECK(plan.widest_bytes == std::vector<uint64_t>{192});
  CHECK(plan.arena_bytes == std::vector<uint64_t>{192});
  CHECK(plan_problem(steps, values, 1, 64, plan) == "");
}

// When two calls' attributes select the same kernel instance (types/attr_identity.hpp).
#include <catch2/catch.hpp>
#include <cmath>

#include "base/attr_identity.hpp"

using hxrt::Attrs;
using hxrt::detail::attrs_fingerprint;
using hxrt::detail::same_attrs;

TEST_CASE("attributes are the same for an instance only with equal names, kinds and bits") {
  CHECK(same_attrs({}, {}));
  CHECK(same_attrs({{"transpose_b", true}}, {{"transpose_b", true}}));
  CHECK_FALSE(same_attrs({{"transpose_b", true}}, {{"transpose_b", false}}));
  CHECK_FALSE(same_attrs({{"transpose_a", true}}, {{"transpose_b", true}}));
  CHECK_FALSE(same_attrs({}, {{"transpose_b", false}}));
  CHECK_FALSE(same_attrs({{"value", 0.0}}, {{"value", -0.0}}));  // equal by ==, not by bits
  CHECK(same_attrs({{"value", std::nan("")}}, {{"value", std::nan("")}}));  // NaN != NaN
  CHECK_FALSE(same_attrs({{"value", int64_t{1}}}, {{"value", 1.0}}));
  const Attrs axes{{"axes", std::vector<int64_t>{0, 1}}};
  CHECK(same_attrs(axes, {{"axes", std::vector<int64_t>{0, 1}}}));
  CHECK_FALSE(same_attrs(axes, {{"axes", std::vector<int64_t>{1}}}));
  // Lists of floats by their elements' bits too, and never the same as a list of ints.
  const Attrs scales{{"scales", std::vector<double>{0.5, std::nan("")}}};
  CHECK(same_attrs(scales, {{"scales", std::vector<double>{0.5, std::nan("")}}}));
  CHECK_FALSE(
      same_attrs({{"scales", std::vector<double>{0.0}}}, {{"scales", std::vector<double>{-0.0}}}));
  CHECK_FALSE(same_attrs(scales, {{"scales", std::vector<double>{0.5}}}));
  CHECK_FALSE(same_attrs({{"axes", std::vector<double>{}}}, {{"axes", std::vector<int64_t>{}}}));
}

TEST_CASE("equal attributes have equal fingerprints, the usual differences change it") {
  const Attrs nan{{"value", std::nan("")}};
  CHECK(attrs_fingerprint(nan) == attrs_fingerprint({{"value", std::nan("")}}));
  CHECK(attrs_fingerprint({{"value", 0.0}}) != attrs_fingerprint({{"value", -0.0}}));
  CHECK(attrs_fingerprint({{"transpose_a", true}}) != attrs_fingerprint({{"transpose_b", true}}));
  CHECK(attrs_fingerprint({{"transpose_b", true}}) != attrs_fingerprint({{"transpose_b", false}}));
  CHECK(attrs_fingerprint({}) != attrs_fingerprint({{"transpose_b", false}}));
  CHECK(attrs_fingerprint({{"mode", std::string("a")}}) !=
        attrs_fingerprint({{"mode", std::string("b")}}));
  CHECK(attrs_fingerprint({{"scales", std::vector<double>{0.5, 2}}}) ==
        attrs_fingerprint({{"scales", std::vector<double>{0.5, 2}}}));
  CHECK(attrs_fingerprint({{"scales", std::vector<double>{0.5, 2}}}) !=
        attrs_fingerprint({{"scales", std::vector<double>{0.5, 3}}}));
}

#include "core/Json.h"
#include "core/ReportFile.h"

#include <gtest/gtest.h>

using namespace kcheck::core;

// core/Json: nlohmann-json with kcheck's conventions (exact counters,
// 6-digit ratios, errors with their position, a depth limit).
TEST(Json, ReadsCountersExactly) {
  JsonParseResult r = parseJson(
      R"({"a": [1, -2.5, true, null, "x\"y\u00e9", 1e3, -3], "b": {"c": 18446744073709551615}})");
  ASSERT_TRUE(r.value) << r.error;
  const Json &a = (*r.value)["a"];
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(jsonUint64(a[0]), 1u);
  EXPECT_FALSE(jsonUint64(a[1]));
  EXPECT_EQ(a[4].get<std::string>(), "x\"y\xc3\xa9");
  EXPECT_EQ(jsonUint64(a[5]), 1000u); // an exact integer, written as such
  EXPECT_FALSE(jsonUint64(a[6]));
  EXPECT_EQ(jsonInt64(a[6]), -3);
  // 64-bit counters survive exactly (a double would round this).
  EXPECT_EQ(jsonUint64((*r.value)["b"]["c"]), 18446744073709551615u);
  EXPECT_EQ(jsonString(*r.value, "a"), "");
  EXPECT_EQ(jsonString(a, "x"), "");
}

TEST(Json, ReportsErrorsWithPosition) {
  for (const char *bad : {"{", "[1,]", "{\"a\" 1}", "01", "\"abc", "[1] x",
                          "{\"a\": tru}", "\"\\q\""}) {
    JsonParseResult r = parseJson(bad);
    EXPECT_FALSE(r.value) << bad;
    EXPECT_EQ(r.error.rfind("line 1, column", 0), 0u) << r.error;
  }
}

TEST(Json, RejectsDeepNesting) {
  std::string deep = std::string(1000, '[') + std::string(1000, ']');
  JsonParseResult r = parseJson(deep);
  EXPECT_FALSE(r.value);
  EXPECT_NE(r.error.find("nested deeper than"), std::string::npos);
  std::string fine = std::string(100, '[') + std::string(100, ']');
  EXPECT_TRUE(parseJson(fine).value);
}

TEST(Json, WritesWhatItReadsAndKeepsTheDocumentValid) {
  Json doc = {{"s\n\t\"", "v\\"},
              {"n", uint64_t(1) << 60},
              {"ratio", jsonReal(2.0 / 3.0)},
              {"inf", jsonReal(1.0 / 0.0)},
              {"latin1", "caf\xe9"}};
  std::string text = jsonText(doc);
  EXPECT_NE(text.find("\"ratio\": 0.666667"), std::string::npos) << text;
  EXPECT_NE(text.find("\"inf\": null"), std::string::npos) << text;
  JsonParseResult r = parseJson(text);
  ASSERT_TRUE(r.value) << r.error;
  EXPECT_EQ(jsonString(*r.value, "s\n\t\""), "v\\");
  EXPECT_EQ(jsonUint64((*r.value)["n"]), uint64_t(1) << 60);
  // A byte that is not UTF-8 becomes U+FFFD, not an invalid document.
  EXPECT_EQ(jsonString(*r.value, "latin1"), "caf\xef\xbf\xbd");
  // Members keep the order they were written in.
  EXPECT_LT(text.find("\"n\""), text.find("\"ratio\""));
}

TEST(ReportFile, RoundTripsAMeasurement) {
  ReportLoadResult r =
      loadReportFile(KCHECK_RUNTIME_FIXTURES "/meas_small.json");
  ASSERT_TRUE(r.report) << r.error;
  EXPECT_EQ(r.report->device, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(r.report->launches.size(), 2u);
  EXPECT_EQ(r.report->launches[1].config.grid.x, 1056u);
  EXPECT_EQ(r.report->launches[0].lines.size(), 2u);
  ReportLoadResult again = loadReport(toJson(*r.report));
  ASSERT_TRUE(again.report) << again.error;
  EXPECT_EQ(toJson(*again.report), toJson(*r.report));
  EXPECT_NE(toJson(*r.report).find("\"measured\": true"), std::string::npos);
}

TEST(ReportFile, RejectsWrongShapes) {
  EXPECT_FALSE(loadReport(R"({"schema": "other/1", "launches": []})").report);
  EXPECT_FALSE(loadReport(R"({"schema": "kcheck-prediction/1"})").report);
  ReportLoadResult frac = loadReport(
      R"({"schema": "kcheck-measurement/1", "launches": [{"metrics": {"m": 1.5}}]})");
  EXPECT_FALSE(frac.report);
  EXPECT_NE(frac.error.find("'m'"), std::string::npos);
}

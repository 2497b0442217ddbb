#include "core/JsonReader.h"
#include "core/Json.h"
#include "core/ReportFile.h"

#include <gtest/gtest.h>

using namespace kcheck::core;

TEST(JsonReader, ParsesNestedValues) {
  JsonParseResult r = parseJson(
      R"({"a": [1, -2.5, true, null, "x\"y\u00e9"], "b": {"c": 18446744073709551615}})");
  ASSERT_TRUE(r.value) << r.error;
  const JsonValue *a = r.value->find("a");
  ASSERT_TRUE(a && a->isArray());
  ASSERT_EQ(a->items().size(), 5u);
  EXPECT_EQ(a->items()[0].asUint64(), 1u);
  EXPECT_FALSE(a->items()[1].asUint64());
  EXPECT_DOUBLE_EQ(a->items()[1].asDouble(), -2.5);
  EXPECT_TRUE(a->items()[2].asBool());
  EXPECT_TRUE(a->items()[3].isNull());
  EXPECT_EQ(a->items()[4].text(), "x\"y\xc3\xa9");
  // 64-bit counters survive exactly (a double would round this).
  EXPECT_EQ(r.value->find("b")->find("c")->asUint64(), 18446744073709551615u);
}

TEST(JsonReader, ReportsErrorsWithPosition) {
  for (const char *bad : {"{", "[1,]", "{\"a\" 1}", "01", "\"abc", "[1] x",
                          "{\"a\": tru}", "\"\\q\""}) {
    JsonParseResult r = parseJson(bad);
    EXPECT_FALSE(r.value) << bad;
    EXPECT_NE(r.error.find("line 1, column"), std::string::npos) << r.error;
  }
}

TEST(JsonReader, RejectsDeepNesting) {
  std::string deep(1000, '[');
  EXPECT_FALSE(parseJson(deep).value);
}

TEST(JsonReader, ReadsWhatTheWriterWrites) {
  JsonWriter w;
  w.beginObject();
  w.key("s\n\t\"");
  w.value("v\\");
  w.key("n");
  w.value(uint64_t(1) << 60);
  w.endObject();
  JsonParseResult r = parseJson(w.str());
  ASSERT_TRUE(r.value) << r.error;
  EXPECT_EQ(r.value->find("s\n\t\"")->text(), "v\\");
  EXPECT_EQ(r.value->find("n")->asUint64(), uint64_t(1) << 60);
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

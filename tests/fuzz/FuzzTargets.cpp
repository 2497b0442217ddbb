#include "FuzzTargets.h"

#include "KernelGenerator.h"
#include "PipelineOracle.h"

#include "core/Compare.h"
#include "core/Json.h"
#include "core/ReportFile.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace kcheck::fuzz {

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "kcheck fuzz oracle failed:\n%s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Larger inputs only make each execution slower (Clang parses them whole).
constexpr size_t kMaxSourceBytes = 64 << 10;

} // namespace

int fuzzPipeline(const uint8_t *data, size_t size) {
  ChoiceStream choices({data, size});
  GeneratedProgram program = generateProgram(choices, GeneratorOptions{});
  if (std::string failure = checkGeneratedProgram(program); !failure.empty())
    fail(failure);
  return 0;
}

int fuzzPipelineMutated(const uint8_t *data, size_t size) {
  if (size > kMaxSourceBytes)
    return 0;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  if (std::string failure = checkArbitrarySource(text); !failure.empty())
    fail(failure);
  return 0;
}

int fuzzJson(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  core::JsonParseResult parsed = core::parseJson(text);
  if (!parsed.value && parsed.error.empty())
    fail("parseJson failed without an error message");
  core::ReportLoadResult loaded = core::loadReport(text);
  if (!loaded.report) {
    if (loaded.error.empty())
      fail("loadReport failed without an error message");
    return 0;
  }
  // What kcheck writes, it reads back to the same report.
  std::string written = core::toJson(*loaded.report);
  core::ReportLoadResult again = core::loadReport(written);
  if (!again.report)
    fail("a report kcheck wrote does not load: " + again.error + "\n" +
         written);
  if (core::toJson(*again.report) != written)
    fail("writing a report read back from kcheck's JSON changes it:\n" +
         written);
  std::vector<core::ProgramComparison> programs = {
      core::compareReports(*loaded.report, *again.report)};
  core::summarize(programs);
  (void)core::comparisonText(programs, true);
  (void)core::comparisonJson(programs);
  (void)core::comparisonMarkdown(programs, "fuzz");
  return 0;
}

} // namespace kcheck::fuzz

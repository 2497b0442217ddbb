// `kcheck compare PRED.json MEAS.json [PRED2.json MEAS2.json ...]`: the
// comparison alone, so prediction (no GPU) and measurement (the GPU machine)
// can run on different machines. Exit 0 when every launch and line agrees,
// 1 when any differs, 3 when an input cannot be read.
#include "cli/Commands.h"

#include "core/Compare.h"

namespace kcheck::cli {

int runCompare(const Options &o, std::ostream &out, std::ostream &err) {
  std::vector<core::ProgramComparison> programs;
  for (size_t i = 0; i + 1 < o.compareFiles.size(); i += 2) {
    core::ReportLoadResult p = core::loadReportFile(o.compareFiles[i]);
    core::ReportLoadResult m = core::loadReportFile(o.compareFiles[i + 1]);
    for (const core::ReportLoadResult *r : {&p, &m})
      if (!r->report) {
        err << "kcheck: error: " << r->error << '\n';
        return kExitCannotAnalyse;
      }
    for (const std::string &e : m.report->errors)
      err << "kcheck: note: " << o.compareFiles[i + 1] << ": " << e << '\n';
    core::ProgramComparison c = core::compareReports(*p.report, *m.report);
    c.predictedPath = o.compareFiles[i];
    c.measuredPath = o.compareFiles[i + 1];
    programs.push_back(std::move(c));
  }
  switch (o.format) {
  case OutputFormat::Json:
    out << core::comparisonJson(programs);
    break;
  case OutputFormat::Markdown: {
    std::string command = "kcheck compare --format markdown";
    for (const std::string &f : o.compareFiles)
      command += " " + f;
    out << core::comparisonMarkdown(programs, command);
    break;
  }
  case OutputFormat::Text:
  case OutputFormat::Sarif: // parseOptions refuses these two here
  case OutputFormat::Html:
    out << core::comparisonText(programs, /*allLines=*/false);
    break;
  }
  return core::summarize(programs).allAgree() ? kExitClean : kExitFindings;
}

} // namespace kcheck::cli

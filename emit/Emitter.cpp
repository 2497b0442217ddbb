#include "emit/Emitter.h"

#include "core/Json.h"
#include "driver/LaunchFaults.h"
#include "driver/Suppressions.h"
#include "emit/HtmlEmitter.h"
#include "emit/JsonEmitter.h"
#include "emit/SarifEmitter.h"
#include "emit/TextEmitter.h"

#include <fmt/format.h>

#include <unistd.h>

namespace kcheck::emit {

namespace {

using driver::Command;

/// predict: each launch's counters.
std::string predictText(const driver::Session &s) {
  std::string out;
  for (const core::LaunchReport &l : s.report.launches) {
    out += fmt::format("launch #{} {}{}\n", l.index, driver::describeLaunch(l),
                       l.simulated ? "" : ": not simulated");
    if (l.simulated)
      out += countersText(l);
  }
  return out;
}

/// Under each launch, the rows of the checks that ran (run: its counters).
std::string summaryText(const Document &doc) {
  const driver::Session &s = doc.session;
  std::string out;
  for (size_t li = 0; li < s.report.launches.size(); ++li) {
    const core::LaunchReport &l = s.report.launches[li];
    out += "launch " + driver::describeLaunchCall(s, li);
    // A launch that faulted under a sanitizer has that check's row.
    if (!l.simulated && !driver::faultReportedBy(s.launches[li].result)) {
      out += ": not simulated\n";
      continue;
    }
    out += "\n";
    if (doc.options.command == Command::Run)
      out += l.simulated ? countersText(l) : "";
    else
      out += checks::summaryRows(doc.checks, s, li);
  }
  return out;
}

class TextReport final : public Emitter {
public:
  void emit(const Document &doc, std::ostream &out) const override {
    if (doc.options.command == Command::Predict) {
      // Its findings (the program's memory errors) go to stderr.
      out << predictText(doc.session);
      return;
    }
    driver::FixSearch none;
    emitTextWithFixIts(out, doc.findings, doc.session, doc.source,
                       doc.fixes ? *doc.fixes : none, isatty(STDOUT_FILENO),
                       doc.options.parseableFixIts ? FixItStyle::Parseable
                                                   : FixItStyle::UnderCaret);
    if (doc.suppressed)
      out << driver::suppressedSummary(doc.suppressed) << '\n';
    out << summaryText(doc);
  }
  bool isDocument() const override { return false; }
};

class JsonReport final : public Emitter {
public:
  void emit(const Document &doc, std::ostream &out) const override {
    core::Json report = core::reportJson(doc.session.report);
    report["findings"] = findingsJson(doc.findings);
    if (doc.fixes)
      addFixesJson(report, doc.options, doc.session, doc.source, *doc.fixes);
    out << core::jsonText(report) << '\n';
  }
  bool isDocument() const override { return true; }
};

class SarifReport final : public Emitter {
public:
  void emit(const Document &doc, std::ostream &out) const override {
    out << sarifLog(doc.session, doc.findings);
  }
  bool isDocument() const override { return true; }
};

class HtmlReport final : public Emitter {
public:
  void emit(const Document &doc, std::ostream &out) const override {
    out << htmlReport(doc.session, doc.findings, doc.source);
  }
  bool isDocument() const override { return true; }
};

} // namespace

std::unique_ptr<Emitter> emitterFor(driver::OutputFormat format) {
  switch (format) {
  case driver::OutputFormat::Text:
  case driver::OutputFormat::Markdown: // not a report format: as text
    return std::make_unique<TextReport>();
  case driver::OutputFormat::Json:
    return std::make_unique<JsonReport>();
  case driver::OutputFormat::Sarif:
    return std::make_unique<SarifReport>();
  case driver::OutputFormat::Html:
    return std::make_unique<HtmlReport>();
  }
  return std::make_unique<TextReport>();
}

std::string countersText(const core::LaunchReport &l) {
  std::string out;
  for (unsigned m = 0; m < core::kMetricCount; ++m)
    if (l.predicts(core::Metric(m)))
      out += fmt::format("  {:<66} {:>14}\n", core::metricName(core::Metric(m)),
                         l.metrics.v[m]);
  return out;
}

} // namespace kcheck::emit

#include "emit/JsonEmitter.h"

#include "core/Json.h"

#include <fmt/format.h>

namespace kcheck::emit {

namespace {

// "file", "line", "column" of a finding or note, then its `rest`.
Json locatedJson(const core::SourceLoc &loc) {
  return {{"file", loc.file}, {"line", loc.line}, {"column", loc.col}};
}

const char *spaceName(core::Subject::Space s) {
  switch (s) {
  case core::Subject::Space::None:
    return "";
  case core::Subject::Space::Shared:
    return "shared";
  case core::Subject::Space::Global:
    return "global";
  case core::Subject::Space::Local:
    return "local";
  }
  return "";
}

const char *directionName(core::Subject::Direction d) {
  switch (d) {
  case core::Subject::Direction::None:
    return "";
  case core::Subject::Direction::Load:
    return "load";
  case core::Subject::Direction::Store:
    return "store";
  case core::Subject::Direction::Atomic:
    return "atomic";
  }
  return "";
}

/// What the finding is about, as data: {"array", "space", "direction"},
/// each only when known.
Json subjectJson(const core::Subject &s) {
  Json out = Json::object();
  if (!s.array.empty())
    out["array"] = s.array;
  if (s.space != core::Subject::Space::None)
    out["space"] = spaceName(s.space);
  if (s.direction != core::Subject::Direction::None)
    out["direction"] = directionName(s.direction);
  return out;
}

} // namespace

Json findingsJson(const std::vector<core::Diagnostic> &diags) {
  Json out = Json::array();
  for (const core::Diagnostic &d : diags) {
    Json f = {{"check", d.checkId},
              {"severity", core::severityName(d.severity)}};
    f.update(locatedJson(d.loc));
    f["message"] = d.message;
    if (!(d.subject == core::Subject{}))
      f["subject"] = subjectJson(d.subject);
    Json notes = Json::array();
    for (const core::Diagnostic &n : d.notes) {
      Json note = locatedJson(n.loc);
      note["message"] = n.message;
      notes.push_back(std::move(note));
    }
    f["notes"] = std::move(notes);
    out.push_back(std::move(f));
  }
  return out;
}

namespace {

unsigned numberOf(const Json &object, std::string_view key) {
  const Json *v = core::jsonMember(object, key);
  return v ? unsigned(core::jsonUint64(*v).value_or(0)) : 0;
}

core::SourceLoc locationOf(const Json &object) {
  return {core::jsonString(object, "file"), numberOf(object, "line"),
          numberOf(object, "column")};
}

core::Severity severityOf(const std::string &name) {
  for (core::Severity s : {core::Severity::Note, core::Severity::Remark,
                           core::Severity::Warning, core::Severity::Error})
    if (core::severityName(s) == name)
      return s;
  return core::Severity::Note;
}

core::Subject subjectOf(const Json &finding) {
  core::Subject s;
  const Json *v = core::jsonMember(finding, "subject");
  if (!v || !v->is_object())
    return s;
  s.array = core::jsonString(*v, "array");
  for (auto space : {core::Subject::Space::Shared, core::Subject::Space::Global,
                     core::Subject::Space::Local})
    if (core::jsonString(*v, "space") == spaceName(space))
      s.space = space;
  for (auto d :
       {core::Subject::Direction::Load, core::Subject::Direction::Store,
        core::Subject::Direction::Atomic})
    if (core::jsonString(*v, "direction") == directionName(d))
      s.direction = d;
  return s;
}

} // namespace

std::vector<core::Diagnostic> readFindingsJson(const Json &report) {
  std::vector<core::Diagnostic> out;
  const Json *findings = core::jsonMember(report, "findings");
  if (!findings || !findings->is_array())
    return out;
  for (const Json &f : *findings) {
    core::Diagnostic d;
    d.checkId = core::jsonString(f, "check");
    d.severity = severityOf(core::jsonString(f, "severity"));
    d.loc = locationOf(f);
    d.message = core::jsonString(f, "message");
    d.subject = subjectOf(f);
    if (const Json *notes = core::jsonMember(f, "notes");
        notes && notes->is_array())
      for (const Json &n : *notes) {
        core::Diagnostic note;
        note.severity = core::Severity::Note;
        note.loc = locationOf(n);
        note.message = core::jsonString(n, "message");
        d.notes.push_back(std::move(note));
      }
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

Json figuresJson(const driver::FixFigures &f) {
  return {{"line_cost", f.lineCost},
          {"line_requests", f.lineRequests},
          {"kernel_shared_wavefronts", f.sharedWavefronts},
          {"kernel_global_sectors", f.globalSectors},
          {"launches", uint64_t(f.launches)}};
}

Json editsJson(const std::string &source,
               const std::vector<analyzer::TextEdit> &edits) {
  Json out = Json::array();
  for (const analyzer::TextEdit &e : edits) {
    driver::EditRange r = driver::editRange(source, e);
    out.push_back({{"offset", e.offset},
                   {"length", e.length},
                   {"begin", fmt::format("{}:{}", r.beginLine, r.beginCol)},
                   {"end", fmt::format("{}:{}", r.endLine, r.endCol)},
                   {"replacement", e.replacement}});
  }
  return out;
}

} // namespace

void addFixesJson(Json &report, const driver::Options &o,
                  const driver::Session &s, const std::string &source,
                  const driver::FixSearch &search) {
  Json fixes = Json::array();
  for (const driver::OfferedFix &f : search.fixes) {
    const analyzer::FixCandidate &c = s.fixCandidates[f.candidate];
    fixes.push_back({{"file", o.file},
                     {"line", f.line},
                     {"check", c.checkId},
                     {"kernel", c.kernel},
                     {"recipe", c.recipe},
                     {"title", c.title},
                     {"line_cost_unit", driver::lineCostUnit(c.checkId)},
                     {"before", figuresJson(f.before)},
                     {"after", figuresJson(f.after)},
                     {"edits", editsJson(source, c.edits)}});
  }
  report["fixes"] = std::move(fixes);
  report["fix_search"] = {{"resimulations", search.resimulations},
                          {"seconds", core::jsonReal(search.seconds)}};
  if (o.printDiff)
    report["diff"] = driver::fixesDiff(o, s, source, search);
}

} // namespace kcheck::emit

#include "emit/JsonEmitter.h"

#include "core/Json.h"
#include "core/JsonReader.h"

#include <fmt/format.h>

namespace kcheck::emit {

namespace {

void writeLocation(core::JsonWriter &w, const core::SourceLoc &loc) {
  w.key("file");
  w.value(loc.file);
  w.key("line");
  w.value(loc.line);
  w.key("column");
  w.value(loc.col);
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

/// What the finding is about, as data: "subject": {"array", "space",
/// "direction"}, each only when known.
void writeSubject(core::JsonWriter &w, const core::Subject &s) {
  if (s == core::Subject{})
    return;
  w.key("subject");
  w.beginObject();
  if (!s.array.empty()) {
    w.key("array");
    w.value(s.array);
  }
  if (s.space != core::Subject::Space::None) {
    w.key("space");
    w.value(spaceName(s.space));
  }
  if (s.direction != core::Subject::Direction::None) {
    w.key("direction");
    w.value(directionName(s.direction));
  }
  w.endObject();
}

} // namespace

void writeFindingsJson(core::JsonWriter &w,
                       const std::vector<core::Diagnostic> &diags) {
  w.key("findings");
  w.beginArray();
  for (const core::Diagnostic &d : diags) {
    w.beginObject();
    w.key("check");
    w.value(d.checkId);
    w.key("severity");
    w.value(core::severityName(d.severity));
    writeLocation(w, d.loc);
    w.key("message");
    w.value(d.message);
    writeSubject(w, d.subject);
    w.key("notes");
    w.beginArray();
    for (const core::Diagnostic &n : d.notes) {
      w.beginObject();
      writeLocation(w, n.loc);
      w.key("message");
      w.value(n.message);
      w.endObject();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
}

namespace {

std::string textOf(const core::JsonValue &object, std::string_view key) {
  const core::JsonValue *v = object.find(key);
  return v && v->isString() ? v->text() : "";
}

unsigned numberOf(const core::JsonValue &object, std::string_view key) {
  const core::JsonValue *v = object.find(key);
  return v ? unsigned(v->asUint64().value_or(0)) : 0;
}

core::SourceLoc locationOf(const core::JsonValue &object) {
  return {textOf(object, "file"), numberOf(object, "line"),
          numberOf(object, "column")};
}

core::Severity severityOf(const std::string &name) {
  for (core::Severity s : {core::Severity::Note, core::Severity::Remark,
                           core::Severity::Warning, core::Severity::Error})
    if (core::severityName(s) == name)
      return s;
  return core::Severity::Note;
}

core::Subject subjectOf(const core::JsonValue &finding) {
  core::Subject s;
  const core::JsonValue *v = finding.find("subject");
  if (!v || !v->isObject())
    return s;
  s.array = textOf(*v, "array");
  for (auto space : {core::Subject::Space::Shared, core::Subject::Space::Global,
                     core::Subject::Space::Local})
    if (textOf(*v, "space") == spaceName(space))
      s.space = space;
  for (auto d :
       {core::Subject::Direction::Load, core::Subject::Direction::Store,
        core::Subject::Direction::Atomic})
    if (textOf(*v, "direction") == directionName(d))
      s.direction = d;
  return s;
}

} // namespace

std::vector<core::Diagnostic> readFindingsJson(const core::JsonValue &report) {
  std::vector<core::Diagnostic> out;
  const core::JsonValue *findings = report.find("findings");
  if (!findings || !findings->isArray())
    return out;
  for (const core::JsonValue &f : findings->items()) {
    core::Diagnostic d;
    d.checkId = textOf(f, "check");
    d.severity = severityOf(textOf(f, "severity"));
    d.loc = locationOf(f);
    d.message = textOf(f, "message");
    d.subject = subjectOf(f);
    if (const core::JsonValue *notes = f.find("notes");
        notes && notes->isArray())
      for (const core::JsonValue &n : notes->items()) {
        core::Diagnostic note;
        note.severity = core::Severity::Note;
        note.loc = locationOf(n);
        note.message = textOf(n, "message");
        d.notes.push_back(std::move(note));
      }
    out.push_back(std::move(d));
  }
  return out;
}

void writeFixesJson(core::JsonWriter &w, const driver::Options &o,
                    const driver::Session &s, const std::string &source,
                    const driver::FixSearch &search) {
  w.key("fixes");
  w.beginArray();
  auto figures = [&w](const driver::FixFigures &f) {
    w.beginObject();
    w.key("line_cost");
    w.value(f.lineCost);
    w.key("line_requests");
    w.value(f.lineRequests);
    w.key("kernel_shared_wavefronts");
    w.value(f.sharedWavefronts);
    w.key("kernel_global_sectors");
    w.value(f.globalSectors);
    w.key("launches");
    w.value(uint64_t(f.launches));
    w.endObject();
  };
  for (const driver::OfferedFix &f : search.fixes) {
    const analyzer::FixCandidate &c = s.fixCandidates[f.candidate];
    w.beginObject();
    w.key("file");
    w.value(o.file);
    w.key("line");
    w.value(f.line);
    w.key("check");
    w.value(c.checkId);
    w.key("kernel");
    w.value(c.kernel);
    w.key("recipe");
    w.value(c.recipe);
    w.key("title");
    w.value(c.title);
    w.key("line_cost_unit");
    w.value(driver::lineCostUnit(c.checkId));
    w.key("before");
    figures(f.before);
    w.key("after");
    figures(f.after);
    w.key("edits");
    w.beginArray();
    for (const analyzer::TextEdit &e : c.edits) {
      driver::EditRange r = driver::editRange(source, e);
      w.beginObject();
      w.key("offset");
      w.value(e.offset);
      w.key("length");
      w.value(e.length);
      w.key("begin");
      w.value(fmt::format("{}:{}", r.beginLine, r.beginCol));
      w.key("end");
      w.value(fmt::format("{}:{}", r.endLine, r.endCol));
      w.key("replacement");
      w.value(e.replacement);
      w.endObject();
    }
    w.endArray();
    w.endObject();
  }
  w.endArray();
  w.key("fix_search");
  w.beginObject();
  w.key("resimulations");
  w.value(search.resimulations);
  w.key("seconds");
  w.value(search.seconds);
  w.endObject();
  if (o.printDiff) {
    w.key("diff");
    w.value(driver::fixesDiff(o, s, source, search));
  }
}

} // namespace kcheck::emit

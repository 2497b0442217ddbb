#include "cli/JsonEmitter.h"

#include "core/Json.h"

namespace kcheck::cli {

namespace {

void writeLocation(core::JsonWriter &w, const core::SourceLoc &loc) {
  w.key("file");
  w.value(loc.file);
  w.key("line");
  w.value(loc.line);
  w.key("column");
  w.value(loc.col);
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

} // namespace kcheck::cli

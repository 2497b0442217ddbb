// The emitters, behind one interface: each writes one command's result (the
// Document) in its format. The commands choose one by --format and hand it
// the Document; no emitter re-derives what it prints from text.
#pragma once

#include "checks/Registry.h"
#include "core/Diagnostic.h"
#include "driver/Fixes.h"
#include "driver/Options.h"
#include "driver/Session.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace kcheck::emit {

/// One command's result, as every emitter is given it.
struct Document {
  const driver::Options &options;
  const driver::Session &session;
  const std::vector<core::Diagnostic> &findings;
  const std::string &source;                        // the main file's text
  const std::vector<const checks::Check *> &checks; // the checks that ran
  const driver::FixSearch *fixes = nullptr; // verified fixes, when searched
  size_t suppressed = 0; // findings a // kcheck-ignore comment suppressed
};

class Emitter {
public:
  virtual ~Emitter() = default;
  /// Writes `doc` on `out`.
  virtual void emit(const Document &doc, std::ostream &out) const = 0;
  /// Whether the output is one document (JSON, SARIF, HTML) that stdout
  /// must hold alone: notes and the program's own output go to stderr.
  virtual bool isDocument() const = 0;
};

/// The emitter of a report format (text, json, sarif, html); Markdown is
/// compare's and validate's own.
std::unique_ptr<Emitter> emitterFor(driver::OutputFormat format);

/// Every counter predicted for launch `l`, a line each (predict, run).
std::string countersText(const core::LaunchReport &l);

} // namespace kcheck::emit

// The check registry: every check kcheck runs, by stable id, in one table
// (checks/Registry.cpp). It drives which checks a command runs, the shadow
// state the engine keeps for them, --checks, `list-checks`, `explain`, the
// SARIF rules, the HTML report and the tests that assert every check has a
// page and a kernel. Adding a check: scripts/new-check.sh.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Options.h"
#include "driver/Session.h"
#include "simulator/engine/SanitizerOptions.h"

#include <string>
#include <string_view>
#include <vector>

namespace kcheck::checks {

struct Check {
  std::string_view id;     // as in `[bank-conflict]`, and docs/checks/ID.md
  core::Severity severity; // of its findings
  // The commands that run it besides `check` (every row) and `sanitize`
  // (every compute-sanitizer row).
  std::vector<driver::Command> commands;
  // compute-sanitizer's tools: shadow state in the engine, left out of
  // `check` by --no-sanitizers.
  bool sanitizer = false;
  // The engine's shadow state it needs (null: the plain simulation).
  bool sim::SanitizerOptions::*shadow = nullptr;
  // Its findings in a session; `remarks`: also why other places are not.
  std::vector<core::Diagnostic> (*run)(const driver::Session &, bool remarks);
  // The rows it adds under each launch of the text summary (null: none).
  std::string (*summaryRows)(const driver::Session &, size_t launch) = nullptr;
  // A program under kernels/ whose expected diagnostics include its
  // findings (the registry test runs it).
  std::string_view kernel = {};
  // The id its findings carry when another check's (synccheck reports
  // [barrier-divergence]); empty: `id`.
  std::string_view reportsAs = {};

  std::string_view findingId() const {
    return reportsAs.empty() ? id : reportsAs;
  }
};

/// Every check, in the order of `list-checks`.
const std::vector<Check> &registry();
/// The ids of registry(), in its order.
std::vector<std::string> checkIds();

/// The checks `options.command` runs (`check`: all, less the sanitizers with
/// --no-sanitizers), less those --checks disabled.
std::vector<const Check *> checksRunBy(const driver::Options &options);
/// The engine's shadow state for those checks.
sim::SanitizerOptions shadowFor(const std::vector<const Check *> &checks);
/// The ids their findings carry (for unused-suppression notes).
std::vector<std::string> findingIds(const std::vector<const Check *> &checks);

/// Their findings in `session`, with the global overruns every command
/// reports, in source order (a stable sort keeps a line's shared findings
/// before its global ones).
std::vector<core::Diagnostic>
findingsOf(const std::vector<const Check *> &checks,
           const driver::Session &session, bool remarks);

/// Their rows under launch `launch` of the text summary.
std::string summaryRows(const std::vector<const Check *> &checks,
                        const driver::Session &session, size_t launch);

/// A check's documentation (docs/checks/ID.md, embedded at build time).
struct CheckPage {
  std::string id;
  std::string summary; // the page title after "ID: "
  std::string text;    // the whole page (Markdown)
};
const std::vector<CheckPage> &checkPages();

/// --checks=LIST, clang-tidy style: comma-separated globs over `ids` (`*`
/// matches any run of characters), `-GLOB` removing what it matches,
/// applied in order to the set of every check; a list that starts with a
/// positive glob starts from no check (`--checks=bank-conflict`: only it,
/// as `-*,bank-conflict`). Returns the ids the list disables; a glob that
/// matches no id, or an empty glob, is an error (`error` set).
std::vector<std::string> disabledChecks(const std::string &list,
                                        const std::vector<std::string> &ids,
                                        std::string &error);

} // namespace kcheck::checks

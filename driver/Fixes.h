// Fix suggestions proven by re-simulation (`kcheck check`, -fix, --diff).
//
// The recipes (analyzer/fixes/) propose rewrites from the AST; none is
// offered on its word. For each [bank-conflict] or [uncoalesced-access]
// warning, the candidates aimed at its line and kernel are applied to the
// file's text in memory and the file is analysed again (same options, only
// that kernel's launches). A candidate is offered when the edited file
// compiles and simulates, the finding's line costs strictly less (shared
// wavefronts for a bank conflict, global sectors for an uncoalesced access,
// summed over the kernel's launches), and the kernel's shared wavefronts
// plus global sectors over all its lines do not grow (so a fix that moves
// the cost elsewhere is refused). Of those, the cheapest line wins, then the
// cheapest kernel, then the smallest edit.
//
// Assumptions and limits: the verdict is the simulator's, for the launches
// kcheck sees (static extraction, or the command line's sizes); the recipes,
// not the simulation, answer for the rewrite keeping the program's meaning
// (each states its assumptions); at most kMaxCandidatesPerFinding
// candidates per finding and kMaxResimulations in all are tried.
#pragma once

#include "core/Diagnostic.h"
#include "core/Json.h"
#include "driver/Options.h"
#include "driver/Session.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace kcheck::driver {

inline constexpr unsigned kMaxCandidatesPerFinding = 6;
inline constexpr unsigned kMaxResimulations = 32;

/// What a finding costs, over the launches of one kernel.
struct FixFigures {
  size_t launches = 0;
  // On the finding's line: shared wavefronts (bank-conflict) or global
  // sectors (uncoalesced-access), and the requests that cost them.
  uint64_t lineCost = 0, lineRequests = 0;
  // The kernel's whole cost, every line.
  uint64_t sharedWavefronts = 0, globalSectors = 0;
};

struct OfferedFix {
  size_t diagnostic = 0; // index into the diagnostics searchFixes was given
  size_t candidate = 0;  // index into Session::fixCandidates
  unsigned line = 0;     // the finding's line
  FixFigures before, after;
};

struct FixSearch {
  std::vector<OfferedFix> fixes; // in diagnostic order
  unsigned resimulations = 0;
  double seconds = 0;
};

/// Whether `o` asks for a fix search: the check commands (not --verify,
/// not --run-host, not --no-fixes), or -fix / --diff.
bool searchesFixes(const Options &o);

/// Verifies the session's candidates against the warnings of `diags` and
/// adds a "fix: ..." note to each warning that has one.
FixSearch searchFixes(const Options &o, const Session &s,
                      const std::string &source,
                      std::vector<core::Diagnostic> &diags);

/// Where an edit lies in `source`: 1-based line and column of its first
/// byte and of the byte after it, as Clang's fix-its name them.
struct EditRange {
  unsigned beginLine = 0, beginCol = 0, endLine = 0, endCol = 0;
};
EditRange editRange(const std::string &source, const analyzer::TextEdit &edit);

/// What a fix's line cost counts: "shared wavefronts" or "global sectors".
const char *lineCostUnit(const std::string &checkId);

/// The unified diff of applying every offered fix (each once, as -fix).
std::string fixesDiff(const Options &o, const Session &s,
                      const std::string &source, const FixSearch &search);

/// -fix: writes the offered fixes (each once; one overlapping an earlier one
/// is skipped) to the file, naming each on `err`; --diff (text output):
/// prints the unified diff on `out`. False when the file cannot be written.
bool applyFixes(const Options &o, const Session &s, const std::string &source,
                const FixSearch &search, std::ostream &out, std::ostream &err);

} // namespace kcheck::driver

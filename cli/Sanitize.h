// `kcheck memcheck | initcheck | racecheck | synccheck | sanitize FILE.cu`:
// compute-sanitizer's tools without a GPU, over the simulated launches
// (static extraction, or the program's own host run with --run-host). The
// shadow state exists only for these commands (Predictor::setSanitizer), so
// the other commands pay nothing for it. synccheck is the barrier-divergence
// check under compute-sanitizer's name (docs/checks/synccheck.md).
#pragma once

#include "cli/Options.h"
#include "cli/Session.h"
#include "core/Diagnostic.h"
#include "simulator/engine/Sanitizer.h"

#include <ostream>
#include <string>
#include <vector>

namespace kcheck::cli {

bool isSanitizerCommand(Command command);
/// The shadow-state checks `options.command` runs (none for the others).
sim::SanitizerOptions sanitizerOptionsFor(const Options &options);
/// The ids of the findings a sanitizer command reports.
std::vector<std::string> sanitizerCheckIds(Command command);

/// The findings of the launches' sanitizer reports ([memcheck], [initcheck],
/// [racecheck]), one per instruction (pair), with a note per launch.
std::vector<core::Diagnostic> sanitizerDiagnostics(const Session &session);

/// The global overruns the launches counted and went on after
/// (sim::GlobalOverrun::CountAndGoOn), as [memcheck] errors: one per
/// instruction, with a note per launch. Every command reports them: the
/// program has the bug whichever question was asked.
std::vector<core::Diagnostic> overrunDiagnostics(const Session &session);

/// The check whose finding is the fault launch `launch` stopped on (memcheck,
/// or synccheck's barrier-divergence), so that the fault is a finding, not an
/// analysis error; nullptr when there is none.
const char *faultReportedBy(const sim::LaunchResult &launch);

/// "the kernel faulted (see the memcheck error): ..." for such a launch.
std::string faultedLaunchNote(const sim::LaunchResult &launch);

int runSanitize(const Options &options, std::ostream &out, std::ostream &err);

} // namespace kcheck::cli

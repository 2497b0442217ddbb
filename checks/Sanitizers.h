// compute-sanitizer's tools without a GPU (memcheck, initcheck, racecheck,
// synccheck), over the simulated launches' shadow state
// (Predictor::setSanitizer; the registry enables it for the checks a
// command runs, so a command without them pays nothing). synccheck's
// findings carry the id barrier-divergence (docs/checks/synccheck.md).
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"
#include "simulator/engine/Sanitizer.h"

#include <string>
#include <vector>

namespace kcheck::checks {

/// The findings of `check` in the launches' sanitizer reports, one per
/// instruction (pair), with a note per launch.
std::vector<core::Diagnostic>
sanitizerDiagnostics(const driver::Session &session,
                     sim::SanitizerFinding::Check check);

/// The global overruns the launches counted and went on after
/// (sim::GlobalOverrun::CountAndGoOn), as [memcheck] errors: one per
/// instruction, with a note per launch. Every command reports them: the
/// program has the bug whichever question was asked.
std::vector<core::Diagnostic>
overrunDiagnostics(const driver::Session &session);

/// "  sanitizers : 1 memcheck finding; the kernel faulted and stopped": what
/// the sanitizers found in launch `launch` (with `barrierDivergence`, also
/// the barriers reached by part of a block).
std::string sanitizerSummaryRow(const driver::Session &session, size_t launch,
                                bool barrierDivergence);

} // namespace kcheck::checks

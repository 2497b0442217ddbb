// One analysis of one .cu file: compile it (device side + host launch
// extraction, one parse), choose the launches, simulate each, and keep what
// the emitters need. The commands (bank-conflicts, predict) are views of it.
#pragma once

#include "analyzer/facts/AstFacts.h"
#include "analyzer/facts/BranchUniformity.h"
#include "analyzer/fixes/FixCandidates.h"
#include "analyzer/toolchain/CudaToolkit.h"
#include "core/ArchSpec.h"
#include "core/Report.h"
#include "driver/Options.h"
#include "simulator/Predictor.h"

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kcheck::driver {

struct SimulatedLaunch {
  std::shared_ptr<const sim::DecodedKernel> kernel; // null when not simulated
  sim::LaunchResult result;
  core::SourceLoc launchLoc;
  std::vector<std::string> argumentTexts; // as written at the launch
  // The kernel's conditional branches, statically (null when not simulated).
  std::shared_ptr<const std::vector<analyzer::StaticBranch>> branches;
};

struct Session {
  bool compiled = false;
  // Host code certainly stops before its first launch (HostProgram::
  // stoppedBy): no launch is then what there is to predict, not an error.
  bool makesNoLaunch = false;
  std::string clangDiagnostics;    // Clang's own text, for exit 3
  std::vector<std::string> errors; // could not analyse (exit 3)
  core::PredictionReport report;
  std::vector<SimulatedLaunch> launches; // parallel to report.launches
  std::vector<analyzer::SubscriptFact> subscripts;
  // Rewrites the recipes propose for the kernels of the main file, not yet
  // verified (driver/Fixes re-simulates them).
  std::vector<analyzer::FixCandidate> fixCandidates;
  std::string mainFile;
  core::ArchSpec arch; // with the --bank-mode/--l1-cache options applied
  // What the launches point into when they come from running the host code
  // (--run-host): the device module of that run.
  std::shared_ptr<void> keepAlive;
};

/// The CUDA headers both compiles use: the toolkit named or found (in
/// `toolkit`), else the bundled ones; `headers` says which and why. False,
/// with an error, when --cuda-path names no toolkit.
bool chooseCudaHeaders(const Options &options, const core::ArchSpec &arch,
                       std::optional<analyzer::CudaToolkit> &toolkit,
                       core::CudaHeaders &headers,
                       std::vector<std::string> &errors);

/// `mainFileText`, when given, is analysed in place of the file's contents
/// (a fix being re-simulated).
Session analyzeFile(const Options &options,
                    const std::optional<std::string> &mainFileText = {});

/// Runs the program's host code (as `kcheck run` does) and makes its
/// launches a Session, for the same checks and emitters (driver/HostRun.cpp);
/// the program's output goes to `err`, the report's stream stays clean.
Session sessionFromHostRun(const Options &options, std::ostream &err);

/// "index expressions 'sdata[index + s]', 'sdata[index]'" for a finding's
/// notes.
std::string indexExpressionsText(const std::vector<std::string> &expressions);

/// "reduce_v1<<<131072, 256>>>"
std::string describeLaunch(const core::LaunchReport &launch);
/// "#1 OffsetCopy<<<4096, 256>>>(d_out, d_in, 1)": the launch as the program
/// writes it, to tell apart launches of one kernel.
std::string describeLaunchCall(const Session &session, size_t launch);

} // namespace kcheck::driver

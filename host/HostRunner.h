// Runs a CUDA program's own host code against a simulated GPU: compiles the
// device side (analyzer/DeviceCompiler) and the host side (HostCompiler) of
// one .cu, executes the host side in-process with LLVM's ORC JIT (LLJIT)
// linked against the C and C++ runtime libraries of this process and
// kcheck's CUDA runtime (CudaRuntime), and simulates every launch it makes
// with its real grid, block, dynamic shared size and argument bytes, every
// block of it (simulator/AllBlocks), so kernels compute their results and the
// program's own checks see them.
//
// Running host code executes arbitrary code: callers make it an explicit
// choice. What cannot end normally ends kcheck, with a message on stderr and
// exit status 3: host code over its time budget, a crash (a signal) in host
// code. What host code stops itself (exit, abort, an unsupported call, a
// failed launch) ends only the run, which keeps the launches made so far.
#pragma once

#include "analyzer/toolchain/CudaToolkit.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "host/CudaRuntime.h"
#include "simulator/LaunchRunner.h"
#include "simulator/Predictor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kcheck::host {

struct RunOptions {
  std::string file;
  std::vector<std::string> programArgs; // argv[1..]
  std::vector<std::string> clangArgs;   // -D, -I ... for both compiles
  // The CUDA toolkit both compiles use (its headers and libdevice); nullopt:
  // the bundled headers.
  std::optional<analyzer::CudaToolkit> toolkit;
  core::ArchSpec arch; // models' options applied
  /// Seconds host code may run, not counting the simulation of its launches.
  double hostBudgetSeconds = 120;
  // Per block and per launch (driver::launchLimits), and launches per run.
  sim::Limits limits = {1'000'000'000, 20'000'000};
  uint64_t maxLaunches = ~0ull;
  unsigned jobs = 1; // threads simulating a launch's blocks
  // Blocks proven idle are counted as a representative, not run
  // (simulator/IdleBlocks.h); off with --exhaustive.
  bool skipIdleBlocks = true;
  // Sanitizer checks on every launch (kcheck memcheck --run-host).
  sim::SanitizerOptions sanitizer;
  // A small overrun of a global allocation stops the kernel (memcheck).
  bool stopAtGlobalOverrun = false;
  /// Where the kernels' device printf goes (null: dropped); give the stream
  /// host code's stdout feeds (std::cout) to keep the two in order.
  std::ostream *printfOut = nullptr;
  /// The program's stdout goes to stderr (so stdout can carry a report).
  bool programStdoutToStderr = false;
  // Progress of the simulations, for a progress line.
  std::function<void(const std::string &label)> beginLaunch;
  std::function<void(uint64_t done, uint64_t total)> progress;
  std::function<void()> endLaunch;
};

/// One launch the program made (by host code, or by a kernel: launchedFrom),
/// as the launch runner simulated it; result.error: the launch failed.
using RunLaunch = sim::RunnerLaunch;

struct RunResult {
  bool compiled = false;
  std::string diagnostics;         // Clang's text, for exit 3
  analyzer::CompiledModule device; // the kernels the launches point into
  std::vector<RunLaunch> launches;
  /// Why the run could not go on (exit 3): an unsupported call, a failed
  /// launch, a missing main, a JIT error.
  std::vector<std::string> errors;
  std::vector<std::string> notes;
  std::optional<int> exitStatus; // main's return or exit()'s status
  double compileSeconds = 0, hostSeconds = 0, simulationSeconds = 0;
};

RunResult runProgram(const RunOptions &options);

/// "N launches simulated (M of them repeats ...) in S s, host code H s":
/// the run's summary, as both commands print it.
std::string launchesSummary(const RunResult &run);

} // namespace kcheck::host

// Running a program's host code against a simulated GPU, as a Session
// (driver/HostRun.cpp); sessionFromHostRun is declared in driver/Session.h
// beside analyzeFile, the static path.
#pragma once

#include "driver/Progress.h"
#include "driver/Session.h"
#include "host/HostRunner.h"

namespace kcheck::driver {

/// The run of FILE.cu's host code that `run` and `--run-host` both make:
/// the options' architecture, budgets, jobs and sanitizers, progress on
/// `progress`.
host::RunOptions hostRunOptions(const Options &options,
                                const core::ArchSpec &arch, Progress &progress);

/// The run's launches as a Session, so the checks and emitters of the
/// static path apply unchanged.
Session sessionOfHostRun(const Options &options, host::RunResult &run,
                         const core::ArchSpec &arch,
                         const core::CudaHeaders &headers);

/// The run's errors that are kcheck's (exit 3): not a launch's fault, which
/// is a finding (memcheck's, synccheck's or [kernel-fault]), as on a GPU.
std::vector<std::string> hostRunErrors(const host::RunResult &run,
                                       const Session &session);

} // namespace kcheck::driver

// The launches of running a program's host code against a simulated GPU
// (host/HostRunner.h), as a Session: `kcheck run` and every command's
// --run-host. Every launch then has the grid, block, sizes and data the
// program really computes.
#include "driver/HostRun.h"

#include "driver/LaunchFaults.h"
#include "driver/LaunchReports.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <thread>

namespace kcheck::driver {

host::RunOptions hostRunOptions(const Options &o, const core::ArchSpec &arch,
                                Progress &progress) {
  host::RunOptions ro;
  ro.file = o.file;
  ro.programArgs = o.programArgs;
  ro.clangArgs = o.clangArgs; // -p's flags, --run-host's `-- clang args`
  ro.arch = arch;
  ro.hostBudgetSeconds = o.hostBudgetSeconds;
  ro.limits = launchLimits(o);
  ro.maxLaunches = o.maxLaunches;
  ro.jobs = simulationThreads(o);
  ro.skipIdleBlocks = !o.exhaustive;
  ro.beginLaunch = [&progress](const std::string &label) {
    progress.beginLaunch(label);
  };
  ro.progress = [&progress](uint64_t done, uint64_t total) {
    progress.update(done, total);
  };
  ro.endLaunch = [&progress] { progress.endLaunch(); };
  return ro;
}

Session sessionOfHostRun(const Options &o, host::RunResult &run,
                         const core::ArchSpec &arch,
                         const core::CudaHeaders &headers) {
  Session s;
  s.compiled = true;
  s.mainFile = o.file;
  s.arch = arch;
  s.report.arch = o.arch;
  s.report.file = o.file;
  s.subscripts = run.device.subscripts;
  s.report.notes = run.notes;
  s.report.cudaHeaders = headers;
  LaunchReportBuilder reports(o.file);
  // Host launches numbered in the host's order, as Nsight Compute lists
  // them; the launches kernels made after them.
  std::map<int, int> number;
  for (const host::RunLaunch &l : run.launches)
    if (!l.launchedFrom)
      number[l.index] = int(number.size());
  for (const host::RunLaunch &l : run.launches)
    if (l.launchedFrom)
      number[l.index] = int(number.size());
  for (host::RunLaunch &l : run.launches) {
    core::LaunchReport lr;
    lr.index = number[l.index];
    SimulatedLaunch sl;
    const double seconds = l.seconds;
    reports.report(std::move(l), lr, sl);
    if (lr.launchedFrom)
      lr.launchedFrom->launch = number[lr.launchedFrom->launch];
    // Every block runs (results must be computed): say where time goes.
    if (seconds >= 1 && sl.result.blocksIdle)
      lr.notes.push_back(fmt::format(
          "{} blocks simulated in {:.1f} s, {} more that provably store "
          "nothing counted as one that ran",
          sl.result.blocksSimulated, seconds, sl.result.blocksIdle));
    else if (seconds >= 1)
      lr.notes.push_back(fmt::format("{} blocks simulated in {:.1f} s",
                                     sl.result.blocksSimulated, seconds));
    s.report.launches.push_back(std::move(lr));
    s.launches.push_back(std::move(sl));
  }
  core::countDeviceLaunchesInTheirRoots(s.report.launches);
  return s;
}

std::vector<std::string> hostRunErrors(const host::RunResult &run,
                                       const Session &s) {
  // A launch that faulted (under memcheck or synccheck, or on the GPU
  // itself: [kernel-fault]) is a finding (the program's run stopped there,
  // or went on as its CUDA calls failed, as on a GPU), not an error.
  std::vector<std::string> errors;
  for (const std::string &e : run.errors)
    if (std::none_of(s.launches.begin(), s.launches.end(),
                     [&](const SimulatedLaunch &l) {
                       return l.result.fault &&
                              e.find(l.result.error) != std::string::npos;
                     }))
      errors.push_back(e);
  return errors;
}

Session sessionFromHostRun(const Options &o, std::ostream &err) {
  core::ArchSpec arch = *core::findArch(o.arch);
  arch.options = modelOptionsFor(o, arch);
  Progress progress(!o.quiet);
  host::RunOptions ro = hostRunOptions(o, arch, progress);
  core::CudaHeaders headers;
  std::vector<std::string> headerErrors;
  if (!chooseCudaHeaders(o, arch, ro.toolkit, headers, headerErrors)) {
    Session failed;
    failed.errors = headerErrors;
    return failed;
  }
  ro.programStdoutToStderr = true; // stdout is the report's
  ro.printfOut = &err;
  ro.sanitizer = o.sanitizers; // kcheck memcheck --run-host
  ro.stopAtGlobalOverrun = o.stopAtGlobalOverrun;
  auto run = std::make_shared<host::RunResult>(host::runProgram(ro));
  std::fflush(stdout);
  if (!run->compiled) {
    Session failed;
    failed.clangDiagnostics = run->diagnostics;
    failed.errors = run->errors;
    return failed;
  }
  Session s = sessionOfHostRun(o, *run, arch, headers);
  for (const std::string &e : hostRunErrors(*run, s))
    s.errors.push_back(e);
  s.report.notes.push_back(fmt::format(
      "launches from running the host code (--run-host): exit status {}; {}",
      run->exitStatus ? std::to_string(*run->exitStatus)
                      : std::string("none (stopped)"),
      host::launchesSummary(*run)));
  // Host code ran to its end (returned, exited or aborted) without a
  // launch: the GPU would run nothing, which is not an input kcheck cannot
  // analyse.
  if (run->launches.empty() && run->exitStatus && s.errors.empty()) {
    s.report.notes.push_back("the program makes no kernel launch");
    s.makesNoLaunch = true;
  }
  s.keepAlive = run;
  return s;
}

} // namespace kcheck::driver

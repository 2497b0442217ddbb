// [kernel-fault]: a launch faults on the GPU itself, outside any sanitizer:
// a failed device assert, __trap(), unreachable code, an illegal or
// misaligned address, a warp-synchronous call with a bad member mask
// (docs/checks/kernel-fault.md).
//
// Assumptions: the engine stops the launch where the GPU does (the fault's
// thread and block, sim::Fault); the error the program's later calls get is
// the runtime's (host::faultErrorName, the one answer both host paths give).
// A fault a sanitizer reports (memcheck's out-of-bounds stop) is that
// sanitizer's finding, not this one (driver::gpuFault).
#include "checks/Registry.h"
#include "driver/LaunchFaults.h"
#include "host/CudaRuntime.h"

#include <fmt/format.h>

namespace kcheck::checks {

namespace {

std::string firstLine(const std::string &text) {
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty())
    line[0] = char(std::tolower(static_cast<unsigned char>(line[0])));
  return line;
}

std::vector<core::Diagnostic> kernelFaultDiagnostics(const driver::Session &s,
                                                     bool) {
  std::vector<core::Diagnostic> out;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const driver::SimulatedLaunch &sl = s.launches[li];
    const sim::Fault *f = driver::gpuFault(sl.result);
    if (!sl.kernel || !f)
      continue;
    const sim::InstInfo &info = sl.kernel->insts()[f->instId];
    core::Diagnostic d;
    d.severity = core::Severity::Error;
    d.loc = sim::userLocation(info, s.mainFile);
    d.checkId = "kernel-fault";
    // An access names itself ("__shared__ read of size 4 bytes"); a fault
    // of no one access (an invalid texture object) is its message.
    std::string what = f->cause == sim::FaultCause::Memory && !f->access.empty()
                           ? fmt::format("invalid {}", f->access)
                           : firstLine(f->message);
    // A message in two clauses keeps its first as the error, the second as
    // a note ("...; the GPU stops the kernel (...)").
    std::string rest;
    if (size_t semicolon = what.find("; "); semicolon != std::string::npos) {
      rest = what.substr(semicolon + 2);
      what.resize(semicolon);
    }
    d.message = fmt::format("{} by thread ({}) in block ({}) of {}", what,
                            core::toString(f->thread), core::toString(f->block),
                            sl.kernel->name());
    if (f->cause == sim::FaultCause::Memory && !f->problem.empty())
      d.message += ": " + f->problem;
    if (!rest.empty())
      d.addNote(rest);
    if (!f->gpuOutput.empty())
      d.addNote("the GPU prints: " + firstLine(f->gpuOutput));
    d.addNote(fmt::format(
        "in launch {}: the GPU stops the kernel here and the program's later "
        "CUDA calls return {}; the launch's counters are those of the {} "
        "block(s) run up to the fault",
        driver::describeLaunchCall(s, li), host::faultErrorName(*f),
        sl.result.blocksSimulated));
    out.push_back(std::move(d));
  }
  return out;
}

} // namespace

extern const Check kKernelFaultCheck{
    "kernel-fault",
    core::Severity::Error,
    // Whatever was asked: the program has the fault.
    {driver::Command::BankConflicts, driver::Command::Coalescing,
     driver::Command::Divergence, driver::Command::Predict,
     driver::Command::Run, driver::Command::Memcheck,
     driver::Command::Initcheck, driver::Command::Racecheck,
     driver::Command::Synccheck, driver::Command::Sanitize},
    /*sanitizer=*/false,
    /*shadow=*/nullptr,
    kernelFaultDiagnostics,
    /*summaryRows=*/nullptr,
    "sanitize/kernel_fault_assert.cu",
};

} // namespace kcheck::checks

#include "checks/Sanitizers.h"
#include "driver/LaunchFaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace kcheck::checks {

using driver::describeLaunchCall;
using driver::Session;
using driver::SimulatedLaunch;

namespace {

using sim::SanitizerFinding;
using Check = SanitizerFinding::Check;

const char *accessWord(const sim::InstInfo &info) {
  switch (info.kind) {
  case sim::AccessKind::Load:
    return "read";
  case sim::AccessKind::Store:
    return "write";
  case sim::AccessKind::Atomic:
    return "atomic";
  }
  return "access";
}

/// "'sdata' (shared byte 0x40)": the __shared__ variable holding `address`.
std::string sharedByteText(const sim::DecodedKernel &kernel,
                           uint64_t dynamicBytes, uint64_t address) {
  std::string where = fmt::format("shared byte {:#x}", address);
  for (const sim::SharedVariable &v : kernel.sharedVariables()) {
    uint64_t end = v.offset + (v.dynamic ? dynamicBytes : v.bytes);
    if (address >= v.offset && address < end)
      return fmt::format("'{}' ({}, byte {} of it)", v.sourceName, where,
                         address - v.offset);
  }
  return where;
}

std::string threadText(const core::Dim3 &thread) {
  return "thread (" + core::toString(thread) + ")";
}

std::string messageOf(const SanitizerFinding &f, const sim::DecodedKernel &k,
                      const core::LaunchConfig &config,
                      const std::string &mainFile) {
  const sim::InstInfo &info = k.insts()[f.instId];
  std::string block = "block (" + core::toString(f.block) + ")";
  switch (f.check) {
  case Check::Memcheck:
    return fmt::format("invalid {} by {} in {} of {}: {}", f.fault->access,
                       threadText(f.thread), block, k.name(), f.fault->problem);
  case Check::Initcheck:
    return fmt::format("uninitialized shared memory read: {} in {} reads {} "
                       "before any thread of its block wrote it",
                       threadText(f.thread), block,
                       sharedByteText(k, config.dynamicSharedBytes, f.address));
  case Check::Synccheck: {
    unsigned linear =
        f.thread.x +
        config.block.x * (f.thread.y + config.block.y * f.thread.z);
    return fmt::format(
        "invalid warp-synchronous call by {} in {} of {}: its member mask "
        "{:#010x} leaves out the calling thread (lane {}), which stops the "
        "kernel on the GPU (an illegal instruction; compute-sanitizer's "
        "synccheck: \"Barrier error detected. Invalid arguments.\")",
        threadText(f.thread), block, k.name(), f.address, linear % 32);
  }
  case Check::Racecheck:
    break;
  }
  const sim::InstInfo &other = k.insts()[f.otherInstId];
  core::SourceLoc otherLoc = sim::userLocation(other, mainFile);
  std::string pair =
      fmt::format("this {} by {} and the {} at line {} by {} (in {})",
                  accessWord(info), threadText(f.thread), accessWord(other),
                  otherLoc.line, threadText(f.otherThread), block);
  std::string object = sharedByteText(k, config.dynamicSharedBytes, f.address);
  if (f.withinWarp)
    return fmt::format(
        "{} hazard on {} between lanes of one warp with no __syncwarp() "
        "between them: {} rely on implicit warp synchrony (make both "
        "accesses volatile, or add __syncwarp())",
        sim::toString(f.hazard), object, pair);
  return fmt::format("shared-memory data race ({} hazard) on {}: {}, in "
                     "different warps with no __syncthreads() between them",
                     sim::toString(f.hazard), object, pair);
}

/// Where the access really is, when `loc` (the main file's line) is a call
/// of the inlined function that holds it.
void noteInlinedFunction(core::Diagnostic &d, const sim::InstInfo &info,
                         const core::SourceLoc &loc) {
  if (!info.inlineChain.empty() && !(info.inlineChain.front() == loc))
    d.addNote(fmt::format("inside an inlined function, at {}:{}",
                          info.inlineChain.front().file,
                          info.inlineChain.front().line));
}

} // namespace

std::vector<core::Diagnostic> sanitizerDiagnostics(const Session &s,
                                                   Check check) {
  std::vector<core::Diagnostic> out;
  // One diagnostic per check, location and (racecheck) other access.
  std::map<std::tuple<int, unsigned, unsigned, unsigned, int, bool>, size_t>
      byKey;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const SimulatedLaunch &sl = s.launches[li];
    if (!sl.kernel || !sl.result.sanitizer)
      continue;
    const core::LaunchConfig &config = s.report.launches[li].config;
    for (const SanitizerFinding &f : sl.result.sanitizer->findings) {
      if (f.check != check)
        continue;
      const sim::InstInfo &info = sl.kernel->insts()[f.instId];
      core::SourceLoc loc = sim::userLocation(info, s.mainFile);
      unsigned otherLine =
          f.check == Check::Racecheck
              ? sim::userLocation(sl.kernel->insts()[f.otherInstId], s.mainFile)
                    .line
              : 0;
      auto [it, fresh] =
          byKey.try_emplace({int(f.check), loc.line, loc.col, otherLine,
                             int(f.hazard), f.withinWarp},
                            out.size());
      if (fresh) {
        core::Diagnostic d;
        d.severity = f.check == Check::Racecheck && f.withinWarp
                         ? core::Severity::Warning
                         : core::Severity::Error;
        d.loc = loc;
        d.checkId = driver::sanitizerCheckId(f.check);
        d.message = messageOf(f, *sl.kernel, config, s.mainFile);
        noteInlinedFunction(d, info, loc);
        out.push_back(std::move(d));
      }
      std::string what =
          f.fault ? "the kernel faults here and stops, as on a GPU (later CUDA "
                    "calls of the program fail); its counters are not reported"
          : f.check == Check::Initcheck
              ? fmt::format("{} thread read(s) of unwritten shared bytes here",
                            f.count)
              : fmt::format("{} hazardous thread access(es) of this pair",
                            f.count);
      out[it->second].addNote(
          fmt::format("in launch {}: {}", describeLaunchCall(s, li), what));
    }
  }
  return out;
}

std::vector<core::Diagnostic> overrunDiagnostics(const Session &s) {
  std::vector<core::Diagnostic> out;
  std::map<std::tuple<std::string, unsigned, unsigned>, size_t> byLoc;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const SimulatedLaunch &sl = s.launches[li];
    if (!sl.kernel)
      continue;
    for (const sim::Fault &f : sl.result.overruns) {
      const sim::InstInfo &info = sl.kernel->insts()[f.instId];
      core::SourceLoc loc = sim::userLocation(info, s.mainFile);
      auto [it, fresh] =
          byLoc.try_emplace({loc.file, loc.line, loc.col}, out.size());
      if (fresh) {
        core::Diagnostic d;
        d.severity = core::Severity::Error;
        d.loc = loc;
        d.checkId = "memcheck";
        d.message =
            fmt::format("invalid {} by {} in block ({}) of {}: {}", f.access,
                        threadText(f.thread), core::toString(f.block),
                        sl.kernel->name(), f.problem);
        noteInlinedFunction(d, info, loc);
        out.push_back(std::move(d));
      }
      out[it->second].addNote(fmt::format(
          "in launch {}: the GPU makes this access without a bounds check and "
          "goes on (the address lies in memory its allocator mapped), so "
          "kcheck counted it and went on too, without reading or writing "
          "there; compute-sanitizer would stop the kernel here",
          describeLaunchCall(s, li)));
    }
  }
  return out;
}

std::string sanitizerSummaryRow(const Session &s, size_t li,
                                bool barrierDivergence) {
  const sim::LaunchResult &r = s.launches[li].result;
  if (!s.launches[li].kernel)
    return "";
  std::map<std::string, uint64_t> counts;
  if (r.sanitizer)
    for (const SanitizerFinding &f : r.sanitizer->findings)
      counts[driver::sanitizerCheckId(f.check)] += 1;
  if (barrierDivergence)
    for (const sim::InstStats &st : r.perInst)
      counts["barrier-divergence"] += st.barrier.divergentArrivals != 0;
  std::erase_if(counts, [](const auto &c) { return c.second == 0; });
  std::string text;
  for (const auto &[id, n] : counts)
    text += fmt::format("{}{} {} finding{}", text.empty() ? "" : ", ", n, id,
                        n == 1 ? "" : "s");
  if (r.sanitizer && r.sanitizer->faulted())
    text += "; the kernel faulted and stopped";
  return "  sanitizers    : " + (text.empty() ? "no finding" : text) + "\n";
}

} // namespace kcheck::checks

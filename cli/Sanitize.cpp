#include "cli/Sanitize.h"

#include "cli/Commands.h"
#include "cli/Divergence.h"
#include "cli/Suppressions.h"
#include "cli/TextEmitter.h"
#include "cli/Verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unistd.h>

namespace kcheck::cli {

namespace {

using sim::SanitizerFinding;
using Check = SanitizerFinding::Check;

const char *checkId(Check c) {
  switch (c) {
  case Check::Memcheck:
    return "memcheck";
  case Check::Initcheck:
    return "initcheck";
  case Check::Racecheck:
    return "racecheck";
  case Check::Synccheck: // compute-sanitizer's synccheck, one id
    return "barrier-divergence";
  }
  return "?";
}

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

bool hasFinding(const std::vector<core::Diagnostic> &diags) {
  return std::any_of(diags.begin(), diags.end(), [](const auto &d) {
    return d.severity == core::Severity::Warning ||
           d.severity == core::Severity::Error;
  });
}

/// One line per launch: what each check found there.
std::string summaryText(const Options &o, const Session &s) {
  std::string out;
  bool synccheck =
      o.command == Command::Synccheck || o.command == Command::Sanitize;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const sim::LaunchResult &r = s.launches[li].result;
    out += "launch " + describeLaunchCall(s, li) + ": ";
    if (!s.launches[li].kernel) {
      out += "not simulated\n";
      continue;
    }
    std::map<std::string, uint64_t> counts;
    if (r.sanitizer)
      for (const SanitizerFinding &f : r.sanitizer->findings)
        counts[checkId(f.check)] += 1;
    if (synccheck)
      for (const sim::InstStats &st : r.perInst)
        counts["barrier-divergence"] += st.barrier.divergentArrivals != 0;
    std::erase_if(counts, [](const auto &c) { return c.second == 0; });
    std::string text;
    for (const auto &[id, n] : counts)
      text += fmt::format("{}{} {} finding{}", text.empty() ? "" : ", ", n, id,
                          n == 1 ? "" : "s");
    if (r.sanitizer && r.sanitizer->faulted())
      text += "; the kernel faulted and stopped";
    out += (text.empty() ? "no sanitizer finding" : text) + "\n";
  }
  return out;
}

} // namespace

bool isSanitizerCommand(Command c) {
  return c == Command::Memcheck || c == Command::Initcheck ||
         c == Command::Racecheck || c == Command::Synccheck ||
         c == Command::Sanitize;
}

sim::SanitizerOptions sanitizerOptionsFor(const Options &o) {
  sim::SanitizerOptions s;
  bool all = o.command == Command::Sanitize;
  s.memcheck = all || o.command == Command::Memcheck;
  s.initcheck = all || o.command == Command::Initcheck;
  s.racecheck = all || o.command == Command::Racecheck;
  s.synccheck = all || o.command == Command::Synccheck;
  return s;
}

std::vector<std::string> sanitizerCheckIds(Command c) {
  std::vector<std::string> ids;
  bool all = c == Command::Sanitize;
  if (all || c == Command::Memcheck)
    ids.push_back("memcheck");
  if (all || c == Command::Initcheck)
    ids.push_back("initcheck");
  if (all || c == Command::Racecheck)
    ids.push_back("racecheck");
  if (all || c == Command::Synccheck)
    ids.push_back("barrier-divergence");
  return ids;
}

const char *faultReportedBy(const sim::LaunchResult &r) {
  if (r.sanitizer)
    for (const SanitizerFinding &f : r.sanitizer->findings)
      if (f.fault)
        return checkId(f.check);
  return nullptr;
}

std::string faultedLaunchNote(const sim::LaunchResult &r) {
  return fmt::format("the kernel faulted (see the {} error): its counters are "
                     "not reported",
                     faultReportedBy(r));
}

std::vector<core::Diagnostic> sanitizerDiagnostics(const Session &s) {
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
        d.checkId = checkId(f.check);
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

int runSanitize(const Options &o, std::ostream &out, std::ostream &err) {
  std::string source;
  std::optional<Session> opened = openSession(o, source, err);
  if (!opened)
    return kExitCannotAnalyse;
  Session &s = *opened;

  std::vector<core::Diagnostic> diags = sanitizerDiagnostics(s);
  for (core::Diagnostic &d : overrunDiagnostics(s))
    diags.push_back(std::move(d));
  if (o.command == Command::Synccheck || o.command == Command::Sanitize)
    for (core::Diagnostic &d : divergenceDiagnostics(s, false))
      if (d.checkId == "barrier-divergence")
        diags.push_back(std::move(d));
  std::stable_sort(diags.begin(), diags.end(),
                   [](const core::Diagnostic &a, const core::Diagnostic &b) {
                     return std::tie(a.loc.file, a.loc.line, a.loc.col) <
                            std::tie(b.loc.file, b.loc.line, b.loc.col);
                   });
  size_t suppressed = 0;
  diags = reportedDiagnostics(o, source, std::move(diags), suppressed);

  bool anySimulated = false;
  for (size_t li = 0; li < s.launches.size(); ++li)
    anySimulated |= s.report.launches[li].simulated ||
                    faultReportedBy(s.launches[li].result);
  if (!anySimulated && s.errors.empty() && !s.makesNoLaunch)
    s.errors.push_back("no launch could be simulated (see the notes above)");

  if (o.verify) {
    for (const std::string &e : s.errors)
      err << "kcheck: error: " << e << '\n';
    std::vector<std::string> problems =
        verify(parseExpectations(source), diags, o.file);
    for (const std::string &p : problems)
      err << p << '\n';
    if (!s.errors.empty())
      return kExitCannotAnalyse;
    return problems.empty() ? kExitClean : kExitFindings;
  }
  bool document = writeReportDocument(o, s, diags, source, out);
  if (!document) {
    emitText(out, diags, isatty(STDOUT_FILENO));
    if (suppressed)
      out << suppressedSummary(suppressed) << '\n';
    out << summaryText(o, s);
  } else if (suppressed) {
    err << "kcheck: note: " << suppressedSummary(suppressed) << '\n';
  }
  for (const std::string &e : s.errors)
    err << "kcheck: error: " << e << '\n';
  if (!s.errors.empty())
    return kExitCannotAnalyse;
  return hasFinding(diags) ? kExitFindings : kExitClean;
}

} // namespace kcheck::cli

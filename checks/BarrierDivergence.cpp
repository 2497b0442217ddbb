#include "checks/BarrierDivergence.h"

#include "checks/Registry.h"

#include <fmt/format.h>

#include <map>

namespace kcheck::checks {

namespace {

using driver::SimulatedLaunch;

/// "0-3, 7": the threads of warp `warp` whose lanes `mask` holds.
std::string threadRanges(uint32_t mask, unsigned warp) {
  std::string s;
  for (unsigned lane = 0; lane < 32;) {
    if (!((mask >> lane) & 1u)) {
      ++lane;
      continue;
    }
    unsigned end = lane;
    while (end + 1 < 32 && ((mask >> (end + 1)) & 1u))
      ++end;
    unsigned a = warp * 32 + lane, b = warp * 32 + end;
    s += (s.empty() ? "" : ", ") +
         (a == b ? std::to_string(a) : fmt::format("{}-{}", a, b));
    lane = end + 1;
  }
  return s;
}

} // namespace

std::vector<core::Diagnostic>
barrierDivergenceDiagnostics(const driver::Session &s) {
  std::vector<core::Diagnostic> out;
  std::map<std::pair<unsigned, unsigned>, size_t> byLine;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const SimulatedLaunch &sl = s.launches[li];
    if (!sl.kernel)
      continue;
    for (size_t pc = 0; pc < sl.result.perInst.size(); ++pc) {
      const sim::BarrierStats &b = sl.result.perInst[pc].barrier;
      if (!b.divergentArrivals)
        continue;
      core::SourceLoc loc =
          sim::userLocation(sl.kernel->insts()[pc], s.mainFile);
      auto [it, fresh] = byLine.try_emplace({loc.line, loc.col}, out.size());
      if (fresh) {
        core::Diagnostic d;
        d.severity = core::Severity::Error;
        d.loc = loc;
        d.checkId = "barrier-divergence";
        d.message = "__syncthreads() reached by only part of a block "
                    "(barrier divergence: undefined behaviour)";
        out.push_back(d);
      }
      const sim::DivergentBarrier &w = b.firstDivergent;
      const core::Dim3 &dim = s.report.launches[li].config.block;
      std::string ids = threadRanges(w.missingMask, w.warp);
      out[it->second].addNote(
          fmt::format("in launch {}: {} warp arrival(s) of {} left live "
                      "threads behind; first in block ({}), warp {}: "
                      "threads {} (linear thread index{}) did not arrive",
                      describeLaunchCall(s, li), b.divergentArrivals,
                      b.arrivals, core::toString(w.block), w.warp, ids,
                      dim.y == 1 && dim.z == 1 ? " = threadIdx.x" : ""));
    }
  }
  return out;
}

extern const Check kBarrierDivergenceCheck{
    "barrier-divergence",
    core::Severity::Error,
    {driver::Command::Divergence, driver::Command::Run,
     driver::Command::Synccheck, driver::Command::Sanitize},
    /*sanitizer=*/false,
    /*shadow=*/nullptr,
    [](const driver::Session &s, bool) {
      return barrierDivergenceDiagnostics(s);
    },
    /*summaryRows=*/nullptr,
    "sanitize/synccheck_barrier_divergence.cu",
};

} // namespace kcheck::checks

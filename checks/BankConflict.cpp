#include "checks/BankConflict.h"
#include "checks/Registry.h"

#include "simulator/models/SharedBankModel.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace kcheck::checks {

using driver::describeLaunch;
using driver::describeLaunchCall;
using driver::indexExpressionsText;
using driver::Session;
using driver::SimulatedLaunch;

namespace {

struct Group {
  core::SourceLoc loc; // the first conflicting access on the line
  std::string array;
  uint32_t minDegree = 0, maxDegree = 0;
  uint64_t wavefronts = 0, ideal = 0, executions = 0, conflicted = 0;
  const sim::SharedAccessStats *worst = nullptr;
  std::vector<uint32_t> byIteration;
  std::set<std::string> launches;
  std::vector<std::string> expressions; // subscripts as written, in order
};

std::string degreeText(uint32_t lo, uint32_t hi) {
  if (lo == hi)
    return fmt::format("{}-way", hi);
  return fmt::format("{}-way to {}-way", lo, hi);
}

// "0-7, 12, 16-31": runs of consecutive numbers.
std::string rangesText(const std::vector<uint64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1)
      ++j;
    if (!s.empty())
      s += ",";
    s += j > i + 1    ? fmt::format("{}-{}", v[i], v[j])
         : j == i + 1 ? fmt::format("{},{}", v[i], v[j])
                      : fmt::format("{}", v[i]);
    i = j + 1;
  }
  return s;
}

// "0, 32, ..., 992 (every 32)" for an arithmetic progression, else a list.
std::string progressionText(const std::vector<uint64_t> &v) {
  if (v.size() > 3) {
    uint64_t step = v[1] - v[0];
    bool arithmetic = true;
    for (size_t i = 2; i < v.size(); ++i)
      arithmetic &= v[i] - v[i - 1] == step;
    if (arithmetic)
      return fmt::format("{}, {}, ..., {} (every {})", v[0], v[1], v.back(),
                         step);
  }
  std::string s;
  for (uint64_t x : v)
    s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// "bank 0: lanes 0-31 read 32 distinct words (byte offsets 0, 128, ...)" for
// the banks holding the most distinct words in the worst warp.
std::vector<std::string> worstWarpLines(const sim::WorstWarp &w,
                                        const core::ArchSpec &arch) {
  sim::SharedBankModel model(arch);
  std::map<unsigned, std::map<uint64_t, std::vector<uint64_t>>> banks;
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((w.activeMask >> lane) & 1u)
      banks[model.bankOf(w.addrs[lane])]
           [w.addrs[lane] / model.bankBytes() * model.bankBytes()]
               .push_back(lane);
  size_t most = 0;
  for (auto &[b, words] : banks)
    most = std::max(most, words.size());
  std::vector<std::string> out;
  for (auto &[bank, words] : banks) {
    if (words.size() != most || out.size() >= 2)
      continue;
    std::vector<uint64_t> lanes, offsets;
    for (auto &[offset, ls] : words) {
      offsets.push_back(offset);
      lanes.insert(lanes.end(), ls.begin(), ls.end());
    }
    std::sort(lanes.begin(), lanes.end());
    out.push_back(fmt::format(
        "bank {}: lanes {} touch {} distinct {}-byte words (shared byte "
        "offsets {})",
        bank,
        rangesText(lanes).find(',') == std::string::npos
            ? rangesText(lanes)
            : progressionText(lanes),
        words.size(), model.bankBytes(), progressionText(offsets)));
  }
  return out;
}

std::string iterationText(const std::vector<uint32_t> &degrees) {
  std::string s;
  for (size_t k = 0; k < degrees.size() && k < 16; ++k) {
    if (!s.empty())
      s += ", ";
    s += degrees[k] > 1 ? fmt::format("{}-way", degrees[k])
                        : std::string("none");
  }
  if (degrees.size() > 16)
    s += fmt::format(", ... ({} executions)", degrees.size());
  return s;
}

using GroupKey = std::tuple<std::string, unsigned, std::string>;

/// The conflicting accesses, by (file, line, array), over every launch: one
/// finding each.
std::map<GroupKey, Group> conflictGroups(const Session &s) {
  std::map<GroupKey, Group> groups;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const SimulatedLaunch &sl = s.launches[li];
    if (!sl.kernel)
      continue;
    const auto &insts = sl.kernel->insts();
    for (size_t i = 0; i < sl.result.perInst.size(); ++i) {
      const sim::SharedAccessStats &st = sl.result.perInst[i].shared;
      if (st.conflictedExecutions == 0)
        continue;
      const sim::InstInfo &info = insts[i];
      core::SourceLoc loc = sim::userLocation(info, s.mainFile);
      Group &g = groups[{loc.file, loc.line, info.objectName}];
      if (!g.loc.valid() || loc.col < g.loc.col)
        g.loc = loc;
      g.array = info.objectName;
      if (const analyzer::SubscriptFact *f =
              analyzer::findSubscript(s.subscripts, loc))
        if (std::find(g.expressions.begin(), g.expressions.end(),
                      f->fullText) == g.expressions.end())
          g.expressions.push_back(f->fullText);
      g.minDegree = g.minDegree ? std::min(g.minDegree, st.minConflictDegree)
                                : st.minConflictDegree;
      g.maxDegree = std::max(g.maxDegree, st.maxDegree);
      g.wavefronts += st.wavefronts;
      g.ideal += st.ideal;
      g.executions += st.executions;
      g.conflicted += st.conflictedExecutions;
      if (!g.worst || st.worst.wavefronts * g.worst->worst.ideal >
                          g.worst->worst.wavefronts * st.worst.ideal) {
        g.worst = &st;
      }
      if (st.degreeByExecution.size() > g.byIteration.size())
        g.byIteration.resize(st.degreeByExecution.size(), 0);
      for (size_t k = 0; k < st.degreeByExecution.size(); ++k)
        g.byIteration[k] = std::max(g.byIteration[k], st.degreeByExecution[k]);
      g.launches.insert(describeLaunch(s.report.launches[li]));
    }
  }
  return groups;
}

/// What a group's finding is about: its shared array.
core::Subject subjectOf(const Group &g) {
  return {g.array, core::Subject::Space::Shared,
          core::Subject::Direction::None};
}

} // namespace

std::vector<BankConflictWarp> bankConflictWorstWarps(const Session &s) {
  std::vector<BankConflictWarp> out;
  for (auto &[key, g] : conflictGroups(s))
    out.push_back({g.loc, subjectOf(g), g.worst->worst});
  return out;
}

std::vector<core::Diagnostic> bankConflictDiagnostics(const Session &s) {
  std::map<GroupKey, Group> groups = conflictGroups(s);
  std::vector<core::Diagnostic> out;
  for (auto &[key, g] : groups) {
    core::Diagnostic d;
    d.severity = core::Severity::Warning;
    d.loc = g.loc;
    d.checkId = "bank-conflict";
    d.subject = subjectOf(g);
    std::string name = g.array.empty() ? "shared memory" : "'" + g.array + "'";
    d.message = degreeText(g.minDegree, g.maxDegree) +
                " shared-memory bank conflict on " + name;
    auto note = [&](std::string text) { d.addNote(std::move(text)); };
    if (!g.expressions.empty())
      note(indexExpressionsText(g.expressions));
    const sim::WorstWarp &w = g.worst->worst;
    note(fmt::format("worst warp: block ({}) warp {}, {} wavefronts where {} "
                     "would do",
                     core::toString(w.block), w.warp, w.wavefronts, w.ideal));
    for (const std::string &line : worstWarpLines(w, s.arch))
      note(line);
    if (g.byIteration.size() > 1)
      note("degree by execution in a block (loop iterations): " +
           iterationText(g.byIteration));
    note(fmt::format("{} of {} warp executions conflict; {} wavefronts for "
                     "{} ideal ({:.1f}% excess)",
                     g.conflicted, g.executions, g.wavefronts, g.ideal,
                     g.wavefronts ? 100.0 * double(g.wavefronts - g.ideal) /
                                        double(g.wavefronts)
                                  : 0.0));
    out.push_back(std::move(d));
  }
  return out;
}

std::string bankConflictSummaryRows(const Session &s, size_t li) {
  const core::LaunchReport &l = s.report.launches[li];
  const SimulatedLaunch &sl = s.launches[li];
  if (!l.simulated || !sl.kernel)
    return "";
  uint64_t ideal[2] = {0, 0};
  for (size_t i = 0; i < sl.result.perInst.size(); ++i) {
    const sim::SharedAccessStats &st = sl.result.perInst[i].shared;
    if (st.executions)
      ideal[sl.kernel->insts()[i].kind == sim::AccessKind::Store] += st.ideal;
  }
  std::string out;
  using core::Metric;
  auto row = [&](const char *what, Metric inst, Metric wf, uint64_t id) {
    uint64_t w = l.metrics[wf];
    out += fmt::format("  shared {:6}: {:>12} instructions {:>12} "
                       "wavefronts {:>12} ideal {:>12} excess ({:.1f}%)\n",
                       what, l.metrics[inst], w, id, w - id,
                       w ? 100.0 * double(w - id) / double(w) : 0.0);
  };
  row("loads", Metric::SharedLdInst, Metric::SharedLdWavefronts, ideal[0]);
  row("stores", Metric::SharedStInst, Metric::SharedStWavefronts, ideal[1]);
  return out;
}

extern const Check kBankConflictCheck{
    "bank-conflict",
    core::Severity::Warning,
    {driver::Command::BankConflicts, driver::Command::Run},
    /*sanitizer=*/false,
    /*shadow=*/nullptr,
    [](const Session &s, bool) { return bankConflictDiagnostics(s); },
    bankConflictSummaryRows,
    "slides_bank_conflicts.cu",
};

} // namespace kcheck::checks

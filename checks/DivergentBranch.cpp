#include "checks/DivergentBranch.h"
#include "checks/Registry.h"
#include "core/SourcePath.h"
#include "driver/LaunchBranches.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>

namespace kcheck::checks {

using driver::describeLaunch;
using driver::describeLaunchCall;
using driver::indexExpressionsText;
using driver::Session;
using driver::SimulatedLaunch;

namespace {

using analyzer::BranchUniformity;
using analyzer::StaticBranch;
using driver::LaunchBranch;
using driver::launchBranches;
using driver::predictedPredicated;
using driver::predictSassDivergentTargets;

std::vector<std::string> readLines(const std::string &path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  return lines;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t;{");
  return b == std::string::npos || e < b ? "" : s.substr(b, e - b + 1);
}

/// The condition of the `if`/`while`/`for` on `text` whose parentheses hold
/// column `col` (else the first one): the for's middle clause, the if's and
/// while's whole condition. The trimmed line when there is none.
std::string conditionText(const std::string &text, unsigned col) {
  std::string best;
  bool bestHolds = false;
  for (const char *kw : {"if", "while", "for"}) {
    size_t n = std::string(kw).size();
    for (size_t at = text.find(kw); at != std::string::npos;
         at = text.find(kw, at + 1)) {
      bool wordStart =
          at == 0 || !(std::isalnum(text[at - 1]) || text[at - 1] == '_');
      size_t open = text.find_first_not_of(' ', at + n);
      if (!wordStart || open == std::string::npos || text[open] != '(')
        continue;
      int depth = 0;
      size_t close = open;
      std::vector<size_t> semis;
      for (; close < text.size(); ++close) {
        depth += text[close] == '(';
        depth -= text[close] == ')';
        if (text[close] == ';' && depth == 1)
          semis.push_back(close);
        if (depth == 0)
          break;
      }
      if (close >= text.size())
        continue;
      std::string inside = text.substr(open + 1, close - open - 1);
      if (std::string(kw) == "for" && semis.size() == 2)
        inside = text.substr(semis[0] + 1, semis[1] - semis[0] - 1);
      bool holds = col > open && col <= close + 1;
      if (best.empty() || (holds && !bestHolds)) {
        best = trim(inside);
        bestHolds = holds;
      }
    }
  }
  if (!best.empty())
    return best;
  // A conditional expression: `x = c ? a : b` -> `c`.
  size_t question = text.find('?');
  if (question != std::string::npos) {
    size_t start = text.rfind('=', question);
    start = start == std::string::npos ? 0 : start + 1;
    return trim(text.substr(start, question - start));
  }
  return trim(text);
}

std::string joinSources(const std::vector<std::string> &sources) {
  std::string s;
  for (size_t i = 0; i < sources.size(); ++i)
    s += (i == 0 ? "" : i + 1 == sources.size() ? " and " : ", ") + sources[i];
  return s.empty() ? "the thread" : s;
}

/// "8, 8, 8, 8, 8, 4, 2, 1" (runs of one value as "0 x3").
std::string perExecutionText(const std::vector<uint32_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[i])
      ++j;
    s += (s.empty() ? "" : ", ") + (j - i >= 2
                                        ? fmt::format("{} x{}", v[i], j - i + 1)
                                    : j > i ? fmt::format("{}, {}", v[i], v[j])
                                            : std::to_string(v[i]));
    i = j + 1;
  }
  return s;
}

/// Why ptxas may keep `b` a real SASS branch, as the note says it.
std::string realBranchText(const StaticBranch &b) {
  switch (sim::realBranchReason(driver::branchRegion(b))) {
  case sim::RealBranchReason::None:
    return "";
  case sim::RealBranchReason::ExitsLoop:
    return "it exits a loop";
  case sim::RealBranchReason::BodyHasLoop:
    return "its body holds a loop";
  case sim::RealBranchReason::BodyHasBarrier:
    return "its body holds a barrier";
  case sim::RealBranchReason::BodyTooLong:
    return fmt::format("its body is long ({} IR instructions)",
                       b.regionInstructions);
  case sim::RealBranchReason::MergesGlobalLoad:
    return "its body loads from global memory a value used after it";
  }
  return "";
}

/// The SASS note of a line whose divergent branches are `b` (the one that
/// may stay a real branch, else the largest).
std::string sassNote(const StaticBranch *b) {
  if (b && predictedPredicated(*b))
    return fmt::format(
        "SASS: predicted 0 divergent branch targets "
        "(smsp__sass_branch_targets_threads_divergent.sum): the body ({} IR "
        "instructions, no loop or barrier) is short enough for ptxas to "
        "predicate, as on every such branch measured on the H100; the "
        "counts above are kcheck's source-level figure",
        b->regionInstructions);
  return fmt::format("SASS: not predicted ({}, so ptxas may keep a real "
                     "branch); the counts above are kcheck's source-level "
                     "figure",
                     b ? realBranchText(*b) : "no static facts");
}

struct Group {
  core::SourceLoc loc;
  const StaticBranch *facts = nullptr;
  // For the SASS note: the first divergent branch instance (unrolled copies
  // share a line) that may stay a real branch, else the largest one.
  const StaticBranch *sassFacts = nullptr;
  bool sassPredicted = true;
  uint64_t executions = 0, divergent = 0, lanes = 0, taken = 0;
  std::vector<std::string> launchNotes;
  std::vector<std::string> uniformLaunches;
};

using Groups = std::map<std::pair<unsigned, unsigned>, Group>;

/// Adds one launch's instance of a branch to its line's group.
void addToGroup(const Session &s, size_t li, const LaunchBranch &b, Group &g) {
  g.loc = b.loc;
  g.facts = b.facts;
  if (b.stats->divergentExecutions && g.sassPredicted) {
    if (!b.facts || !predictedPredicated(*b.facts)) {
      g.sassPredicted = false;
      g.sassFacts = b.facts;
    } else if (!g.sassFacts ||
               b.facts->regionInstructions > g.sassFacts->regionInstructions) {
      g.sassFacts = b.facts;
    }
  }
  g.executions += b.stats->executions;
  g.divergent += b.stats->divergentExecutions;
  g.lanes += b.stats->activeLanes;
  g.taken += b.stats->takenLanes;
  std::string call = describeLaunchCall(s, li);
  if (!b.stats->divergentExecutions) {
    g.uniformLaunches.push_back(call);
    return;
  }
  std::string note = fmt::format(
      "in launch {}: {} of {} warp executions divergent; lanes {} to the "
      "true side, {} to the false side",
      call, b.stats->divergentExecutions, b.stats->executions,
      b.stats->takenLanes, b.stats->activeLanes - b.stats->takenLanes);
  const auto &perExec = b.stats->divergentWarpsByExecution;
  if (perExec.size() > 1)
    note += fmt::format("; divergent warps per execution (loop "
                        "iteration) in block (0,0,0): {}",
                        perExecutionText(perExec));
  g.launchNotes.push_back(note);
}

/// The thread-dependent or divergent branches of every launch, by line and
/// column.
Groups branchGroups(const Session &s) {
  Groups groups;
  for (size_t li = 0; li < s.launches.size(); ++li)
    for (const LaunchBranch &b : launchBranches(s, li)) {
      if (!b.stats->executions)
        continue;
      bool dependent =
          b.facts && b.facts->uniformity != BranchUniformity::Uniform;
      if (dependent || b.stats->divergentExecutions)
        addToGroup(s, li, b, groups[{b.loc.line, b.loc.col}]);
    }
  return groups;
}

/// The warning for a branch that split warps.
void explainDivergence(core::Diagnostic &d, const Group &g,
                       const std::string &why) {
  d.severity = core::Severity::Warning;
  d.message = fmt::format(
      "divergent branch: {} of {} warp executions ({:.1f}%) split the "
      "warp; {:.1f} lanes on the true side, {:.1f} on the false side "
      "per execution",
      g.divergent, g.executions, 100.0 * g.divergent / g.executions,
      double(g.taken) / g.executions, double(g.lanes - g.taken) / g.executions);
  d.addNote(why);
  for (const std::string &n : g.launchNotes)
    d.addNote(n);
  if (!g.uniformLaunches.empty()) {
    std::string list;
    for (const std::string &l : g.uniformLaunches)
      list += (list.empty() ? "" : "; ") + l;
    d.addNote("warp-uniform (no warp split) in launch " + list);
  }
  d.addNote(sassNote(g.sassFacts));
}

} // namespace

std::vector<core::Diagnostic> divergentBranchDiagnostics(const Session &s,
                                                         bool remarks) {
  std::vector<std::string> source = readLines(s.mainFile);
  std::vector<core::Diagnostic> out;
  for (auto &[key, g] : branchGroups(s)) {
    std::string cond = g.loc.line && g.loc.line <= source.size()
                           ? conditionText(source[g.loc.line - 1], g.loc.col)
                           : "";
    std::string why =
        g.facts
            ? fmt::format("`{}` depends on {}{}", cond,
                          joinSources(g.facts->sources),
                          g.facts->uniformity == BranchUniformity::WarpUniform
                              ? " only at warp granularity"
                              : "")
            : fmt::format("`{}` differs between threads", cond);
    core::Diagnostic d;
    d.loc = g.loc;
    d.checkId = "divergent-branch";
    if (g.divergent) {
      explainDivergence(d, g, why);
      out.push_back(std::move(d));
    } else if (remarks) {
      d.severity = core::Severity::Remark;
      d.message = fmt::format(
          "thread-dependent branch is warp-uniform: no warp split in {} warp "
          "executions",
          g.executions);
      d.addNote(why);
      out.push_back(std::move(d));
    }
  }
  return out;
}

namespace {

/// `num / den` to one decimal, rounded towards `down` ? 0 : infinity, so a
/// share of active lanes below 100% never prints as 100.0 (nor idle lanes
/// above 0 as 0.0).
double tenths(double num, double den, bool down) {
  double x = num / den * 10.0;
  return (down ? std::floor(x) : std::ceil(x)) / 10.0;
}

/// The "idle lanes by line" rows: the lines (each instruction on its
/// innermost line) whose loads, stores and branches ran with idle lanes,
/// lowest SIMT efficiency first, the first kShown of them.
std::string simtLineRows(const core::LaunchReport &launch) {
  constexpr size_t kShown = 5;
  std::vector<const core::LineReport *> idle;
  for (const core::LineReport &l : launch.innermostLines)
    if (l.simt.activeLanes < l.simt.warpInst * 32)
      idle.push_back(&l);
  if (idle.empty())
    return "";
  auto efficiency = [](const core::LineReport *l) {
    return double(l->simt.activeLanes) / double(l->simt.warpInst * 32);
  };
  std::stable_sort(idle.begin(), idle.end(), [&](const auto *a, const auto *b) {
    return efficiency(a) < efficiency(b);
  });
  std::string out = "  idle lanes by line (loads, stores and branches; "
                    "lowest SIMT efficiency first):\n";
  for (size_t i = 0; i < idle.size() && i < kShown; ++i) {
    const core::LineReport &l = *idle[i];
    out += fmt::format(
        "    {:<24} {:5.1f}% active, {:.1f} lanes per warp instruction "
        "({} warp instructions)\n",
        fmt::format("{}:{}", core::baseName(l.file), l.line),
        tenths(100.0 * double(l.simt.activeLanes), double(l.simt.warpInst * 32),
               true),
        tenths(double(l.simt.activeLanes), double(l.simt.warpInst), true),
        l.simt.warpInst);
  }
  if (idle.size() > kShown)
    out += fmt::format("    (and {} more line(s) below 100%)\n",
                       idle.size() - kShown);
  return out;
}

} // namespace

std::string divergenceSummaryRows(const Session &s, size_t li) {
  const SimulatedLaunch &sl = s.launches[li];
  const core::LaunchReport &lr = s.report.launches[li];
  if (!sl.kernel || !lr.simulated)
    return "";
  uint64_t executions = 0, divergent = 0;
  unsigned sassUnknown = 0;
  for (const LaunchBranch &b : launchBranches(s, li)) {
    executions += b.stats->executions;
    divergent += b.stats->divergentExecutions;
    if (b.stats->divergentExecutions &&
        !(b.facts && predictedPredicated(*b.facts)))
      ++sassUnknown;
  }
  std::string out = fmt::format(
      "  branches      : {} warp executions, {} divergent (source level)\n",
      executions, divergent);
  std::optional<uint64_t> sass = predictSassDivergentTargets(sl, s.mainFile);
  out += sass ? fmt::format("  SASS branches : "
                            "smsp__sass_branch_targets_threads_divergent.sum "
                            "predicted {} (ptxas predicates every divergent "
                            "body)\n",
                            *sass)
         : sassUnknown
             ? fmt::format("  SASS branches : {} divergent branch(es) may stay "
                           "real SASS branches; "
                           "smsp__sass_branch_targets_threads_divergent.sum "
                           "not predicted\n",
                           sassUnknown)
             : "  SASS branches : "
               "smsp__sass_branch_targets_threads_divergent.sum not "
               "predicted (no static branch facts)\n";
  // SIMT efficiency over the instructions whose lanes the simulation counts
  // per execution (core::SimtCounts): the sum of the per-line figures.
  core::SimtCounts simt = sim::simtCounts(sl.result);
  uint64_t slots = simt.warpInst * 32, active = simt.activeLanes;
  if (slots) {
    const core::Dim3 &block = lr.config.block;
    unsigned absent = unsigned((32 - block.count() % 32) % 32);
    out += fmt::format(
        "  SIMT efficiency: {:.1f}% of lane-slots active over branches and "
        "memory instructions; {:.1f}% idle from divergence or exited "
        "threads{}\n",
        tenths(100.0 * double(active), double(slots), true),
        tenths(100.0 * double(slots - active), double(slots), false),
        absent ? fmt::format(" and from the {} absent lanes of each block's "
                             "last warp",
                             absent)
               : " (no absent lanes: the block is whole warps)");
    out += simtLineRows(lr);
  }
  return out;
}

extern const Check kDivergentBranchCheck{
    "divergent-branch",
    core::Severity::Warning,
    {driver::Command::Divergence, driver::Command::Run},
    /*sanitizer=*/false,
    /*shadow=*/nullptr,
    divergentBranchDiagnostics,
    divergenceSummaryRows,
    "slides_reduction.cu",
};

} // namespace kcheck::checks

#include "checks/UncoalescedAccess.h"
#include "checks/Registry.h"

#include "core/ArchSpec.h"
#include "simulator/models/LanePattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace kcheck::checks {

using driver::describeLaunch;
using driver::describeLaunchCall;
using driver::indexExpressionsText;
using driver::Session;
using driver::SimulatedLaunch;

namespace {

struct Totals {
  uint64_t executions = 0, requests = 0, sectors = 0, ideal = 0;
  uint64_t usedBytes = 0, excessExecutions = 0;
  const sim::GlobalWarp *worst = nullptr; // most sectors over the ideal

  void add(const sim::GlobalAccessStats &st) {
    addCounts(st);
    if (!worst || excessOf(st.worst) > excessOf(*worst))
      worst = &st.worst;
  }
  /// Adds the counts of an instruction's statistics or of another launch's
  /// totals (not a worst warp).
  template <class Counts> void addCounts(const Counts &c) {
    executions += c.executions;
    requests += c.requests;
    sectors += c.sectors;
    ideal += c.ideal;
    usedBytes += c.usedBytes;
    excessExecutions += c.excessExecutions;
  }
  bool uncoalesced() const {
    return sectors > ideal &&
           (sectors - ideal) * 100 >= ideal * kExcessThresholdPercent;
  }
  static uint32_t excessOf(const sim::GlobalWarp &w) {
    return w.sectors - w.ideal;
  }
};

struct Group {
  core::SourceLoc loc; // the first access of the line
  std::string array;
  bool store = false;
  std::map<size_t, Totals> byLaunch; // position in Session::launches
  std::vector<std::string> expressions;
};

/// "4", "4.8": a per-request average, whole when it is.
std::string percent(uint64_t part, uint64_t whole) {
  return fmt::format("{:.0f}%",
                     whole ? 100.0 * double(part) / double(whole) : 0.0);
}

// "0-15,17,20-31"
std::string laneRanges(const std::vector<unsigned> &lanes) {
  std::string s;
  for (size_t i = 0; i < lanes.size();) {
    size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1)
      ++j;
    s += (s.empty() ? "" : ",") +
         (j > i ? fmt::format("{}-{}", lanes[i], lanes[j])
                : std::to_string(lanes[i]));
    i = j + 1;
  }
  return s;
}

std::string elements(uint64_t bytes, unsigned elementBytes) {
  if (bytes % elementBytes)
    return fmt::format("{} bytes", bytes);
  uint64_t n = bytes / elementBytes;
  return fmt::format("{} bytes = {} element{}", bytes, n, n == 1 ? "" : "s");
}

using PatternKind = sim::LanePattern::Kind;

struct Pattern {
  PatternKind kind = PatternKind::None;
  std::string text; // "lanes 0-31 access ..."
};

/// "each starting on a 32-byte sector boundary", "starting 0, 4 bytes into a
/// 32-byte sector": where the runs of a Runs pattern begin.
std::string runStarts(const std::vector<sim::LanePattern::Run> &runs,
                      unsigned sectorBytes) {
  bool same = std::all_of(runs.begin(), runs.end(), [&](const auto &r) {
    return r.misalignment == runs.front().misalignment;
  });
  if (same && runs.front().misalignment == 0)
    return fmt::format("each starting on a {}-byte sector boundary",
                       sectorBytes);
  if (same)
    return fmt::format("each starting {} bytes into a {}-byte sector",
                       runs.front().misalignment, sectorBytes);
  std::string starts;
  for (size_t r = 0; r < runs.size(); ++r)
    starts += (r ? ", " : "") + std::to_string(runs[r].misalignment);
  return fmt::format("starting {} bytes into a {}-byte sector", starts,
                     sectorBytes);
}

/// A Runs pattern in words: how many runs, how long, how far apart.
std::string runsText(const sim::LanePattern &l, const std::string &who,
                     const std::string &sharing, unsigned B,
                     unsigned sectorBytes) {
  std::string lengths;
  bool sameLength = true, sameGap = true;
  for (size_t r = 0; r < l.runs.size(); ++r) {
    sameLength &= l.runs[r].length == l.runs[0].length;
    lengths += (r ? ", " : "") + std::to_string(l.runs[r].length);
    if (r >= 2)
      sameGap &= l.runs[r].first - l.runs[r - 1].first ==
                 l.runs[1].first - l.runs[0].first;
  }
  int64_t gap = int64_t(l.runs[1].first - l.runs[0].first);
  std::string shape =
      l.stride == int64_t(B)
          ? ""
          : fmt::format(", each run at a constant stride of {} elements ({} "
                        "bytes)",
                        l.stride / int64_t(B), l.stride);
  return fmt::format("{} access {} {}runs of {} {}-byte elements{}{}{}, {}",
                     who, l.runs.size(),
                     l.stride == int64_t(B) ? "contiguous " : "",
                     sameLength ? std::to_string(l.runs[0].length) : lengths, B,
                     sameGap ? fmt::format(", {} bytes apart", gap) : "",
                     sharing, shape, runStarts(l.runs, sectorBytes));
}

/// One warp's lane addresses (sim::classifyLanes) in a CUDA programmer's
/// words: broadcast, contiguous but misaligned, strided, rows, gather.
Pattern classify(const sim::GlobalWarp &w, unsigned sectorBytes) {
  const unsigned B = w.bytesPerLane;
  sim::LanePattern l =
      sim::classifyLanes(w.addrs, w.activeMask, B, sectorBytes);
  Pattern p;
  p.kind = l.kind;
  if (l.lanes.empty())
    return p;
  const std::string who = "lane" +
                          std::string(l.lanes.size() > 1 ? "s " : " ") +
                          laneRanges(l.lanes);
  const size_t n = l.lanes.size(), distinct = l.addresses.size();
  std::string sharing =
      distinct == n ? ""
      : l.lanesPerAddress
          ? fmt::format(", each read by {} lanes", l.lanesPerAddress)
          : ", some read by several lanes";
  switch (l.kind) {
  case PatternKind::None:
    break;
  case PatternKind::Single:
    p.text = fmt::format("only {} is active", who);
    break;
  case PatternKind::Broadcast:
    p.text = distinct == 1
                 ? fmt::format("{} all access one address: a broadcast, one "
                               "sector serves the whole warp",
                               who)
                 : fmt::format("{} access only {} distinct addresses{}: a "
                               "broadcast within each group of lanes, one "
                               "sector per address",
                               who, distinct, sharing);
    break;
  case PatternKind::Contiguous:
    p.text = fmt::format("{} access {} contiguous {}-byte elements{}, ", who,
                         distinct, B, sharing);
    p.text +=
        l.misalignment
            ? fmt::format("starting {} bytes into a {}-byte sector: "
                          "misaligned by {}",
                          l.misalignment, sectorBytes,
                          elements(l.misalignment, B))
            : fmt::format("starting on a {}-byte sector boundary", sectorBytes);
    break;
  case PatternKind::Strided:
    p.text = fmt::format(
        "{} access {}-byte elements at a constant stride of {} elements ({} "
        "bytes){}: the {} bytes used span {} bytes",
        who, B, l.stride / int64_t(B), l.stride, sharing, distinct * B,
        (distinct - 1) * uint64_t(std::abs(l.stride)) + B);
    break;
  case PatternKind::Runs:
    p.text = runsText(l, who, sharing, B, sectorBytes);
    break;
  case PatternKind::Scattered:
    p.text = fmt::format("{} access {} scattered {}-byte elements{} (a "
                         "gather/scatter: no constant stride)",
                         who, distinct, B, sharing);
    break;
  }
  return p;
}

/// "each of the 8 sectors has 16 of its 32 bytes used" or the list.
std::string sectorUse(const sim::GlobalWarp &w, unsigned sectorBytes) {
  std::map<uint64_t, std::map<uint64_t, bool>> bySector; // sector -> addrs
  for (unsigned lane = 0; lane < 32; ++lane)
    if ((w.activeMask >> lane) & 1u)
      for (uint64_t a = w.addrs[lane]; a < w.addrs[lane] + w.bytesPerLane;
           a += sectorBytes - a % sectorBytes)
        bySector[a / sectorBytes][a] = true;
  std::vector<uint64_t> used;
  for (auto &[sector, starts] : bySector) {
    uint64_t bytes = 0;
    for (auto &[a, unused] : starts)
      bytes +=
          std::min<uint64_t>(w.bytesPerLane, sectorBytes - a % sectorBytes);
    used.push_back(std::min<uint64_t>(bytes, sectorBytes));
  }
  if (used.empty())
    return "";
  if (std::all_of(used.begin(), used.end(),
                  [&](uint64_t u) { return u == used.front(); }))
    return fmt::format("each of the {} sector{} has {} of its {} bytes used",
                       used.size(), used.size() == 1 ? "" : "s", used.front(),
                       sectorBytes);
  std::string list;
  for (size_t i = 0; i < used.size() && i < 16; ++i)
    list += (i ? ", " : "") + std::to_string(used[i]);
  if (used.size() > 16)
    list += ", ...";
  return fmt::format("bytes used of each sector's {}, in address order: {}",
                     sectorBytes, list);
}

/// The source name of an IR object: "A.addr.0355" (a parameter's spill
/// slot, renamed by the pipeline) is "A".
std::string sourceName(std::string name) {
  size_t addr = name.find(".addr");
  if (addr != std::string::npos)
    name.resize(addr);
  while (true) {
    size_t dot = name.find_last_of('.');
    if (dot == std::string::npos || dot + 1 == name.size() ||
        name.find_first_not_of("0123456789", dot + 1) != std::string::npos)
      return name;
    name.resize(dot);
  }
}

/// Whether `text` mentions `name` as a whole identifier: the subscript found
/// at an access's column may belong to another array of the statement.
bool mentions(const std::string &text, const std::string &name) {
  auto identChar = [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  };
  for (size_t at = text.find(name); at != std::string::npos;
       at = text.find(name, at + 1))
    if ((at == 0 || !identChar(text[at - 1])) &&
        (at + name.size() == text.size() || !identChar(text[at + name.size()])))
      return true;
  return false;
}

std::string accessName(const Group &g) {
  std::string name = g.array.empty() ? "global memory" : "'" + g.array + "'";
  return g.store ? "global store to " + name : "global load of " + name;
}

using GroupKey = std::tuple<std::string, unsigned, std::string, bool>;

/// The global accesses by (file, line, array, store), over every launch.
std::map<GroupKey, Group> accessGroups(const Session &s) {
  std::map<GroupKey, Group> groups;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const SimulatedLaunch &sl = s.launches[li];
    if (!sl.kernel || !s.report.launches[li].simulated)
      continue;
    const auto &insts = sl.kernel->insts();
    for (size_t i = 0; i < sl.result.perInst.size(); ++i) {
      const sim::GlobalAccessStats &st = sl.result.perInst[i].global;
      if (st.executions == 0)
        continue;
      const sim::InstInfo &info = insts[i];
      core::SourceLoc loc = sim::userLocation(info, s.mainFile);
      bool store = info.kind == sim::AccessKind::Store;
      std::string name = sourceName(info.objectName);
      Group &g = groups[{loc.file, loc.line, name, store}];
      if (!g.loc.valid() || loc.col < g.loc.col)
        g.loc = loc;
      g.array = name;
      g.store = store;
      if (const analyzer::SubscriptFact *f =
              analyzer::findSubscript(s.subscripts, loc))
        if ((name.empty() || mentions(f->fullText, name)) &&
            std::find(g.expressions.begin(), g.expressions.end(),
                      f->fullText) == g.expressions.end())
          g.expressions.push_back(f->fullText);
      g.byLaunch[li].add(st);
    }
  }
  return groups;
}

/// The warp that explains a group: the worst over the launches where it is
/// uncoalesced, or over all of them when it is in none.
const sim::GlobalWarp *explainingWarp(const Group &g) {
  bool anyBad =
      std::any_of(g.byLaunch.begin(), g.byLaunch.end(),
                  [](const auto &lt) { return lt.second.uncoalesced(); });
  const sim::GlobalWarp *worst = nullptr;
  for (auto &[li, t] : g.byLaunch)
    if (t.uncoalesced() == anyBad &&
        (!worst || Totals::excessOf(*t.worst) > Totals::excessOf(*worst)))
      worst = t.worst;
  return worst;
}

unsigned sectorBytesOf(const Session &s) {
  std::optional<core::ArchSpec> arch = core::findArch(s.report.arch);
  return arch ? arch->sectorBytes : 32;
}

/// What a group's finding is about: its global array, load or store.
core::Subject subjectOf(const Group &g) {
  return {g.array, core::Subject::Space::Global,
          g.store ? core::Subject::Direction::Store
                  : core::Subject::Direction::Load};
}

} // namespace

std::vector<UncoalescedWarp> uncoalescedWorstWarps(const Session &s) {
  std::vector<UncoalescedWarp> out;
  for (auto &[key, g] : accessGroups(s))
    if (std::any_of(g.byLaunch.begin(), g.byLaunch.end(),
                    [](const auto &lt) { return lt.second.uncoalesced(); }))
      out.push_back(
          {g.loc, subjectOf(g), *explainingWarp(g), sectorBytesOf(s)});
  return out;
}

namespace {

/// The remark for a group that is no finding: why not (coalesced, a
/// broadcast, below the threshold). The remark is the same check's
/// (`--checks=-uncoalesced-access` silences it, `explain` knows it).
void explainNoFinding(core::Diagnostic &d, const Group &g, const Totals &all,
                      const Pattern &pattern) {
  d.severity = core::Severity::Remark;
  std::string perRequest = core::averageText(all.sectors, all.requests);
  if (all.sectors == all.ideal)
    d.message = fmt::format(
        "{} is {}: {} sectors per request, the ideal", accessName(g),
        pattern.kind == PatternKind::Broadcast ? "a broadcast, not "
                                                 "uncoalesced"
                                               : "coalesced",
        perRequest);
  else
    d.message = fmt::format(
        "{} is nearly coalesced: {} sectors per request where {} would "
        "do ({} excess, below the {}% threshold)",
        accessName(g), perRequest, core::averageText(all.ideal, all.requests),
        percent(all.sectors - all.ideal, all.sectors), kExcessThresholdPercent);
}

/// "in launches A, B; not in launch C (2 sectors per request, the ideal)".
std::string launchesText(const Session &s, const Group &g,
                         const std::vector<size_t> &bad,
                         const std::vector<size_t> &good) {
  std::string launches;
  for (size_t li : bad)
    launches += (launches.empty() ? "" : ", ") + describeLaunchCall(s, li);
  std::string others;
  for (size_t li : good) {
    const Totals &t = g.byLaunch.at(li);
    others += fmt::format(
        "; not in launch {} ({} sectors per request{})",
        describeLaunchCall(s, li), core::averageText(t.sectors, t.requests),
        t.sectors == t.ideal
            ? ", the ideal"
            : ", " + core::averageText(t.ideal, t.requests) +
                  " ideal, below the " +
                  std::to_string(kExcessThresholdPercent) + "% threshold");
  }
  return fmt::format("in launch{} {}{}", bad.size() > 1 ? "es" : "", launches,
                     others);
}

/// The warning for a group uncoalesced in the launches `bad`.
void explainFinding(core::Diagnostic &d, const Session &s, const Group &g,
                    const std::vector<size_t> &bad,
                    const std::vector<size_t> &good, const Pattern &pattern,
                    const std::string &where) {
  const unsigned sectorBytes = sectorBytesOf(s);
  const sim::GlobalWarp &worst = *explainingWarp(g);
  Totals flagged;
  for (size_t li : bad)
    flagged.addCounts(g.byLaunch.at(li));
  d.severity = core::Severity::Warning;
  d.message = fmt::format(
      "uncoalesced {}: {} sectors per request where {} would do ({} of {} "
      "bytes used)",
      accessName(g), core::averageText(flagged.sectors, flagged.requests),
      core::averageText(flagged.ideal, flagged.requests),
      percent(flagged.usedBytes, flagged.sectors * sectorBytes),
      g.store ? "written" : "fetched");
  d.addNote(launchesText(s, g, bad, good));
  d.addNote(fmt::format("{}: {}; {} sectors where {} would do", where,
                        pattern.text, worst.sectors, worst.ideal));
  if (std::string use = sectorUse(worst, sectorBytes); !use.empty())
    d.addNote("in that warp, " + use);
  d.addNote(
      fmt::format("{} requests, {} sectors for {} ideal ({} excess); {} of "
                  "{} warp executions exceed the ideal",
                  flagged.requests, flagged.sectors, flagged.ideal,
                  percent(flagged.sectors - flagged.ideal, flagged.sectors),
                  flagged.excessExecutions, flagged.executions));
}

} // namespace

std::vector<core::Diagnostic> coalescingDiagnostics(const Session &s,
                                                    bool remarks) {
  std::vector<core::Diagnostic> out;
  for (auto &[key, g] : accessGroups(s)) {
    Totals all;
    std::vector<size_t> bad, good;
    for (auto &[li, t] : g.byLaunch) {
      (t.uncoalesced() ? bad : good).push_back(li);
      all.addCounts(t);
    }
    if (bad.empty() && !remarks)
      continue;
    const sim::GlobalWarp *worst = explainingWarp(g);
    Pattern pattern = classify(*worst, sectorBytesOf(s));
    core::Diagnostic d;
    d.loc = g.loc;
    d.checkId = "uncoalesced-access";
    d.subject = subjectOf(g);
    if (!g.expressions.empty())
      d.addNote(indexExpressionsText(g.expressions));
    std::string where = fmt::format("block ({}) warp {}",
                                    core::toString(worst->block), worst->warp);
    if (bad.empty()) {
      explainNoFinding(d, g, all, pattern);
      d.addNote(fmt::format("{}: {}", where, pattern.text));
    } else {
      explainFinding(d, s, g, bad, good, pattern, where);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string coalescingSummaryRows(const Session &s, size_t li) {
  const core::LaunchReport &l = s.report.launches[li];
  const SimulatedLaunch &sl = s.launches[li];
  if (!l.simulated || !sl.kernel)
    return "";
  Totals byKind[2]; // load, store
  for (size_t i = 0; i < sl.result.perInst.size(); ++i) {
    const sim::GlobalAccessStats &st = sl.result.perInst[i].global;
    if (st.executions)
      byKind[sl.kernel->insts()[i].kind == sim::AccessKind::Store].add(st);
  }
  std::string out;
  const char *names[2] = {"loads", "stores"};
  for (int k = 0; k < 2; ++k) {
    const Totals &t = byKind[k];
    out += fmt::format("  global {:6}: {:>12} instructions {:>12} requests "
                       "{:>12} sectors {:>12} ideal {:>12} excess ({:.1f}%)\n",
                       names[k], t.executions, t.requests, t.sectors, t.ideal,
                       t.sectors - t.ideal,
                       t.sectors ? 100.0 * double(t.sectors - t.ideal) /
                                       double(t.sectors)
                                 : 0.0);
  }
  return out;
}

extern const Check kUncoalescedAccessCheck{
    "uncoalesced-access",
    core::Severity::Warning,
    {driver::Command::Coalescing, driver::Command::Run},
    /*sanitizer=*/false,
    /*shadow=*/nullptr,
    coalescingDiagnostics,
    coalescingSummaryRows,
    "slides_coalescing.cu",
};

} // namespace kcheck::checks

#include "checks/UncoalescedAccess.h"
#include "checks/Registry.h"

#include "core/ArchSpec.h"

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
    executions += st.executions;
    requests += st.requests;
    sectors += st.sectors;
    ideal += st.ideal;
    usedBytes += st.usedBytes;
    excessExecutions += st.excessExecutions;
    if (!worst || excessOf(st.worst) > excessOf(*worst))
      worst = &st.worst;
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
std::string average(uint64_t total, uint64_t requests) {
  if (requests == 0)
    return "0";
  if (total % requests == 0)
    return std::to_string(total / requests);
  return fmt::format("{:.1f}", double(total) / double(requests));
}

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

enum class PatternKind {
  None,
  Single,
  Broadcast,
  Contiguous,
  Strided,
  Runs,
  Scattered
};

struct Pattern {
  PatternKind kind = PatternKind::None;
  std::string text; // "lanes 0-31 access ..."
};

/// Classifies one warp's lane addresses: what a CUDA programmer would say
/// about them (broadcast, contiguous but misaligned, strided, rows, gather).
Pattern classify(const sim::GlobalWarp &w, unsigned sectorBytes) {
  const unsigned B = w.bytesPerLane;
  std::vector<unsigned> lanes;
  std::vector<uint64_t> firstSeen; // distinct addresses, in lane order
  std::map<uint64_t, unsigned> readers;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!((w.activeMask >> lane) & 1u))
      continue;
    lanes.push_back(lane);
    if (readers[w.addrs[lane]]++ == 0)
      firstSeen.push_back(w.addrs[lane]);
  }
  Pattern p;
  if (lanes.empty())
    return p;
  const std::string who =
      "lane" + std::string(lanes.size() > 1 ? "s " : " ") + laneRanges(lanes);
  const size_t n = lanes.size(), distinct = firstSeen.size();
  if (n == 1) {
    p.kind = PatternKind::Single;
    p.text = fmt::format("only {} is active", who);
    return p;
  }
  unsigned share = unsigned(n / distinct);
  bool evenShare = true;
  for (auto &[addr, count] : readers)
    evenShare &= count == share;
  std::string sharing = distinct == n ? ""
                        : evenShare
                            ? fmt::format(", each read by {} lanes", share)
                            : ", some read by several lanes";
  if (distinct == 1) {
    p.kind = PatternKind::Broadcast;
    p.text = fmt::format("{} all access one address: a broadcast, one sector "
                         "serves the whole warp",
                         who);
    return p;
  }
  if (distinct * 4 <= n) {
    p.kind = PatternKind::Broadcast;
    p.text = fmt::format("{} access only {} distinct addresses{}: a "
                         "broadcast within each group of lanes, one sector "
                         "per address",
                         who, distinct, sharing);
    return p;
  }

  std::vector<int64_t> diffs;
  for (size_t i = 1; i < distinct; ++i)
    diffs.push_back(int64_t(firstSeen[i] - firstSeen[i - 1]));
  bool constant = std::all_of(diffs.begin(), diffs.end(),
                              [&](int64_t d) { return d == diffs.front(); });
  const uint64_t lowest = *std::min_element(firstSeen.begin(), firstSeen.end());
  if (constant && diffs.front() == int64_t(B)) {
    p.kind = PatternKind::Contiguous;
    uint64_t into = lowest % sectorBytes;
    p.text = fmt::format("{} access {} contiguous {}-byte elements{}, ", who,
                         distinct, B, sharing);
    p.text += into ? fmt::format("starting {} bytes into a {}-byte sector: "
                                 "misaligned by {}",
                                 into, sectorBytes, elements(into, B))
                   : fmt::format("starting on a {}-byte sector boundary",
                                 sectorBytes);
    return p;
  }
  if (constant && diffs.front() % int64_t(B) == 0) {
    p.kind = PatternKind::Strided;
    int64_t stride = diffs.front() / int64_t(B);
    p.text =
        fmt::format("{} access {}-byte elements at a constant stride of "
                    "{} elements ({} bytes){}: the {} bytes used span {} bytes",
                    who, B, stride, diffs.front(), sharing, distinct * B,
                    (distinct - 1) * uint64_t(std::abs(diffs.front())) + B);
    return p;
  }
  // Groups of lanes (rows of a 2-D block, say), each contiguous or at one
  // constant stride, each possibly misaligned.
  std::vector<std::pair<size_t, size_t>> runs; // [first, last] in firstSeen
  for (size_t i = 0; i < distinct;) {
    size_t j = i;
    while (j + 1 < distinct && diffs[j] == diffs[i])
      ++j;
    runs.push_back({i, j});
    i = j + 1;
  }
  const int64_t inner = diffs.front();
  bool longRuns =
      runs.size() > 1 &&
      std::all_of(runs.begin(), runs.end(),
                  [&](const auto &r) {
                    return r.second > r.first && diffs[r.first] == inner;
                  }) &&
      inner > 0 && inner % int64_t(B) == 0;
  if (longRuns && runs.size() <= 8) {
    p.kind = PatternKind::Runs;
    std::string lengths;
    std::vector<uint64_t> offsets;
    std::vector<int64_t> gaps;
    bool sameLength = true;
    for (size_t r = 0; r < runs.size(); ++r) {
      size_t len = runs[r].second - runs[r].first + 1;
      sameLength &= len == runs[0].second - runs[0].first + 1;
      offsets.push_back(firstSeen[runs[r].first] % sectorBytes);
      lengths += (r ? ", " : "") + std::to_string(len);
      if (r)
        gaps.push_back(
            int64_t(firstSeen[runs[r].first] - firstSeen[runs[r - 1].first]));
    }
    bool sameGap = std::all_of(gaps.begin(), gaps.end(),
                               [&](int64_t g) { return g == gaps.front(); });
    std::string starts;
    if (std::all_of(offsets.begin(), offsets.end(),
                    [&](uint64_t o) { return o == offsets.front(); }))
      starts = offsets.front() == 0
                   ? fmt::format("each starting on a {}-byte sector boundary",
                                 sectorBytes)
                   : fmt::format("each starting {} bytes into a {}-byte "
                                 "sector",
                                 offsets.front(), sectorBytes);
    else {
      for (size_t r = 0; r < offsets.size(); ++r)
        starts += (r ? ", " : "") + std::to_string(offsets[r]);
      starts = fmt::format("starting {} bytes into a {}-byte sector", starts,
                           sectorBytes);
    }
    std::string shape =
        inner == int64_t(B)
            ? ""
            : fmt::format(", each run at a constant stride of {} elements ({} "
                          "bytes)",
                          inner / int64_t(B), inner);
    p.text = fmt::format(
        "{} access {} {}runs of {} {}-byte elements{}{}{}, {}", who,
        runs.size(), inner == int64_t(B) ? "contiguous " : "",
        sameLength ? std::to_string(runs[0].second - runs[0].first + 1)
                   : lengths,
        B, sameGap ? fmt::format(", {} bytes apart", gaps.front()) : "",
        sharing, shape, starts);
    return p;
  }
  p.kind = PatternKind::Scattered;
  p.text = fmt::format("{} access {} scattered {}-byte elements{} (a "
                       "gather/scatter: no constant stride)",
                       who, distinct, B, sharing);
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

} // namespace

std::vector<UncoalescedWarp> uncoalescedWorstWarps(const Session &s) {
  std::vector<UncoalescedWarp> out;
  for (auto &[key, g] : accessGroups(s))
    if (std::any_of(g.byLaunch.begin(), g.byLaunch.end(),
                    [](const auto &lt) { return lt.second.uncoalesced(); }))
      out.push_back(
          {g.loc, g.array, g.store, *explainingWarp(g), sectorBytesOf(s)});
  return out;
}

std::vector<core::Diagnostic> coalescingDiagnostics(const Session &s,
                                                    bool remarks) {
  const unsigned sectorBytes = sectorBytesOf(s);
  std::map<GroupKey, Group> groups = accessGroups(s);
  std::vector<core::Diagnostic> out;
  for (auto &[key, g] : groups) {
    Totals flagged, all;
    std::vector<size_t> bad, good;
    const sim::GlobalWarp *worst = explainingWarp(g);
    for (auto &[li, t] : g.byLaunch) {
      (t.uncoalesced() ? bad : good).push_back(li);
      all.executions += t.executions;
      all.requests += t.requests;
      all.sectors += t.sectors;
      all.ideal += t.ideal;
      all.usedBytes += t.usedBytes;
      all.excessExecutions += t.excessExecutions;
    }
    // Explain with the launches that are findings (all when none is).
    for (size_t li : bad.empty() ? good : bad) {
      const Totals &t = g.byLaunch[li];
      if (!bad.empty()) {
        flagged.executions += t.executions;
        flagged.requests += t.requests;
        flagged.sectors += t.sectors;
        flagged.ideal += t.ideal;
        flagged.usedBytes += t.usedBytes;
        flagged.excessExecutions += t.excessExecutions;
      }
    }
    if (bad.empty() && !remarks)
      continue;
    Pattern pattern = classify(*worst, sectorBytes);

    core::Diagnostic d;
    d.loc = g.loc;
    d.checkId = "uncoalesced-access";
    d.subject = {g.array, core::Subject::Space::Global,
                 g.store ? core::Subject::Direction::Store
                         : core::Subject::Direction::Load};
    auto note = [&](std::string text) { d.addNote(std::move(text)); };
    if (!g.expressions.empty())
      note(indexExpressionsText(g.expressions));
    std::string where = fmt::format("block ({}) warp {}",
                                    core::toString(worst->block), worst->warp);

    if (bad.empty()) {
      // Not a finding: say why, when asked. The remark is the same check's
      // (`--checks=-uncoalesced-access` silences it, `explain` knows it).
      d.severity = core::Severity::Remark;
      std::string perRequest = average(all.sectors, all.requests);
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
            accessName(g), perRequest, average(all.ideal, all.requests),
            percent(all.sectors - all.ideal, all.sectors),
            kExcessThresholdPercent);
      note(fmt::format("{}: {}", where, pattern.text));
      out.push_back(std::move(d));
      continue;
    }

    d.severity = core::Severity::Warning;
    d.message = fmt::format(
        "uncoalesced {}: {} sectors per request where {} would do ({} of {} "
        "bytes used)",
        accessName(g), average(flagged.sectors, flagged.requests),
        average(flagged.ideal, flagged.requests),
        percent(flagged.usedBytes, flagged.sectors * sectorBytes),
        g.store ? "written" : "fetched");

    std::string launches;
    for (size_t li : bad)
      launches += (launches.empty() ? "" : ", ") + describeLaunchCall(s, li);
    std::string others;
    for (size_t li : good) {
      const Totals &t = g.byLaunch[li];
      others += fmt::format(
          "; not in launch {} ({} sectors per request{})",
          describeLaunchCall(s, li), average(t.sectors, t.requests),
          t.sectors == t.ideal
              ? ", the ideal"
              : ", " + average(t.ideal, t.requests) + " ideal, below the " +
                    std::to_string(kExcessThresholdPercent) + "% threshold");
    }
    note(fmt::format("in launch{} {}{}", bad.size() > 1 ? "es" : "", launches,
                     others));
    note(fmt::format("{}: {}; {} sectors where {} would do", where,
                     pattern.text, worst->sectors, worst->ideal));
    std::string use = sectorUse(*worst, sectorBytes);
    if (!use.empty())
      note("in that warp, " + use);
    note(fmt::format("{} requests, {} sectors for {} ideal ({} excess); {} of "
                     "{} warp executions exceed the ideal",
                     flagged.requests, flagged.sectors, flagged.ideal,
                     percent(flagged.sectors - flagged.ideal, flagged.sectors),
                     flagged.excessExecutions, flagged.executions));
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

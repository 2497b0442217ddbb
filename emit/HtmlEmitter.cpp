#include "emit/HtmlEmitter.h"

#include "checks/BankConflict.h"
#include "checks/Registry.h"
#include "checks/UncoalescedAccess.h"
#include "core/SourcePath.h"
#include "emit/HtmlPictures.h"
#include "emit/SarifEmitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace kcheck::emit {

using checks::BankConflictWarp;
using checks::UncoalescedWarp;
using driver::describeLaunchCall;
using driver::Session;
using driver::SimulatedLaunch;

namespace {

// The page's style sheet and script (kStyleSheet, kScript).
#include "HtmlAssets.inc"

using html::escape;
using html::grouped;

/// What one launch executed on one source line.
struct LineFigures {
  uint64_t sharedInst = 0, sharedWavefronts = 0, sharedIdeal = 0;
  uint64_t globalInst = 0, globalRequests = 0, globalSectors = 0,
           globalIdeal = 0;
  uint64_t branches = 0, divergentBranches = 0;
  core::SimtCounts simt;

  void add(const sim::InstStats &st) {
    if (st.shared.executions) {
      sharedInst += st.shared.executions;
      sharedWavefronts += st.shared.wavefronts;
      sharedIdeal += st.shared.ideal;
    }
    if (st.global.executions) {
      globalInst += st.global.executions;
      globalRequests += st.global.requests;
      globalSectors += st.global.sectors;
      globalIdeal += st.global.ideal;
    }
    branches += st.branch.executions;
    divergentBranches += st.branch.divergentExecutions;
    simt += sim::simtCounts(st);
  }
  LineFigures &operator+=(const LineFigures &o) {
    sharedInst += o.sharedInst;
    sharedWavefronts += o.sharedWavefronts;
    sharedIdeal += o.sharedIdeal;
    globalInst += o.globalInst;
    globalRequests += o.globalRequests;
    globalSectors += o.globalSectors;
    globalIdeal += o.globalIdeal;
    branches += o.branches;
    divergentBranches += o.divergentBranches;
    simt += o.simt;
    return *this;
  }
};

/// Per line of the main file: each simulated launch's figures there.
using LineTable =
    std::map<unsigned, std::vector<std::pair<size_t, LineFigures>>>;

LineTable lineTable(const Session &s) {
  LineTable table;
  for (size_t li = 0; li < s.launches.size(); ++li) {
    const SimulatedLaunch &sl = s.launches[li];
    if (!sl.kernel || !s.report.launches[li].simulated)
      continue;
    std::map<unsigned, LineFigures> lines;
    const auto &insts = sl.kernel->insts();
    for (size_t i = 0; i < sl.result.perInst.size(); ++i) {
      core::SourceLoc loc = sim::userLocation(insts[i], s.mainFile);
      if (loc.valid() && core::sameSourceFile(loc.file, s.mainFile))
        lines[loc.line].add(sl.result.perInst[i]);
    }
    for (auto &[line, figures] : lines)
      table[line].emplace_back(li, figures);
  }
  return table;
}

LineFigures launchTotals(const Session &s, size_t li) {
  LineFigures t;
  for (const sim::InstStats &st : s.launches[li].result.perInst)
    t.add(st);
  return t;
}

std::string percentText(uint64_t part, uint64_t whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * double(part) / double(whole))
               : "";
}

/// The counter cells of one source line (sums over its launches), with the
/// per-launch figures in the tooltip and the exact numbers as data-*
/// attributes for scripts and tests.
std::string
counterCells(const Session &s,
             const std::vector<std::pair<size_t, LineFigures>> &per) {
  LineFigures sum;
  std::string sharedTip, globalTip, branchTip;
  for (auto &[li, f] : per) {
    sum += f;
    std::string who = describeLaunchCall(s, li);
    if (f.sharedInst)
      sharedTip +=
          fmt::format("{}: {} instructions, {} wavefronts, {} ideal\n", who,
                      f.sharedInst, f.sharedWavefronts, f.sharedIdeal);
    if (f.globalInst)
      globalTip += fmt::format(
          "{}: {} instructions, {} requests, {} sectors, {} ideal\n", who,
          f.globalInst, f.globalRequests, f.globalSectors, f.globalIdeal);
    if (f.branches)
      branchTip += fmt::format("{}: {} of {} warp executions divergent\n", who,
                               f.divergentBranches, f.branches);
  }
  std::string out;
  if (sum.sharedInst) {
    uint64_t excess = sum.sharedWavefronts > sum.sharedIdeal
                          ? sum.sharedWavefronts - sum.sharedIdeal
                          : 0;
    out += fmt::format(
        "<td class=\"n shared{}\" data-wavefronts=\"{}\" data-ideal=\"{}\" "
        "title=\"{}\">{} <span class=\"of\">/ {}</span>{}</td>",
        excess ? " hot" : "", sum.sharedWavefronts, sum.sharedIdeal,
        escape(sharedTip), grouped(sum.sharedWavefronts),
        grouped(sum.sharedIdeal),
        excess
            ? fmt::format(" <span class=\"excess\">+{}</span>", grouped(excess))
            : "");
  } else {
    out += "<td class=\"n shared\"></td>";
  }
  if (sum.globalInst) {
    bool over = sum.globalSectors > sum.globalIdeal;
    out += fmt::format(
        "<td class=\"n global{}\" data-sectors=\"{}\" data-ideal=\"{}\" "
        "data-requests=\"{}\" title=\"{}\">{} <span class=\"of\">/ {}</span>"
        "<span class=\"req\">{} req</span></td>",
        over ? " hot" : "", sum.globalSectors, sum.globalIdeal,
        sum.globalRequests, escape(globalTip), grouped(sum.globalSectors),
        grouped(sum.globalIdeal), grouped(sum.globalRequests));
  } else {
    out += "<td class=\"n global\"></td>";
  }
  if (sum.branches)
    out += fmt::format("<td class=\"n branch{}\" data-divergent=\"{}\" "
                       "data-branches=\"{}\" title=\"{}\">{} <span "
                       "class=\"of\">/ {}</span></td>",
                       sum.divergentBranches ? " hot" : "",
                       sum.divergentBranches, sum.branches, escape(branchTip),
                       grouped(sum.divergentBranches), grouped(sum.branches));
  else
    out += "<td class=\"n branch\"></td>";
  uint64_t slots = sum.simt.warpInst * 32;
  out += slots ? fmt::format("<td class=\"n simt{}\">{}</td>",
                             sum.simt.activeLanes < slots ? " warm" : "",
                             percentText(sum.simt.activeLanes, slots))
               : "<td class=\"n simt\"></td>";
  return out;
}

// --- C++ highlighting: enough for CUDA kernels to read like an editor's.

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

const std::set<std::string> &keywords() {
  static const std::set<std::string> words = {"__global__",
                                              "__device__",
                                              "__host__",
                                              "__shared__",
                                              "__constant__",
                                              "__restrict__",
                                              "__syncthreads",
                                              "__syncwarp",
                                              "__forceinline__",
                                              "auto",
                                              "bool",
                                              "break",
                                              "case",
                                              "char",
                                              "const",
                                              "constexpr",
                                              "continue",
                                              "default",
                                              "do",
                                              "double",
                                              "else",
                                              "enum",
                                              "extern",
                                              "float",
                                              "for",
                                              "if",
                                              "inline",
                                              "int",
                                              "long",
                                              "namespace",
                                              "return",
                                              "short",
                                              "signed",
                                              "sizeof",
                                              "static",
                                              "struct",
                                              "switch",
                                              "template",
                                              "typename",
                                              "unsigned",
                                              "using",
                                              "void",
                                              "volatile",
                                              "while",
                                              "float2",
                                              "float4",
                                              "int2",
                                              "int4",
                                              "dim3",
                                              "size_t"};
  return words;
}

/// One line of source as HTML; `inComment` carries a /* comment across
/// lines; `mark` (1-based byte column, 0 for none) wraps the token there.
std::string highlight(std::string_view line, bool &inComment, unsigned mark) {
  std::string out;
  size_t i = 0;
  auto span = [&](std::string_view cls, size_t from, size_t to) {
    out += fmt::format("<span class=\"{}\">{}</span>", cls,
                       escape(line.substr(from, to - from)));
  };
  size_t first = line.find_first_not_of(" \t");
  if (!inComment && first != std::string_view::npos && line[first] == '#') {
    span("pp", 0, line.size());
    return out;
  }
  while (i < line.size()) {
    if (mark && i + 1 == mark) {
      size_t j = i;
      while (j < line.size() && isIdentChar(line[j]))
        ++j;
      if (j == i)
        ++j;
      span("mark", i, j);
      i = j;
      continue;
    }
    if (inComment) {
      size_t end = line.find("*/", i);
      size_t to = end == std::string_view::npos ? line.size() : end + 2;
      inComment = end == std::string_view::npos;
      span("cm", i, to);
      i = to;
    } else if (line.compare(i, 2, "//") == 0) {
      span("cm", i, line.size());
      i = line.size();
    } else if (line.compare(i, 2, "/*") == 0) {
      size_t end = line.find("*/", i + 2);
      size_t to = end == std::string_view::npos ? line.size() : end + 2;
      inComment = end == std::string_view::npos;
      span("cm", i, to);
      i = to;
    } else if (line[i] == '"' || line[i] == '\'') {
      size_t j = i + 1;
      while (j < line.size() && line[j] != line[i])
        j += line[j] == '\\' ? 2 : 1;
      j = std::min(line.size(), j + 1);
      span("st", i, j);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(line[i]))) {
      size_t j = i;
      while (j < line.size() && (isIdentChar(line[j]) || line[j] == '.'))
        ++j;
      span("nu", i, j);
      i = j;
    } else if (isIdentChar(line[i])) {
      size_t j = i;
      while (j < line.size() && isIdentChar(line[j]))
        ++j;
      std::string word(line.substr(i, j - i));
      if (keywords().count(word))
        span("kw", i, j);
      else
        out += escape(word);
      i = j;
    } else {
      out += escape(line.substr(i, 1));
      ++i;
    }
  }
  return out;
}

std::string severityClass(core::Severity s) {
  return std::string(core::severityName(s));
}

/// The finding's worst warp, drawn, when it has one: the warp of the same
/// place and subject (array, and load or store).
std::string pictureFor(const core::Diagnostic &d, const Session &s,
                       const std::vector<BankConflictWarp> &banks,
                       const std::vector<UncoalescedWarp> &sectors) {
  if (d.checkId == "bank-conflict")
    for (const BankConflictWarp &b : banks)
      if (b.loc == d.loc && b.subject == d.subject)
        return fmt::format(
            "<figure><figcaption>Worst warp: block ({}) warp {}, {} "
            "wavefronts where {} would do. Lanes &rarr; banks, each colour a "
            "distinct word of its bank; lanes of one colour in one column "
            "share a word.</figcaption>{}</figure>",
            core::toString(b.warp.block), b.warp.warp, b.warp.wavefronts,
            b.warp.ideal, html::bankPicture(b.warp, s.arch));
  if (d.checkId == "uncoalesced-access")
    for (const UncoalescedWarp &u : sectors)
      if (u.loc == d.loc && u.subject == d.subject)
        return fmt::format(
            "<figure><figcaption>Worst warp: block ({}) warp {}, {} sectors "
            "where {} would do. Lanes &rarr; {}-byte sectors in address "
            "order, with the bytes each sector's traffic "
            "uses.</figcaption>{}</figure>",
            core::toString(u.warp.block), u.warp.warp, u.warp.sectors,
            u.warp.ideal, u.sectorBytes,
            html::sectorPicture(u.warp, u.sectorBytes));
  return "";
}

std::string findingCard(const core::Diagnostic &d, size_t index,
                        const std::string &picture) {
  std::string out = fmt::format(
      "<div class=\"finding {}\" id=\"F{}\"><div class=\"fhead\"><span "
      "class=\"sev\">{}</span> <span class=\"msg\">{}</span>",
      severityClass(d.severity), index, core::severityName(d.severity),
      escape(d.message));
  if (!d.checkId.empty())
    out += fmt::format(" <a class=\"check\" href=\"#check-{0}\">[{0}]</a>",
                       escape(d.checkId));
  out += fmt::format("<span class=\"where\">{}:{}:{}</span></div>",
                     escape(d.loc.file), d.loc.line, d.loc.col);
  if (!d.notes.empty()) {
    out += "<ul class=\"notes\">";
    for (const core::Diagnostic &n : d.notes)
      out += "<li>" + escape(n.message) + "</li>";
    out += "</ul>";
  }
  return out + picture + "</div>\n";
}

std::string launchSection(const Session &s) {
  std::string out = "<section id=\"launches\"><h2>Launches</h2>\n";
  std::vector<html::LaunchBars> bars;
  for (size_t li = 0; li < s.report.launches.size(); ++li) {
    const core::LaunchReport &l = s.report.launches[li];
    html::LaunchBars b;
    b.title = describeLaunchCall(s, li);
    bool known = l.simulated && s.launches[li].kernel;
    LineFigures t = known ? launchTotals(s, li) : LineFigures{};
    using core::Metric;
    uint64_t wavefronts = l.metrics[Metric::SharedLdWavefronts] +
                          l.metrics[Metric::SharedStWavefronts];
    uint64_t sectors =
        l.metrics[Metric::GlobalLdSectors] + l.metrics[Metric::GlobalStSectors];
    b.countBars = {
        {"shared wavefronts / ideal", wavefronts, t.sharedIdeal, known},
        {"global sectors / ideal", sectors, t.globalIdeal, known}};
    b.efficiencyBars = {
        {"branch efficiency", t.branches, t.branches - t.divergentBranches,
         known},
        {"SIMT efficiency", t.simt.warpInst * 32, t.simt.activeLanes, known}};
    bars.push_back(std::move(b));
  }
  out += "<div class=\"chart\">" + html::launchChart(bars) + "</div>\n";
  out += "<p class=\"legend\"><span class=\"sw ideal\"></span>ideal "
         "<span class=\"sw excess\"></span>excess (bank conflicts, "
         "wasted sectors) &middot; branch efficiency: warp executions of "
         "conditional branches that did not diverge; SIMT efficiency: active "
         "lanes of the branches and memory instructions</p>\n";
  bool anyNote = false;
  for (const core::LaunchReport &l : s.report.launches)
    anyNote |= !l.notes.empty();
  if (anyNote || !s.report.notes.empty()) {
    out += "<ul class=\"launch-notes\">";
    for (const std::string &n : s.report.notes)
      out += "<li>" + escape(n) + "</li>";
    for (const core::LaunchReport &l : s.report.launches)
      for (const std::string &n : l.notes)
        out += fmt::format("<li>launch #{} {}: {}</li>", l.index,
                           escape(l.kernel), escape(n));
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

std::string sourceSection(const Session &s,
                          const std::vector<core::Diagnostic> &diags,
                          const std::string &source) {
  LineTable table = lineTable(s);
  std::vector<BankConflictWarp> banks = checks::bankConflictWorstWarps(s);
  std::vector<UncoalescedWarp> sectors = checks::uncoalescedWorstWarps(s);
  // Findings by main-file line; the others (headers, no location) go first.
  std::map<unsigned, std::vector<size_t>> byLine;
  std::vector<size_t> elsewhere;
  for (size_t k = 0; k < diags.size(); ++k)
    (diags[k].loc.valid() && core::sameSourceFile(diags[k].loc.file, s.mainFile)
         ? byLine[diags[k].loc.line]
         : elsewhere)
        .push_back(k);

  std::string out = "<section id=\"source\"><h2>Source</h2>\n";
  out +=
      "<label class=\"toggle\"><input type=\"checkbox\" id=\"only-counted\"> "
      "only lines with counts or findings</label>\n";
  for (size_t k : elsewhere)
    out += findingCard(diags[k], k, pictureFor(diags[k], s, banks, sectors));
  out += "<table class=\"src\"><thead><tr><th>line</th><th>shared "
         "wavefronts / ideal</th><th>global sectors / ideal</th><th>divergent "
         "/ branches</th><th>SIMT</th><th class=\"code\">code</th></tr>"
         "</thead><tbody>\n";
  bool inComment = false;
  unsigned number = 0;
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos)
      end = source.size();
    std::string_view line(source.data() + start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    start = end + 1;
    ++number;
    auto counted = table.find(number);
    auto found = byLine.find(number);
    std::string cls = counted != table.end() ? "counted" : "";
    unsigned mark = 0;
    if (found != byLine.end()) {
      const core::Diagnostic &d = diags[found->second.front()];
      cls += " has-finding " + severityClass(d.severity);
      mark = d.loc.col;
    }
    out += fmt::format("<tr id=\"L{0}\" class=\"{1}\"><td class=\"ln\"><a "
                       "href=\"#L{0}\">{0}</a></td>",
                       number, cls);
    out += counted != table.end() ? counterCells(s, counted->second)
                                  : "<td></td><td></td><td></td><td></td>";
    out += "<td class=\"code\">" + highlight(line, inComment, mark) +
           "</td></tr>\n";
    if (found != byLine.end()) {
      out += "<tr class=\"finding-row\"><td colspan=\"6\">";
      for (size_t k : found->second)
        out +=
            findingCard(diags[k], k, pictureFor(diags[k], s, banks, sectors));
      out += "</td></tr>\n";
    }
  }
  return out + "</tbody></table></section>\n";
}

std::string checksSection(const std::vector<core::Diagnostic> &diags) {
  std::string out;
  for (const checks::CheckPage &page : checks::checkPages())
    if (std::any_of(diags.begin(), diags.end(),
                    [&](const auto &d) { return d.checkId == page.id; }))
      out += fmt::format("<details id=\"check-{}\"><summary>{}: {}</summary>"
                         "<pre class=\"page\">{}</pre></details>\n",
                         escape(page.id), escape(page.id), escape(page.summary),
                         escape(page.text));
  return out.empty() ? ""
                     : "<section id=\"checks\"><h2>Checks</h2>\n" + out +
                           "</section>\n";
}

std::string findingsSummary(const std::vector<core::Diagnostic> &diags) {
  std::map<std::string, size_t> bySeverity;
  for (const core::Diagnostic &d : diags)
    ++bySeverity[severityClass(d.severity)];
  std::string out;
  for (const char *sev : {"error", "warning", "remark"}) {
    auto it = bySeverity.find(sev);
    if (it != bySeverity.end())
      out += fmt::format("<span class=\"pill {}\">{} {}{}</span>", sev,
                         it->second, sev, it->second == 1 ? "" : "s");
  }
  if (out.empty())
    out = "<span class=\"pill clean\">no findings</span>";
  if (!diags.empty()) {
    out += "<ol class=\"index\">";
    for (size_t k = 0; k < diags.size(); ++k)
      out += fmt::format("<li class=\"{}\"><a href=\"#{}\">{}:{}</a> {}</li>",
                         severityClass(diags[k].severity),
                         diags[k].loc.valid()
                             ? fmt::format("L{}", diags[k].loc.line)
                             : fmt::format("F{}", k),
                         escape(diags[k].loc.file), diags[k].loc.line,
                         escape(diags[k].message));
    out += "</ol>";
  }
  return out;
}

} // namespace

std::string htmlReport(const Session &s,
                       const std::vector<core::Diagnostic> &diags,
                       const std::string &source) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                    "charset=\"utf-8\">\n<meta name=\"viewport\" "
                    "content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>kcheck: {}</title>\n", escape(s.report.file));
  out += "<style>" + std::string(kStyleSheet) + "</style></head>\n<body>\n";
  size_t simulated = 0;
  for (const core::LaunchReport &l : s.report.launches)
    simulated += l.simulated;
  out += fmt::format(
      "<header><div class=\"brand\">kcheck report</div><h1>{}</h1><div "
      "class=\"meta\"><span>arch <b>{}</b></span>"
      "<span><b>{}</b> launch{}, {} simulated</span><span>kcheck {}</span>"
      "</div><div class=\"summary\">{}</div></header>\n<main>\n",
      escape(s.report.file), escape(s.report.arch), s.report.launches.size(),
      s.report.launches.size() == 1 ? "" : "es", simulated,
      driver::kKcheckVersion, findingsSummary(diags));
  out += launchSection(s);
  out += sourceSection(s, diags, source);
  out += checksSection(diags);
  out += "<footer>Per-line figures count each instruction on its innermost "
         "source line (JSON <code>lines_innermost</code>), summed over the "
         "launches; hover a cell for each launch's. Nsight Compute's source "
         "view also credits an inlined call's first line to the call "
         "line.</footer>\n</main>\n";
  out += "<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return out;
}

} // namespace kcheck::emit

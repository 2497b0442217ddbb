#include "driver/Fixes.h"

#include "core/Json.h"
#include "core/SourcePath.h"
#include "driver/UnifiedDiff.h"

#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace kcheck::driver {

namespace {

using analyzer::FixCandidate;
using analyzer::TextEdit;
using core::Metric;

/// "reduce_v5<256>" and "ns::k" name the kernels "reduce_v5" and "k", as
/// FixCandidate::kernel does.
std::string baseName(const std::string &kernel) {
  std::string n = kernel.substr(0, kernel.find('<'));
  size_t colon = n.rfind("::");
  return colon == std::string::npos ? n : n.substr(colon + 2);
}

bool isSharedCheck(const std::string &checkId) {
  return checkId == "bank-conflict";
}

/// A kernel's costs per line (innermost main-file line, as the warnings are
/// placed) and in all, over its launches in one analysis.
struct KernelCosts {
  bool ok = false; // compiled, and every launch of the kernel simulated
  size_t launches = 0;
  uint64_t sharedWavefronts = 0, globalSectors = 0;
  struct Line {
    uint64_t wavefronts = 0, sharedRequests = 0;
    uint64_t sectors = 0, globalRequests = 0;
  };
  std::map<unsigned, Line> lines;

  FixFigures figures(const std::string &checkId, unsigned firstLine,
                     unsigned lastLine) const {
    FixFigures f;
    f.launches = launches;
    f.sharedWavefronts = sharedWavefronts;
    f.globalSectors = globalSectors;
    for (auto it = lines.lower_bound(firstLine);
         it != lines.end() && it->first <= lastLine; ++it) {
      bool shared = isSharedCheck(checkId);
      f.lineCost += shared ? it->second.wavefronts : it->second.sectors;
      f.lineRequests +=
          shared ? it->second.sharedRequests : it->second.globalRequests;
    }
    return f;
  }
};

KernelCosts costsOf(const Session &s, const std::string &kernel) {
  KernelCosts k;
  k.ok = s.compiled && s.errors.empty();
  for (const core::LaunchReport &l : s.report.launches) {
    if (baseName(l.kernel) != kernel)
      continue;
    ++k.launches;
    k.ok &= l.simulated;
    const core::Counters &m = l.metrics;
    k.sharedWavefronts +=
        m[Metric::SharedLdWavefronts] + m[Metric::SharedStWavefronts];
    k.globalSectors += m[Metric::GlobalLdSectors] + m[Metric::GlobalStSectors];
    for (const core::LineReport &line : l.innermostLines) {
      if (!core::sameSourceFile(line.file, s.mainFile))
        continue;
      KernelCosts::Line &c = k.lines[line.line];
      const core::Counters &lm = line.metrics;
      c.wavefronts +=
          lm[Metric::SharedLdWavefronts] + lm[Metric::SharedStWavefronts];
      c.sharedRequests += lm[Metric::SharedLdInst] + lm[Metric::SharedStInst];
      c.sectors += lm[Metric::GlobalLdSectors] + lm[Metric::GlobalStSectors];
      c.globalRequests += lm[Metric::GlobalLdInst] + lm[Metric::GlobalStInst];
    }
  }
  k.ok &= k.launches > 0;
  return k;
}

/// Byte offset of the start of each line (index 0 is line 1).
std::vector<size_t> lineStarts(const std::string &text) {
  std::vector<size_t> starts = {0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      starts.push_back(i + 1);
  return starts;
}

/// 1-based line and column of byte `offset`.
std::pair<unsigned, unsigned> lineColumn(const std::vector<size_t> &starts,
                                         size_t offset) {
  size_t line = size_t(std::upper_bound(starts.begin(), starts.end(), offset) -
                       starts.begin());
  return {unsigned(line), unsigned(offset - starts[line - 1] + 1)};
}

/// Where byte `offset` of the original text lands once `edits` (sorted,
/// non-overlapping) are applied; inside an edit, its replacement's start
/// (`atEnd`: its end).
size_t mapOffset(const std::vector<TextEdit> &edits, size_t offset,
                 bool atEnd) {
  int64_t shift = 0;
  for (const TextEdit &e : edits) {
    if (offset < e.offset)
      break;
    if (offset < size_t(e.offset) + e.length)
      return size_t(int64_t(e.offset) + shift) +
             (atEnd ? e.replacement.size() : 0);
    shift += int64_t(e.replacement.size()) - int64_t(e.length);
  }
  return size_t(int64_t(offset) + shift);
}

/// The lines of the edited text that original line `line` became.
std::pair<unsigned, unsigned> mappedLines(const std::string &original,
                                          const std::string &edited,
                                          const std::vector<TextEdit> &edits,
                                          unsigned line) {
  std::vector<size_t> before = lineStarts(original), after = lineStarts(edited);
  if (line == 0 || line > before.size())
    return {line, line};
  size_t begin = before[line - 1];
  size_t end = line < before.size() ? before[line] - 1 : original.size();
  return {lineColumn(after, mapOffset(edits, begin, false)).first,
          lineColumn(after, mapOffset(edits, end, true)).first};
}

/// "4", "4.5": per request, whole when it is.
std::string noteText(const FixCandidate &c, const OfferedFix &f) {
  bool shared = isSharedCheck(c.checkId);
  const char *unit = shared ? "shared wavefronts" : "sectors";
  return fmt::format(
      "fix: {}: line {}: {} -> {} {} per request ({} -> {}); {}, {} "
      "launch{}: shared wavefronts {} -> {}, global sectors {} -> {} "
      "(re-simulated)",
      c.title, f.line,
      core::averageText(f.before.lineCost, f.before.lineRequests),
      core::averageText(f.after.lineCost, f.after.lineRequests), unit,
      f.before.lineCost, f.after.lineCost, c.kernel, f.before.launches,
      f.before.launches == 1 ? "" : "es", f.before.sharedWavefronts,
      f.after.sharedWavefronts, f.before.globalSectors, f.after.globalSectors);
}

/// The edits of every offered fix, each candidate once, in diagnostic
/// order; one overlapping an edit already kept is left out.
std::vector<size_t> fixesToApply(const Session &s, const FixSearch &search,
                                 std::vector<TextEdit> &edits) {
  std::vector<size_t> applied; // candidate indices
  for (const OfferedFix &f : search.fixes) {
    if (std::count(applied.begin(), applied.end(), f.candidate))
      continue;
    const FixCandidate &c = s.fixCandidates[f.candidate];
    std::vector<TextEdit> all = edits;
    all.insert(all.end(), c.edits.begin(), c.edits.end());
    if (analyzer::editsOverlap(all))
      continue;
    edits = std::move(all);
    applied.push_back(f.candidate);
  }
  return applied;
}

} // namespace

bool searchesFixes(const Options &o) {
  bool checkCommand = o.command == Command::BankConflicts ||
                      o.command == Command::Coalescing ||
                      o.command == Command::Check;
  bool wanted = o.applyFixes || o.printDiff ||
                (o.searchFixes && (o.format == OutputFormat::Text ||
                                   o.format == OutputFormat::Json));
  return checkCommand && wanted && !o.verify && !o.runHost;
}

namespace {

/// One search: the kernels' costs before any fix, and each candidate
/// re-simulated at most once (a candidate may serve several findings).
class FixSearcher {
public:
  FixSearcher(const Options &o, const Session &s, const std::string &source,
              FixSearch &search)
      : o_(o), s_(s), source_(source), search_(search) {}

  /// The verified candidate for finding `di` that leaves the least cost on
  /// its line (then in the kernel, then the smallest edit), if any.
  std::optional<OfferedFix> bestFix(size_t di, const core::Diagnostic &d);

private:
  struct Trial {
    std::string text;
    KernelCosts costs;
  };
  const Trial *trial(size_t ci);
  const KernelCosts &costsBefore(const std::string &kernel);

  const Options &o_;
  const Session &s_;
  const std::string &source_;
  FixSearch &search_;
  std::map<std::string, KernelCosts> before_; // per kernel
  std::map<size_t, Trial> trials_;            // per candidate
};

const FixSearcher::Trial *FixSearcher::trial(size_t ci) {
  if (auto it = trials_.find(ci); it != trials_.end())
    return &it->second;
  if (search_.resimulations >= kMaxResimulations)
    return nullptr;
  ++search_.resimulations;
  const FixCandidate &c = s_.fixCandidates[ci];
  Options again = o_;
  again.kernel = c.kernel;
  again.quiet = true;
  // Only the costs are compared: no sanitizer shadow state (it runs blocks
  // on one thread); a fault stops the launch either way, and a launch that
  // did not simulate refuses the candidate.
  again.sanitizers = {};
  again.stopAtGlobalOverrun = false;
  Trial t;
  t.text = analyzer::applyEdits(source_, c.edits);
  t.costs = costsOf(analyzeFile(again, t.text), c.kernel);
  return &(trials_[ci] = std::move(t));
}

const KernelCosts &FixSearcher::costsBefore(const std::string &kernel) {
  auto known = before_.find(kernel);
  if (known == before_.end())
    known = before_.emplace(kernel, costsOf(s_, kernel)).first;
  return known->second;
}

std::optional<OfferedFix> FixSearcher::bestFix(size_t di,
                                               const core::Diagnostic &d) {
  unsigned tried = 0;
  std::optional<OfferedFix> best;
  std::tuple<uint64_t, uint64_t, size_t> bestKey;
  for (size_t ci = 0; ci < s_.fixCandidates.size(); ++ci) {
    const FixCandidate &c = s_.fixCandidates[ci];
    if (c.checkId != d.checkId ||
        !std::count(c.lines.begin(), c.lines.end(), d.loc.line))
      continue;
    const KernelCosts &known = costsBefore(c.kernel);
    OfferedFix f;
    f.diagnostic = di;
    f.candidate = ci;
    f.line = d.loc.line;
    f.before = known.figures(c.checkId, d.loc.line, d.loc.line);
    // Only candidates for a kernel whose launches cost on this line.
    if (!known.ok || f.before.lineCost == 0 ||
        tried == kMaxCandidatesPerFinding)
      continue;
    ++tried;
    const Trial *t = trial(ci);
    if (!t || !t->costs.ok)
      continue;
    auto [first, last] = mappedLines(source_, t->text, c.edits, d.loc.line);
    f.after = t->costs.figures(c.checkId, first, last);
    bool verified = f.after.launches == f.before.launches &&
                    f.after.lineCost < f.before.lineCost &&
                    f.after.sharedWavefronts + f.after.globalSectors <=
                        f.before.sharedWavefronts + f.before.globalSectors;
    if (!verified)
      continue;
    size_t editBytes = 0;
    for (const TextEdit &e : c.edits)
      editBytes += e.length + e.replacement.size();
    auto key = std::make_tuple(f.after.lineCost,
                               f.after.sharedWavefronts + f.after.globalSectors,
                               editBytes);
    if (!best || key < bestKey) {
      best = f;
      bestKey = key;
    }
  }
  return best;
}

} // namespace

FixSearch searchFixes(const Options &o, const Session &s,
                      const std::string &source,
                      std::vector<core::Diagnostic> &diags) {
  FixSearch search;
  if (s.fixCandidates.empty())
    return search;
  auto start = std::chrono::steady_clock::now();
  FixSearcher searcher(o, s, source, search);
  for (size_t di = 0; di < diags.size(); ++di) {
    core::Diagnostic &d = diags[di];
    if (d.severity != core::Severity::Warning || !d.loc.valid() ||
        !core::sameSourceFile(d.loc.file, s.mainFile))
      continue;
    if (std::optional<OfferedFix> best = searcher.bestFix(di, d)) {
      d.addNote(noteText(s.fixCandidates[best->candidate], *best));
      search.fixes.push_back(*best);
    }
  }
  search.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return search;
}

EditRange editRange(const std::string &source, const TextEdit &edit) {
  std::vector<size_t> starts = lineStarts(source);
  auto [l1, c1] = lineColumn(starts, edit.offset);
  auto [l2, c2] = lineColumn(starts, size_t(edit.offset) + edit.length);
  return {l1, c1, l2, c2};
}

const char *lineCostUnit(const std::string &checkId) {
  return isSharedCheck(checkId) ? "shared wavefronts" : "global sectors";
}

std::string fixesDiff(const Options &o, const Session &s,
                      const std::string &source, const FixSearch &search) {
  std::vector<TextEdit> edits;
  fixesToApply(s, search, edits);
  return unifiedDiff(source, analyzer::applyEdits(source, edits), o.file);
}

bool applyFixes(const Options &o, const Session &s, const std::string &source,
                const FixSearch &search, std::ostream &out, std::ostream &err) {
  std::vector<TextEdit> edits;
  std::vector<size_t> applied = fixesToApply(s, search, edits);
  std::string fixed = analyzer::applyEdits(source, edits);
  if (o.printDiff && o.format != OutputFormat::Json)
    out << unifiedDiff(source, fixed, o.file);
  if (!o.applyFixes)
    return true;
  if (applied.empty()) {
    err << "kcheck: note: no verified fix to apply"
        << (o.runHost ? " (fixes are not searched with --run-host)" : "")
        << '\n';
    return true;
  }
  std::ofstream file(o.file, std::ios::binary | std::ios::trunc);
  file << fixed;
  if (!file) {
    err << "kcheck: error: cannot write '" << o.file << "'\n";
    return false;
  }
  for (size_t ci : applied) {
    const FixCandidate &c = s.fixCandidates[ci];
    unsigned line = 0;
    for (const OfferedFix &f : search.fixes)
      if (f.candidate == ci && !line)
        line = f.line;
    err << "kcheck: note: applied fix for " << o.file << ":" << line << ": "
        << c.title << '\n';
  }
  return true;
}

} // namespace kcheck::driver

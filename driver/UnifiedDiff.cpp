#include "driver/UnifiedDiff.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kcheck::driver {

namespace {

struct Line {
  std::string_view text; // without its newline
  bool newline = true;   // false only for a last line without one
  bool operator==(const Line &o) const {
    return text == o.text && newline == o.newline;
  }
};

std::vector<Line> splitLines(const std::string &s) {
  std::vector<Line> lines;
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find('\n', at);
    if (end == std::string::npos) {
      lines.push_back({std::string_view(s).substr(at), false});
      break;
    }
    lines.push_back({std::string_view(s).substr(at, end - at), true});
    at = end + 1;
  }
  return lines;
}

enum class Op : char { Same = ' ', Removed = '-', Added = '+' };

struct Step {
  Op op;
  size_t oldIndex, newIndex; // positions before this step
};

// Past this many cells the changed middle is shown as removed then added
// rather than aligned (a fix changes a few lines; this only bounds memory).
constexpr uint64_t kMaxAlignCells = 16u << 20;

/// The edit script: common prefix and suffix, the middle aligned by a
/// longest common subsequence.
std::vector<Step> script(const std::vector<Line> &a,
                         const std::vector<Line> &b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;

  std::vector<Step> steps;
  for (size_t i = 0; i < prefix; ++i)
    steps.push_back({Op::Same, i, i});
  if (uint64_t(n + 1) * (m + 1) <= kMaxAlignCells) {
    // lcs[i][j]: common subsequence length of a's middle from i, b's from j.
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t & {
      return lcs[i * (m + 1) + j];
    };
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        at(i, j) = a[prefix + i] == b[prefix + j]
                       ? at(i + 1, j + 1) + 1
                       : std::max(at(i + 1, j), at(i, j + 1));
    // On a tie a removal goes first, as diff prints them.
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        steps.push_back({Op::Same, prefix + i++, prefix + j++});
      } else if (j < m && (i == n || at(i, j + 1) > at(i + 1, j))) {
        steps.push_back({Op::Added, prefix + i, prefix + j++});
      } else {
        steps.push_back({Op::Removed, prefix + i++, prefix + j});
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i)
      steps.push_back({Op::Removed, prefix + i, prefix});
    for (size_t j = 0; j < m; ++j)
      steps.push_back({Op::Added, prefix + n, prefix + j});
  }
  for (size_t k = 0; k < suffix; ++k)
    steps.push_back({Op::Same, prefix + n + k, prefix + m + k});
  return steps;
}

/// "3,4", "3" (one line) or "2,0" (none: the line before).
std::string range(size_t first, size_t count) {
  if (count == 1)
    return std::to_string(first + 1);
  return std::to_string(count == 0 ? first : first + 1) + "," +
         std::to_string(count);
}

} // namespace

std::string unifiedDiff(const std::string &before, const std::string &after,
                        const std::string &name, unsigned context) {
  if (before == after)
    return "";
  std::vector<Line> a = splitLines(before), b = splitLines(after);
  std::vector<Step> steps = script(a, b);
  std::string out = "--- " + name + "\n+++ " + name + "\n";
  size_t k = 0;
  while (k < steps.size()) {
    // The next change, and the hunk around it: changes closer than two
    // contexts apart share one hunk.
    while (k < steps.size() && steps[k].op == Op::Same)
      ++k;
    if (k == steps.size())
      break;
    size_t begin = k >= context ? k - context : 0;
    size_t end = k;
    for (size_t quiet = 0; end < steps.size(); ++end) {
      quiet = steps[end].op == Op::Same ? quiet + 1 : 0;
      if (quiet > 2 * context)
        break;
    }
    // Keep `context` unchanged lines after the last change.
    size_t lastChange = end;
    while (steps[lastChange - 1].op == Op::Same)
      --lastChange;
    end = std::min(steps.size(), lastChange + context);

    size_t oldCount = 0, newCount = 0;
    for (size_t s = begin; s < end; ++s) {
      oldCount += steps[s].op != Op::Added;
      newCount += steps[s].op != Op::Removed;
    }
    out += "@@ -" + range(steps[begin].oldIndex, oldCount) + " +" +
           range(steps[begin].newIndex, newCount) + " @@\n";
    for (size_t s = begin; s < end; ++s) {
      const Line &line = steps[s].op == Op::Added ? b[steps[s].newIndex]
                                                  : a[steps[s].oldIndex];
      out += char(steps[s].op);
      out += line.text;
      out += '\n';
      if (!line.newline)
        out += "\\ No newline at end of file\n";
    }
    k = end;
  }
  return out;
}

} // namespace kcheck::driver

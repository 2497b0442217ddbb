#include "analyzer/fixes/TextEdits.h"

#include <algorithm>
#include <tuple>

namespace kcheck::analyzer {

bool editBefore(const TextEdit &a, const TextEdit &b) {
  return std::tie(a.offset, a.length) < std::tie(b.offset, b.length);
}

bool editsOverlap(std::vector<TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), editBefore);
  for (size_t i = 1; i < edits.size(); ++i)
    if (edits[i].offset < edits[i - 1].offset + edits[i - 1].length ||
        edits[i].offset == edits[i - 1].offset)
      return true;
  return false;
}

std::string applyEdits(const std::string &text, std::vector<TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), editBefore);
  if (editsOverlap(edits) ||
      (!edits.empty() &&
       size_t(edits.back().offset) + edits.back().length > text.size()))
    return text;
  std::string out;
  size_t at = 0;
  for (const TextEdit &e : edits) {
    out.append(text, at, e.offset - at);
    out += e.replacement;
    at = size_t(e.offset) + e.length;
  }
  out.append(text, at, std::string::npos);
  return out;
}

} // namespace kcheck::analyzer

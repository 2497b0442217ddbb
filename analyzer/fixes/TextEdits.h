// Byte-range edits of a source text: the fix recipes' rewrites of the main
// file, and the rewritten copy of the files the device compiler retries on
// (NvccCompatRewrite.h).
#pragma once

#include <string>
#include <vector>

namespace kcheck::analyzer {

/// Replace `length` bytes at byte `offset` of a file.
struct TextEdit {
  unsigned offset = 0;
  unsigned length = 0;
  std::string replacement;
};

/// Applies non-overlapping edits to `text` (sorted here). Overlapping
/// edits, or one past the end of `text`, are a caller's bug: the text is
/// returned unchanged then.
std::string applyEdits(const std::string &text, std::vector<TextEdit> edits);

/// Whether `edits` (in any order) touch no byte twice; two insertions at one
/// offset count as overlapping too, since their order would be ambiguous.
bool editsOverlap(std::vector<TextEdit> edits);

/// Edits in text order (offset, then length).
bool editBefore(const TextEdit &a, const TextEdit &b);

} // namespace kcheck::analyzer

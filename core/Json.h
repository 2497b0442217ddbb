// kcheck's JSON: nlohmann-json (header-only, Debian's nlohmann-json3-dev),
// shared by the analyzer, the emitters and the CUPTI runtime, which builds
// without LLVM. Documents are composed as values and written once, never
// spliced as text.
//
// Conventions every kcheck document keeps (DESIGN.md's schemas):
//   - members in the order they are written (ordered_json): the schemas list
//     them in that order and people read the files;
//   - counters are integers, read and written exactly (64 bits);
//   - derived ratios carry 6 significant digits (jsonReal);
//   - text is UTF-8; bytes that are not (a source line in Latin-1) are
//     written as U+FFFD rather than making the document invalid.
#pragma once

#include "core/JsonFwd.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kcheck::core {

/// A derived figure (a ratio, a percentage) as kcheck writes it: rounded to
/// 6 significant digits; null when it is not finite.
Json jsonReal(double v);

/// The document's text: indented by 2 (or compact), without a final newline.
std::string jsonText(const Json &value, bool pretty = true);

struct JsonParseResult {
  std::optional<Json> value;
  std::string error; // "line L, column C: ..." when value is empty
};

/// Parses a document kcheck reads (a report, a project's per-file result).
/// Nesting deeper than 256 is refused: no kcheck document comes close.
JsonParseResult parseJson(std::string_view text);

/// The value as an unsigned integer, if it is one exactly (12, not 1.5 or
/// -3; 1e3 counts as 1000).
std::optional<uint64_t> jsonUint64(const Json &value);
/// The value as a signed integer, if it is one exactly.
std::optional<int64_t> jsonInt64(const Json &value);
/// The member `key` of an object; null when there is none (or `object` is
/// no object).
const Json *jsonMember(const Json &object, std::string_view key);
/// The member `key` of an object if it is a string; else "".
std::string jsonString(const Json &object, std::string_view key);

} // namespace kcheck::core

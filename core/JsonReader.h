// A small JSON reader for kcheck's own files (predictions, measurements):
// RFC 8259 values into a tree, no third-party library, so core/ and the CUPTI
// runtime need nothing beyond the standard library.
// Assumptions: inputs are small (a report is at most a few MB); numbers keep
// their text so 64-bit counters survive exactly (a double holds only 2^53).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kcheck::core {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::Null; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isNumber() const { return kind_ == Kind::Number; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }

  bool asBool() const { return boolean_; }
  double asDouble() const;
  /// The number as an unsigned integer, if it is one exactly ("12", not
  /// "1.5" or "-3"; "1e3" counts as 1000).
  std::optional<uint64_t> asUint64() const;
  std::optional<int64_t> asInt64() const;
  /// A string's text, or a number's text as written.
  const std::string &text() const { return text_; }
  const std::vector<JsonValue> &items() const { return items_; }
  const std::vector<std::pair<std::string, JsonValue>> &members() const {
    return members_;
  }
  /// The member named `key` of an object, or nullptr.
  const JsonValue *find(std::string_view key) const;

  static JsonValue makeNull() { return JsonValue(Kind::Null); }
  static JsonValue makeBool(bool b);
  static JsonValue makeNumber(std::string text);
  static JsonValue makeString(std::string text);
  static JsonValue makeArray(std::vector<JsonValue> items);
  static JsonValue
  makeObject(std::vector<std::pair<std::string, JsonValue>> members);

private:
  explicit JsonValue(Kind k) : kind_(k) {}
  Kind kind_ = Kind::Null;
  bool boolean_ = false;
  std::string text_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

struct JsonParseResult {
  std::optional<JsonValue> value;
  std::string error; // "line L, column C: ..." when value is empty
};

JsonParseResult parseJson(std::string_view text);

} // namespace kcheck::core

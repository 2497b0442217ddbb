#include "core/Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kcheck::core {

Json jsonReal(double v) {
  if (!std::isfinite(v))
    return nullptr;
  // The nearest double to the 6-digit text: nlohmann writes the shortest
  // text that reads back to it, which is that text.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return std::strtod(buf, nullptr);
}

std::string jsonText(const Json &value, bool pretty) {
  return value.dump(pretty ? 2 : -1, ' ', /*ensure_ascii=*/false,
                    Json::error_handler_t::replace);
}

JsonParseResult parseJson(std::string_view text) {
  constexpr int kMaxDepth = 256;
  bool tooDeep = false;
  auto limitDepth = [&](int depth, Json::parse_event_t, Json &) {
    tooDeep = tooDeep || depth > kMaxDepth;
    return !tooDeep;
  };
  JsonParseResult r;
  try {
    Json value = Json::parse(text.begin(), text.end(), limitDepth);
    if (tooDeep)
      r.error = "nested deeper than " + std::to_string(kMaxDepth);
    else
      r.value = std::move(value);
  } catch (const Json::parse_error &e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2:
    // syntax error ..." -> "line 1, column 2: syntax error ...".
    std::string what = e.what();
    size_t at = what.find("line ");
    r.error = at == std::string::npos ? what : what.substr(at);
  } catch (const Json::out_of_range &e) {
    // A number past double's range ("1e99999"): out_of_range.406.
    std::string what = e.what();
    size_t at = what.find("] ");
    r.error = at == std::string::npos ? what : what.substr(at + 2);
  }
  return r;
}

std::optional<uint64_t> jsonUint64(const Json &value) {
  if (value.is_number_unsigned())
    return value.get<uint64_t>();
  if (value.is_number_integer())
    return std::nullopt; // negative: non-negative integers parse unsigned
  if (!value.is_number_float())
    return std::nullopt;
  // Exponent or fraction: accepted only as an exact integer.
  double d = value.get<double>();
  if (d >= 0 && d < 18446744073709551616.0 && std::floor(d) == d)
    return uint64_t(d);
  return std::nullopt;
}

std::optional<int64_t> jsonInt64(const Json &value) {
  if (value.is_number_integer() && !value.is_number_unsigned())
    return value.get<int64_t>();
  if (value.is_number_unsigned() &&
      value.get<uint64_t>() <= uint64_t(INT64_MAX))
    return int64_t(value.get<uint64_t>());
  return std::nullopt;
}

const Json *jsonMember(const Json &object, std::string_view key) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string jsonString(const Json &object, std::string_view key) {
  const Json *v = jsonMember(object, key);
  return v && v->is_string() ? v->get<std::string>() : "";
}

} // namespace kcheck::core

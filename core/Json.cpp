#include "core/Json.h"

#include <cmath>
#include <cstdio>

namespace kcheck::core {

std::string JsonWriter::quote(std::string_view s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      r += "\\\"";
      break;
    case '\\':
      r += "\\\\";
      break;
    case '\n':
      r += "\\n";
      break;
    case '\t':
      r += "\\t";
      break;
    case '\r':
      r += "\\r";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        r += buf;
      } else {
        r += char(c);
      }
    }
  }
  return r + "\"";
}

void JsonWriter::newline() {
  if (!pretty_)
    return;
  out_ += '\n';
  out_.append(size_t(depth_) * 2, ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (depth_ > 0) {
    if (!first_)
      out_ += ',';
    newline();
  }
  first_ = false;
}

void JsonWriter::open(char c) {
  beforeValue();
  out_ += c;
  ++depth_;
  first_ = true;
}

void JsonWriter::close(char c) {
  --depth_;
  if (!first_)
    newline();
  out_ += c;
  first_ = false;
}

void JsonWriter::key(std::string_view k) {
  beforeValue();
  out_ += quote(k);
  out_ += pretty_ ? ": " : ":";
  afterKey_ = true;
}

void JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ += quote(s);
}

void JsonWriter::value(uint64_t v) {
  beforeValue();
  out_ += std::to_string(v);
}

void JsonWriter::value(int64_t v) {
  beforeValue();
  out_ += std::to_string(v);
}

void JsonWriter::value(double v) {
  beforeValue();
  if (!std::isfinite(v)) {
    out_ += "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  out_ += buf;
}

void JsonWriter::value(bool v) {
  beforeValue();
  out_ += v ? "true" : "false";
}

} // namespace kcheck::core

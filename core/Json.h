// A small JSON writer: kcheck's reports are written by hand-built objects so
// core/ (and the CUPTI runtime built on it) needs no third-party library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kcheck::core {

/// Streaming writer with automatic commas. Usage:
///   JsonWriter w; w.beginObject(); w.key("a"); w.value(1); w.endObject();
class JsonWriter {
public:
  explicit JsonWriter(bool pretty = true) : pretty_(pretty) {}
  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }
  void key(std::string_view k);
  void value(std::string_view s);
  void value(const char *s) { value(std::string_view(s)); }
  void value(uint64_t v);
  void value(int64_t v);
  void value(int v) { value(int64_t(v)); }
  void value(unsigned v) { value(uint64_t(v)); }
  void value(double v);
  void value(bool v);
  const std::string &str() const { return out_; }

  static std::string quote(std::string_view s);

private:
  void open(char c);
  void close(char c);
  void beforeValue();
  void newline();
  std::string out_;
  bool pretty_;
  int depth_ = 0;
  bool first_ = true; // no element yet at this depth
  bool afterKey_ = false;
};

} // namespace kcheck::core

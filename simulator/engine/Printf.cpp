// Device printf: formats one lane's vprintf call. Assumes CUDA's argument
// buffer layout: each argument at the next offset aligned to its own size
// (4 for int/char, 8 for long, double and pointers; float is promoted to
// double by the front end).
#include "simulator/engine/RunnerImpl.h"

#include <cstdio>
#include <cstring>

namespace kcheck::sim {

namespace {

// One conversion (`spec`: its flags, width and precision; `wide`: it had a
// long length modifier) of the next argument; `asWritten` for one it does
// not know.
template <class NextArg>
std::string
formatConversion(char conv, const std::string &spec, bool wide, NextArg &next,
                 const std::function<std::string(uint64_t)> &readString,
                 const std::string &asWritten) {
  char buf[512];
  switch (conv) {
  case 'd':
  case 'i': {
    int64_t v = wide ? int64_t(next(8)) : int64_t(int32_t(next(4)));
    std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), (long long)v);
    break;
  }
  case 'u':
  case 'x':
  case 'X':
  case 'o': {
    uint64_t v = wide ? next(8) : uint32_t(next(4));
    std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(),
                  (unsigned long long)v);
    break;
  }
  case 'c':
    std::snprintf(buf, sizeof buf, (spec + "c").c_str(), int(next(4)));
    break;
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A': {
    uint64_t bits = next(8);
    double v;
    std::memcpy(&v, &bits, 8);
    std::snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
    break;
  }
  case 'p':
    std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)next(8));
    break;
  case 's': {
    std::string s = readString(next(8));
    std::snprintf(buf, sizeof buf, (spec + "s").c_str(), s.c_str());
    break;
  }
  default:
    std::snprintf(buf, sizeof buf, "%s", asWritten.c_str());
  }
  return buf;
}

} // namespace

std::string formatDevicePrintf(
    const std::string &format,
    const std::function<void(uint64_t, void *, unsigned)> &readArg,
    const std::function<std::string(uint64_t)> &readString) {
  std::string out;
  uint64_t offset = 0;
  auto next = [&](unsigned size) {
    offset = (offset + size - 1) / size * size;
    uint64_t v = 0;
    readArg(offset, &v, size);
    offset += size;
    return v;
  };
  size_t end = format.find('\0');
  if (end == std::string::npos)
    end = format.size();
  for (size_t i = 0; i < end; ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    size_t start = i++;
    if (i < end && format[i] == '%') {
      out += '%';
      continue;
    }
    while (i < end && std::strchr("-+ #0123456789.*", format[i]))
      ++i;
    unsigned longs = 0;
    while (i < end && std::strchr("hlLqjzt", format[i])) {
      longs += format[i] == 'l' || format[i] == 'L' || format[i] == 'q' ||
               format[i] == 'j' || format[i] == 'z' || format[i] == 't';
      ++i;
    }
    if (i >= end)
      break;
    char conv = format[i];
    // Rebuild the spec without length modifiers, then add our own.
    std::string spec;
    for (size_t k = start; k < i; ++k)
      if (!std::strchr("hlLqjzt", format[k]))
        spec += format[k];
    out += formatConversion(conv, spec, longs != 0, next, readString,
                            format.substr(start, i - start + 1));
  }
  return out;
}

} // namespace kcheck::sim

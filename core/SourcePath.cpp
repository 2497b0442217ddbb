#include "core/SourcePath.h"

#include <filesystem>
#include <system_error>
#include <unordered_map>

namespace kcheck::core {

namespace fs = std::filesystem;

namespace {

const fs::path &workingDirectory() {
  // Read once: kcheck never changes directory, and this is asked per
  // instruction when lines are rolled up.
  static const fs::path cwd = [] {
    std::error_code ec;
    fs::path p = fs::current_path(ec);
    return ec ? fs::path() : p.lexically_normal();
  }();
  return cwd;
}

fs::path absoluteNormal(const std::string &path) {
  fs::path p(path);
  if (p.is_relative())
    p = workingDirectory() / p;
  return p.lexically_normal();
}

} // namespace

std::string debugInfoPath(const std::string &directory,
                          const std::string &name) {
  if (name.empty())
    return name;
  fs::path dir = fs::path(directory).lexically_normal();
  if (directory.empty() || fs::path(name).is_absolute() || directory == "." ||
      dir == workingDirectory() || dir == workingDirectory() / "")
    return fs::path(name).lexically_normal().string();
  return (dir / name).lexically_normal().string();
}

namespace {

// absoluteNormal's text, remembered: it is asked per instruction and per
// launch when lines are rolled up (a program of 100000 launches spent
// minutes here), and a program names few files. Per thread: no lock.
const std::string &normalText(const std::string &path) {
  thread_local std::unordered_map<std::string, std::string> seen;
  if (seen.size() > 4096) // paths generated per call: do not grow for ever
    seen.clear();
  auto [it, fresh] = seen.try_emplace(path);
  if (fresh)
    it->second = absoluteNormal(path).string();
  return it->second;
}

} // namespace

bool sameSourceFile(const std::string &a, const std::string &b) {
  if (a == b)
    return true;
  if (a.empty() || b.empty())
    return false;
  const std::string na = normalText(a); // a copy: b's lookup may rehash
  return na == normalText(b);
}

std::string baseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace kcheck::core

// Helpers shared by the analyzer tests.
#pragma once

#include "analyzer/toolchain/DeviceCompiler.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace kcheck::analyzer::testing {

inline std::filesystem::path corpusDir() { return KCHECK_CORPUS_DIR; }

inline std::vector<std::filesystem::path> seedFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto &entry :
       std::filesystem::directory_iterator(corpusDir() / "seed"))
    if (entry.path().extension() == ".cu")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Writes `source` to a fresh file in this process's temporary directory:
// ctest runs tests of one binary as concurrent processes, and several tests
// use the same file names.
inline std::string writeSource(const std::string &name,
                               const std::string &source) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("kcheck_analyzer_tests_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / name;
  std::ofstream(path) << source;
  return path.string();
}

} // namespace kcheck::analyzer::testing

// Every command-line option of kcheck in one struct (Bloaty/cppcheck style);
// parsing is the only place that reads argv.
#pragma once

#include "core/Launch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kcheck::cli {

enum class Command { BankConflicts, Predict, Help, Version };
enum class OutputFormat { Text, Json };

struct Options {
  Command command = Command::Help;
  std::string file;
  std::string arch = "sm_90";
  OutputFormat format = OutputFormat::Text;
  bool verify = false;
  // Launch overrides: supply what static extraction could not evaluate.
  std::string kernel; // only launches of this kernel (and its default launch)
  std::optional<core::Dim3> grid, block;
  std::optional<uint64_t> sharedBytes;
  std::vector<std::pair<std::string, std::string>> args; // --arg NAME=VALUE
  uint64_t stepBudget = 50'000'000;   // warp instructions per block
  std::vector<std::string> clangArgs; // after `--`
};

struct ParseResult {
  Options options;
  std::string error; // non-empty: usage error (exit 2)
};

ParseResult parseOptions(const std::vector<std::string> &argv);
std::string usageText();

} // namespace kcheck::cli

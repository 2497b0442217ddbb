// The command line: argv in, the driver's Options out (one table of options,
// which also writes the help).
#pragma once

#include "driver/Options.h"

#include <string>
#include <vector>

namespace kcheck::cli {

// The driver's vocabulary, as the commands and emitters use it.
using driver::Command;
using driver::kKcheckVersion;
using driver::Options;
using driver::OutputFormat;

struct ParseResult {
  Options options;
  std::string error; // non-empty: usage error (exit 2)
};

ParseResult parseOptions(const std::vector<std::string> &argv);
std::string usageText();

} // namespace kcheck::cli

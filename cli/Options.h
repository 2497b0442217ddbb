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

/// A command as `kcheck --help` lists it, from the option table.
struct CommandSummary {
  std::string name;
  std::string summary;
};
/// Every command of the option table (cli/Options.td), in its order.
std::vector<CommandSummary> commandSummaries();

/// An option as the help lists it, from the option table.
struct OptionHelp {
  std::string group;    // its heading
  std::string spelling; // "--arch sm_XX"
  std::string help;     // one paragraph
};
/// The options `command` takes (every option for ""), grouped under their
/// headings in the help's order.
std::vector<OptionHelp> optionHelp(const std::string &command);

} // namespace kcheck::cli

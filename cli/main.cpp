// kcheck: predicts what the GPU does with a CUDA kernel's memory accesses.
// A thin main: parse the options, run the command, return its exit code.
#include "checks/Registry.h"
#include "cli/Commands.h"
#include "cli/Help.h"
#include "cli/Options.h"
#include "driver/CompileDatabase.h"

#include <iostream>

int main(int argc, char **argv) {
  using namespace kcheck::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  ParseResult parsed = parseOptions(args);
  if (!parsed.error.empty()) {
    // The error and where to read more; the overview lists every option,
    // too long to repeat under each mistyped one.
    std::cerr << "kcheck: error: " << parsed.error
              << "\nkcheck --help lists the commands and options; kcheck "
                 "help COMMAND, one command's\n";
    return kExitUsage;
  }
  if (parsed.options.file.empty() && !parsed.options.compileDatabase.empty())
    return runProject(parsed.options, args, std::cout, std::cerr);
  if (!parsed.options.compileDatabase.empty()) { // -p DIR
    std::vector<std::string> notes;
    std::string error = applyCompileDatabase(parsed.options, notes);
    for (const std::string &n : notes)
      std::cerr << "kcheck: note: " << n << '\n';
    if (!error.empty()) {
      std::cerr << "kcheck: error: " << error << '\n';
      return kExitUsage;
    }
  }
  switch (parsed.options.command) {
  case Command::Help:
  case Command::Version:
  case Command::ListChecks:
  case Command::Explain:
  case Command::Compare:
    break;
  default:
    if (int rc = checkInputLimits(parsed.options, std::cerr))
      return rc;
  }
  switch (parsed.options.command) {
  case Command::Help:
    return printHelp(parsed.options.helpTopic, std::cout, std::cerr);
  case Command::Version:
    std::cout << "kcheck " << kKcheckVersion << "\n";
    return kExitClean;
  case Command::ListChecks:
    return listChecks(std::cout, parsed.options.format == OutputFormat::Json);
  case Command::Explain:
    return explainCheck(parsed.options.file, std::cout, std::cerr);
  case Command::Compare:
    return runCompare(parsed.options, std::cout, std::cerr);
  case Command::Validate:
    return runValidate(parsed.options, std::cout, std::cerr);
  case Command::Run:
    return runHostProgram(parsed.options, std::cout, std::cerr);
  default:
    return runCommand(parsed.options, std::cout, std::cerr);
  }
}

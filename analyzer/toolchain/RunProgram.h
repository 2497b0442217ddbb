// Running a tool of the machine (the toolkit's nvcc, the host g++) and
// reading what it printed: for the facts only the tool itself gives (nvcc's
// build number, g++'s version, nvcc --dryrun's commands).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kcheck::analyzer {

struct ProgramOutput {
  int exitCode = 0;
  std::string text; // stdout and stderr together
};

/// Runs `program` (a path) with `args` (argv[1..]), at most `seconds`;
/// nullopt when it could not be run, was stopped or its output not read
/// (then `why`, when given, says which).
std::optional<ProgramOutput> runProgram(const std::string &program,
                                        const std::vector<std::string> &args,
                                        unsigned seconds,
                                        std::string *why = nullptr);

} // namespace kcheck::analyzer

// `kcheck help COMMAND` and `kcheck COMMAND --help`: one command's usage,
// what it reports, the options that apply to it, examples to paste (on
// kernels/ of this repository) and its exit codes; `kcheck --help`: the
// overview. The prose is here; the commands' lines and the options come from
// the option table (cli/Options.td), so that what is parsed is what is
// listed.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kcheck::cli {

/// `kcheck --help`: every command and option.
std::string usageText();
/// The command's help text; empty for a name that is no command.
std::string commandHelp(const std::string &command);
/// The commands that have a help text, in `kcheck --help`'s order.
std::vector<std::string> helpCommands();

/// Prints the overview (empty `command`) or the command's help: exit 0; an
/// unknown command: a message on `err`, exit 2.
int printHelp(const std::string &command, std::ostream &out, std::ostream &err);

/// `kcheck list-checks`: one line per check of the registry; with `json`,
/// the registry as data (id, severity, the id its findings carry, summary,
/// docs page, demonstrating kernel).
int listChecks(std::ostream &out, bool json);
/// `kcheck explain ID`: the check's page; exit 2 for an unknown id.
int explainCheck(const std::string &id, std::ostream &out, std::ostream &err);

} // namespace kcheck::cli

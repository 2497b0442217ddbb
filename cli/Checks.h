// The checks kcheck runs, by stable id, with their documentation
// (docs/checks/ID.md, embedded at build time): `kcheck list-checks`,
// `kcheck explain ID`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kcheck::cli {

struct CheckPage {
  std::string id;      // as in `[bank-conflict]`
  std::string summary; // the page title after "ID: "
  std::string text;    // the whole page (Markdown)
};

const std::vector<CheckPage> &checkPages();
/// The ids of checkPages(), in its order.
std::vector<std::string> checkIds();

/// --checks=LIST, clang-tidy style: comma-separated globs over `ids` (`*`
/// matches any run of characters), `-GLOB` removing what it matches,
/// applied in order to the set of every check; a list that starts with a
/// positive glob starts from no check (`--checks=bank-conflict`: only it,
/// as `-*,bank-conflict`). Returns the ids the list disables; a glob that
/// matches no id, or an empty glob, is an error (`error` set).
std::vector<std::string> disabledChecks(const std::string &list,
                                        const std::vector<std::string> &ids,
                                        std::string &error);

/// `kcheck list-checks`: one line per check.
int listChecks(std::ostream &out);
/// `kcheck explain ID`: the check's page; exit 2 for an unknown id.
int explainCheck(const std::string &id, std::ostream &out, std::ostream &err);

} // namespace kcheck::cli

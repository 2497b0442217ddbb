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

/// `kcheck list-checks`: one line per check.
int listChecks(std::ostream &out);
/// `kcheck explain ID`: the check's page; exit 2 for an unknown id.
int explainCheck(const std::string &id, std::ostream &out, std::ostream &err);

} // namespace kcheck::cli

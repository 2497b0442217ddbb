// Conformance tables: for each construct family the toolkit defines, every
// entry the installed toolkit declares (conformance/ToolkitInventory.h),
// whether kcheck provides it, and if not, the exclusion row that says why
// and what kcheck does instead. docs/conformance.md is this, written out.
#pragma once

#include "conformance/ToolkitInventory.h"

#include <string>
#include <vector>

namespace kcheck::conformance {

enum class Status {
  Provided, // kcheck answers it as the specification says
  Excluded, // left out on purpose: `note` says why and what kcheck does
  Missing,  // neither: a conformance failure
};

struct Entry {
  std::string name;
  Status status = Status::Missing;
  std::string note;
};

struct Family {
  std::string name;     // "CUDA runtime API functions"
  std::string source;   // where the list of what exists comes from
  std::string provider; // where kcheck provides it
  std::vector<Entry> entries;
  bool deviceFunctions = false; // entries are device functions
  /// Rows of kcheck's tables that name nothing the toolkit declares, or
  /// that are both provided and excluded: stale, a conformance failure too.
  std::vector<std::string> stale;

  size_t count(Status s) const;
};

/// Every family, checked against `inventory`; the device functions' against
/// what kcheck does with the committed program's calls.
std::vector<Family> conformanceFamilies(const ToolkitInventory &inventory,
                                        const DeviceCallResults &calls);

/// The document: a summary table and each family's entries.
std::string conformanceMarkdown(const ToolkitInventory &inventory,
                                const std::vector<Family> &families);

/// What fails conformance, one line each ("" when all is covered).
std::string conformanceFailures(const std::vector<Family> &families);

} // namespace kcheck::conformance

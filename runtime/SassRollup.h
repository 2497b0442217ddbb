// Per-instruction (SASS Metrics API) values rolled up to source lines under
// the DESIGN.md metric names. Pure data, no CUPTI, so it is unit-tested
// without a GPU.
// Assumptions (research/cupti.md §3.1): the API gives shared wavefronts and
// global sectors for all op kinds together; a SASS instruction is either a
// load or a store, so its wavefronts/sectors go to the _op_ld or _op_st
// metric by which instruction count (op_shared_ld, op_shared_st, ...) is
// non-zero at that PC.
#pragma once

#include "core/ReportFile.h"
#include "runtime/CubinLineTable.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::runtime {

/// The SASS Metrics API's metric names (no ".sum"), collected per PC.
const std::vector<std::string> &sassPerPcMetrics();

struct SassPcRecord {
  uint32_t cubinCrc = 0;
  std::string function; // mangled
  uint32_t pcOffset = 0;
  core::MetricList values; // SASS API names from sassPerPcMetrics()
};

/// The lines a PC is credited to (CubinLineTable::linesAt's rule); empty
/// when it has no line information.
using LocatePc = std::function<std::vector<SourceLine>(
    uint32_t cubinCrc, const std::string &function, uint32_t pcOffset)>;

/// Lines sorted by (file, line); a PC's values go to every line it is
/// credited to, PCs without line information to line 0 of file "". Metric
/// names are the per-launch ones (".sum"), the ideal/all-op totals that
/// Nsight Compute's source page shows, and the predicated-on thread
/// instructions of each memory op (active lanes of loads and stores).
std::vector<core::ReportLine>
rollUpToLines(const std::vector<SassPcRecord> &records, const LocatePc &locate);

} // namespace kcheck::runtime

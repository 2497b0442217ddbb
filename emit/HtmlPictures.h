// The inline SVG pictures of kcheck's HTML report (emit/HtmlEmitter): a
// warp's lanes -> shared-memory banks, a warp's lanes -> 32-byte sectors, and
// per-launch bars of counts against their ideal. Pure functions of the
// simulator's figures: no Session, no I/O.
//
// Assumptions: the bank picture draws each lane's access as the one bank word
// holding its byte address (sim::WorstWarp keeps no access width, so a 64-
// or 128-bit access shows its first word); the sector picture knows the
// width (sim::GlobalWarp::bytesPerLane) and draws every byte.
#pragma once

#include "core/ArchSpec.h"
#include "simulator/Predictor.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::emit::html {

/// Text for HTML element content and attribute values.
std::string escape(std::string_view text);

/// 1234567 -> "1,234,567".
std::string grouped(uint64_t n);

/// 32 lanes (rows) x the banks (columns): each active lane's cell at the bank
/// of its address, coloured by which distinct word of that bank it reads
/// (lanes of one colour in one column share a word: a multicast), and under
/// each column the distinct words the bank serves: the most is the warp's
/// wavefront count for 4-byte accesses.
std::string bankPicture(const sim::WorstWarp &warp, const core::ArchSpec &arch);

/// The sectors the warp touches, in address order (gaps between them
/// marked), each drawn byte by byte; a row per lane showing the bytes it
/// accesses, and under each sector the bytes used of its `sectorBytes`.
std::string sectorPicture(const sim::GlobalWarp &warp, unsigned sectorBytes);

/// One horizontal bar: `actual` as the full width, split into the `ideal`
/// part and the excess, labelled "actual / ideal".
struct Bar {
  std::string label; // "shared wavefronts"
  uint64_t actual = 0;
  uint64_t ideal = 0;
  bool known = true; // false: drawn as "not simulated"
};
/// Efficiency bars use actual = total, ideal = the good part (branch
/// executions that did not diverge, active lane-slots).
struct LaunchBars {
  std::string title; // "#0 Stride2<<<64, 256>>>"
  std::vector<Bar> countBars;
  std::vector<Bar> efficiencyBars;
};
std::string launchChart(const std::vector<LaunchBars> &launches);

} // namespace kcheck::emit::html

// Metric names: Nsight Compute's own, so a prediction and a measurement join on
// the key (DESIGN.md, "Metric names").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kcheck::core {

enum class Metric : unsigned {
  SharedLdInst,
  SharedLdWavefronts,
  SharedStInst,
  SharedStWavefronts,
  GlobalLdInst,
  GlobalLdSectors,
  GlobalStInst,
  GlobalStSectors,
  BranchTargetsDivergent,
  Count
};

inline constexpr unsigned kMetricCount = unsigned(Metric::Count);

std::string_view metricName(Metric m);
/// Whether kcheck's simulator predicts this metric. SASS branch divergence
/// is not predicted yet (ptxas decides which branches it predicates), so
/// reports leave it out rather than claim 0.
inline bool isPredicted(Metric m) {
  return m != Metric::BranchTargetsDivergent;
}
std::optional<Metric> metricFromName(std::string_view name);

/// A fixed set of counters, cheap to add up on the simulator's hot path.
struct Counters {
  std::array<uint64_t, kMetricCount> v{};
  uint64_t &operator[](Metric m) { return v[unsigned(m)]; }
  uint64_t operator[](Metric m) const { return v[unsigned(m)]; }
  Counters &operator+=(const Counters &o) {
    for (unsigned i = 0; i < kMetricCount; ++i)
      v[i] += o.v[i];
    return *this;
  }
  bool empty() const {
    for (uint64_t x : v)
      if (x)
        return false;
    return true;
  }
};

} // namespace kcheck::core

// Metric names: Nsight Compute's own, so a prediction and a measurement join on
// the key (DESIGN.md, "Metric names").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
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
  // Active lanes (threads with the predicate on) summed over the executions
  // of the instructions counted by the *Inst metric of the same op, so that
  // pred_on / (32 x inst) is that op's SIMT efficiency; atomics are in
  // neither (Nsight Compute counts them under op_*_atom / op_*_red).
  SharedLdPredOn,
  SharedStPredOn,
  GlobalLdPredOn,
  GlobalStPredOn,
  Count
};

inline constexpr unsigned kMetricCount = unsigned(Metric::Count);

std::string_view metricName(Metric m);
/// Whether kcheck's simulator predicts this metric for every launch and
/// line. SASS branch divergence is not: ptxas decides which branches it
/// predicates, so it is predicted only for the launches where the SASS
/// branch rule (simulator/models/SassBranchRule) can tell
/// (LaunchReport::alsoPredicted), and left out elsewhere rather than
/// claimed 0.
inline bool isPredicted(Metric m) {
  return m != Metric::BranchTargetsDivergent;
}
std::optional<Metric> metricFromName(std::string_view name);
/// Whether a GPU profiler can be asked for this metric by name (Range
/// Profiler, ncu --metrics). The *PredOn metrics cannot: the H100 has no
/// per-op pred_on counter (`ncu --query-metrics --chip gh100` lists only
/// smsp__sass_thread_inst_executed_op_memory_pred_on, and asking for these
/// names gives "n/a"), so a measurement derives them per SASS instruction
/// from smsp__sass_thread_inst_executed_pred_on (runtime/SassRollup).
inline bool isProfilerMetric(Metric m) {
  switch (m) {
  case Metric::SharedLdPredOn:
  case Metric::SharedStPredOn:
  case Metric::GlobalLdPredOn:
  case Metric::GlobalStPredOn:
    return false;
  default:
    return m != Metric::Count;
  }
}

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

/// kcheck's own SIMT-efficiency counts (issue 6), per launch and per line:
/// warp executions of the instructions whose active lanes the simulation
/// sees (shared/global loads and stores, conditional branches) and the sum
/// of their active lanes; efficiency = activeLanes / (32 x warpInst). Not
/// Nsight Compute metrics, so not in Metric (kcheck-profile requests every
/// Metric from the GPU): their "kcheck__" names never occur in a
/// measurement, so `kcheck compare` never joins them with one.
struct SimtCounts {
  uint64_t warpInst = 0;
  uint64_t activeLanes = 0;
  SimtCounts &operator+=(const SimtCounts &o) {
    warpInst += o.warpInst;
    activeLanes += o.activeLanes;
    return *this;
  }
};
inline constexpr std::string_view kSimtWarpInstName =
    "kcheck__simt_warp_inst_executed.sum";
inline constexpr std::string_view kSimtActiveLanesName =
    "kcheck__simt_thread_inst_executed.sum";

/// `total / count` as findings and fix notes print an average (sectors or
/// wavefronts per request): an integer when it divides, else one decimal
/// ("4", "4.5"); "0" for no count.
std::string averageText(uint64_t total, uint64_t count);

} // namespace kcheck::core

#include "simulator/models/LanePattern.h"

#include <algorithm>
#include <map>

namespace kcheck::sim {

namespace {

/// Splits the distinct addresses into maximal runs of one constant step.
std::vector<std::pair<size_t, size_t>>
constantRuns(const std::vector<int64_t> &steps, size_t distinct) {
  std::vector<std::pair<size_t, size_t>> runs; // [first, last] addresses
  for (size_t i = 0; i < distinct;) {
    size_t j = i;
    while (j + 1 < distinct && steps[j] == steps[i])
      ++j;
    runs.push_back({i, j});
    i = j + 1;
  }
  return runs;
}

} // namespace

LanePattern classifyLanes(const std::array<uint64_t, 32> &addresses,
                          uint32_t activeMask, unsigned bytesPerLane,
                          unsigned sectorBytes) {
  using Kind = LanePattern::Kind;
  LanePattern p;
  std::map<uint64_t, unsigned> readers;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!((activeMask >> lane) & 1u))
      continue;
    p.lanes.push_back(lane);
    if (readers[addresses[lane]]++ == 0)
      p.addresses.push_back(addresses[lane]);
  }
  const size_t n = p.lanes.size(), distinct = p.addresses.size();
  if (n == 0)
    return p;
  p.lanesPerAddress = unsigned(n / distinct);
  for (const auto &[address, count] : readers)
    if (count != p.lanesPerAddress)
      p.lanesPerAddress = 0;
  if (n == 1) {
    p.kind = Kind::Single;
    return p;
  }
  if (distinct == 1 || distinct * 4 <= n) {
    p.kind = Kind::Broadcast;
    return p;
  }
  const int64_t B = bytesPerLane;
  std::vector<int64_t> steps;
  for (size_t i = 1; i < distinct; ++i)
    steps.push_back(int64_t(p.addresses[i] - p.addresses[i - 1]));
  bool constant = std::all_of(steps.begin(), steps.end(),
                              [&](int64_t d) { return d == steps.front(); });
  if (constant && steps.front() % B == 0) {
    p.kind = steps.front() == B ? Kind::Contiguous : Kind::Strided;
    p.stride = steps.front();
    p.misalignment =
        *std::min_element(p.addresses.begin(), p.addresses.end()) % sectorBytes;
    return p;
  }
  // Groups of lanes (rows of a 2-D block, say), each contiguous or at one
  // constant stride, each possibly misaligned.
  auto runs = constantRuns(steps, distinct);
  const int64_t inner = steps.front();
  bool longRuns = runs.size() > 1 && runs.size() <= 8 && inner > 0 &&
                  inner % B == 0 &&
                  std::all_of(runs.begin(), runs.end(), [&](const auto &r) {
                    return r.second > r.first && steps[r.first] == inner;
                  });
  if (!longRuns) {
    p.kind = Kind::Scattered;
    return p;
  }
  p.kind = Kind::Runs;
  p.stride = inner;
  for (const auto &[first, last] : runs)
    p.runs.push_back({last - first + 1, p.addresses[first],
                      p.addresses[first] % sectorBytes});
  return p;
}

} // namespace kcheck::sim

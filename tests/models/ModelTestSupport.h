// Helpers shared by the model tests: one warp's addresses built from a
// function of the lane, and the models of a named architecture.
#pragma once

#include "core/ArchSpec.h"
#include "simulator/models/WarpAddresses.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>

namespace kcheck::sim::test {

struct Warp {
  std::array<uint64_t, 32> addrs{};
  uint32_t mask = 0;
  unsigned bytes = 4;
  bool store = false;
  WarpAddresses view() const { return {bytes, mask, addrs.data(), store}; }
};

/// Lane l accesses addrOfLane(l); a negative address leaves the lane off.
inline Warp makeWarp(const std::function<int64_t(unsigned)> &addrOfLane,
                     unsigned bytes = 4, uint32_t mask = 0xffffffffu) {
  Warp w;
  w.bytes = bytes;
  for (unsigned l = 0; l < 32; ++l) {
    int64_t a = addrOfLane(l);
    if (a < 0)
      continue;
    w.addrs[l] = uint64_t(a);
    if ((mask >> l) & 1u)
      w.mask |= 1u << l;
  }
  return w;
}

/// `name` with the given options (defaults when left out).
inline core::ArchSpec archNamed(const std::string &name, int bankModeBytes = 0,
                                int l1Cache = -1) {
  std::optional<core::ArchSpec> a = core::findArch(name);
  EXPECT_TRUE(a.has_value()) << name;
  if (bankModeBytes)
    a->options.bankModeBytes = unsigned(bankModeBytes);
  if (l1Cache >= 0)
    a->options.l1Cache = l1Cache != 0;
  EXPECT_EQ(core::validateModelOptions(*a, a->options), "") << name;
  return *a;
}

} // namespace kcheck::sim::test

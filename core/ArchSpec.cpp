#include "core/ArchSpec.h"

#include <array>

namespace kcheck::core {

namespace {
struct ArchRow {
  const char *name;
  unsigned major, minor, banks, smCount, maxThreadsPerSM;
};
// SM counts and threads per SM are those of the flagship part of each
// generation (used only to answer device queries in host code).
constexpr std::array<ArchRow, 29> kArchs = {{
    {"sm_10", 1, 0, 16, 16, 768},     {"sm_11", 1, 1, 16, 16, 768},
    {"sm_12", 1, 2, 16, 30, 1024},    {"sm_13", 1, 3, 16, 30, 1024},
    {"sm_20", 2, 0, 32, 16, 1536},    {"sm_21", 2, 1, 32, 16, 1536},
    {"sm_30", 3, 0, 32, 8, 2048},     {"sm_32", 3, 2, 32, 1, 2048},
    {"sm_35", 3, 5, 32, 15, 2048},    {"sm_37", 3, 7, 32, 13, 2048},
    {"sm_50", 5, 0, 32, 5, 2048},     {"sm_52", 5, 2, 32, 24, 2048},
    {"sm_53", 5, 3, 32, 2, 2048},     {"sm_60", 6, 0, 32, 56, 2048},
    {"sm_61", 6, 1, 32, 30, 2048},    {"sm_62", 6, 2, 32, 2, 2048},
    {"sm_70", 7, 0, 32, 80, 2048},    {"sm_72", 7, 2, 32, 8, 2048},
    {"sm_75", 7, 5, 32, 72, 1024},    {"sm_80", 8, 0, 32, 108, 2048},
    {"sm_86", 8, 6, 32, 84, 1536},    {"sm_87", 8, 7, 32, 16, 1536},
    {"sm_89", 8, 9, 32, 128, 1536},   {"sm_90", 9, 0, 32, 132, 2048},
    {"sm_90a", 9, 0, 32, 132, 2048},  {"sm_100", 10, 0, 32, 148, 2048},
    {"sm_103", 10, 3, 32, 148, 2048}, {"sm_120", 12, 0, 32, 170, 1536},
    {"sm_121", 12, 1, 32, 48, 1536},
}};
} // namespace

std::optional<ArchSpec> findArch(std::string_view name) {
  for (const ArchRow &r : kArchs) {
    if (name != r.name)
      continue;
    ArchSpec a;
    a.name = r.name;
    a.major = r.major;
    a.minor = r.minor;
    a.sharedBanks = r.banks;
    a.smCount = r.smCount;
    a.maxThreadsPerSM = r.maxThreadsPerSM;
    return a;
  }
  return std::nullopt;
}

std::vector<std::string> knownArchNames() {
  std::vector<std::string> names;
  for (const ArchRow &r : kArchs)
    names.push_back(r.name);
  return names;
}

} // namespace kcheck::core

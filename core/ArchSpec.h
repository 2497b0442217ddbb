// ArchSpec: the hardware facts kcheck's models need, one data record per
// architecture, chosen by `--arch sm_XX`. Rules are data plus small pure
// functions in simulator/models; there are no integer "arch codes" elsewhere.
//
// Sources: CUDA C++ Programming Guide, "Compute Capabilities" (shared memory
// banks per generation, global memory transactions), and for sm_90 the H100
// measurements in ../shared/corpus/h100 (see simulator/models/*.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::core {

struct ArchSpec {
  std::string name; // "sm_90"
  unsigned major = 0, minor = 0;
  unsigned warpSize = 32;
  unsigned sharedBanks = 32; // 16 on cc1.x
  unsigned bankWidthBytes = 4;
  unsigned sectorBytes = 32; // global memory granule counted by the model
  unsigned smCount = 0;      // for device queries (0 = unknown)
  unsigned maxThreadsPerSM = 0;
};

/// The architecture named `sm_XX`, or nullopt when kcheck does not know it.
std::optional<ArchSpec> findArch(std::string_view name);
/// Every name findArch accepts, for `--help` and error messages.
std::vector<std::string> knownArchNames();

} // namespace kcheck::core

// ArchSpec: the hardware facts kcheck's models need, one data record per
// architecture, chosen by `--arch sm_XX`. Rules are data plus small pure
// functions in simulator/models; there are no integer "arch codes" elsewhere.
//
// Sources (each field cites the rule it encodes; docs/models.md lists them):
// - [Guide] CUDA C++ Programming Guide, appendix "Compute Capabilities":
//   "Compute Capability 1.x" (global memory, shared memory), "2.x", "3.x",
//   "5.x" ("same as 3.x" for L2), "6.x", "7.x", "8.x" ("same as 5.x").
// - [Slides] the seed slides (../shared/seeds, COMP4007 ch. 5): 16 banks x 4
//   bytes (cc1.x), 32 x 4 (cc2.x, 5.x, 7.x), 32 x 4 or 32 x 8 (cc3.x modes);
//   128-byte L1 lines (cc2.x), 32-byte L2 segments (cc3.x, 5.x).
// - [H100] Nsight Compute measurements, ../shared/corpus/h100.
// - [L1TEX] NVIDIA's Nsight Compute L1TEX model (forums.developer.nvidia.com
//   /t/165293): on Volta and newer, one request per warp instruction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcheck::core {

/// Who a shared-memory request serves at once. [Guide 1.x]: "A shared memory
/// request for a warp is split into two memory requests, one for each
/// half-warp"; later generations issue per warp.
enum class SharedIssue { HalfWarp, Warp };

/// Which lanes reading one word are served together. [Guide 1.x]: one
/// broadcast word per step, other banks serve one address each; [Guide 2.x+]:
/// any number of words multicast (no conflict within one word).
enum class SharedBroadcast { OneWordPerStep, Multicast };

/// How accesses wider than a bank word are split, per generation.
enum class SharedWideAccess {
  Split32Bit,         // [Guide 1.x] separate 32-bit requests
  FermiHalfQuarter,   // [Guide 2.x] 64-bit per half-warp, 128-bit +1 rule
  KeplerWholeWarp,    // [Guide 3.x] 64-bit banks; whole warp, mode rules
  HalfWarpPhasesH100, // [H100] half-warp phases, quad sharing for 128-bit
};

struct SharedMemorySpec {
  unsigned banks = 32;            // [Slides], [Guide]: 16 on cc1.x
  unsigned defaultBankBytes = 4;  // [Guide 3.x]: 4-byte mode is the default
  bool eightByteBankMode = false; // [Guide 3.x], [Slides]: cc3.x only
  SharedIssue issue = SharedIssue::Warp;
  SharedBroadcast broadcast = SharedBroadcast::Multicast;
  SharedWideAccess wide = SharedWideAccess::HalfWarpPhasesH100;
};

/// How global loads and stores become transactions.
enum class GlobalRules {
  HalfWarpSequential, // [Guide 1.0/1.1]: k-th thread, k-th word, or 1/thread
  HalfWarpSegments,   // [Guide 1.2/1.3]: 32/64/128-byte segments, reduced
  CachedTransactions, // [Guide 2.x+]: lines or segments per request
};

/// How one warp instruction is split into memory requests.
enum class GlobalRequests {
  HalfWarp,          // [Guide 1.x]: "performed per half-warp"
  Per128Bytes,       // [Guide 2.x, 3.x]: 8 bytes: 2 requests, 16 bytes: 4
  OnePerInstruction, // [L1TEX]: Volta and newer
};

struct GlobalMemorySpec {
  GlobalRules rules = GlobalRules::CachedTransactions;
  GlobalRequests requests = GlobalRequests::OnePerInstruction;
  unsigned segmentBytes = 32; // [Guide 2.x+], [Slides]: L2 segment / sector
  /// Transaction size of loads cached in L1 where it differs from the
  /// segment: 128 on cc2.x and cc3.x [Guide], 0 where it does not (cc5.x+
  /// count 32-byte sectors either way [H100]).
  unsigned l1LineBytes = 0;
  bool l1CacheDefault = false;   // [Guide 2.x]: on; [Guide 3.x]: L2 only
  bool l1CacheSelectable = true; // false on cc1.x: no L1 for global memory
};

/// What a program learns about the GPU from device queries
/// (cudaGetDeviceProperties, cudaDeviceGetAttribute), what the simulated
/// runtime and the simulator enforce (shared memory per block, grid and
/// block sizes), and what occupancy is computed from. [Guide] "Technical
/// Specifications per Compute Capability"; [Occ] the toolkit's
/// cuda_occupancy.h; the defaults are the H100 SXM's (sm_90, where kcheck's
/// counting rules were measured), also answered for other generations whose
/// record does not say otherwise.
/// The largest texture and surface extents a device takes, by dimension
/// ([Guide] "Technical Specifications per Compute Capability", the texture
/// rows): t* textures, s* surfaces; [n] width, height, depth or layers.
struct TextureLimits {
  int t1D, t1DMipmap, t1DLinear, t2D[2], t2DMipmap[2], t2DLinear[3],
      t2DGather[2], t3D[3], t3DAlt[3], cubemap, cubemapLayered[2],
      t1DLayered[2], t2DLayered[3];
  int s1D, s2D[2], s3D[3], s1DLayered[2], s2DLayered[3], sCubemap,
      sCubemapLayered[2];
};
/// cc7.0 and later: the Guide's one column for 7.x-12.x, and what the H200
/// answers (docs/validation/data/h200-runtime-facts.tsv).
inline constexpr TextureLimits kTextureLimitsVolta = {131072,
                                                      32768,
                                                      268435456,
                                                      {131072, 65536},
                                                      {32768, 32768},
                                                      {131072, 65000, 2097120},
                                                      {32768, 32768},
                                                      {16384, 16384, 16384},
                                                      {8192, 8192, 32768},
                                                      32768,
                                                      {32768, 2046},
                                                      {32768, 2048},
                                                      {32768, 32768, 2048},
                                                      32768,
                                                      {131072, 65536},
                                                      {16384, 16384, 16384},
                                                      {32768, 2048},
                                                      {32768, 32768, 2048},
                                                      32768,
                                                      {32768, 2046}};
/// Before cc7.0: the CUDA 11 Guide's cc3.x column (5.x and 6.x share most of
/// it; docs/conformance.md lists this as approximate for cc < 3.0).
inline constexpr TextureLimits kTextureLimitsKepler = {65536,
                                                       16384,
                                                       134217728,
                                                       {65536, 65535},
                                                       {16384, 16384},
                                                       {65000, 65000, 1048544},
                                                       {16384, 16384},
                                                       {4096, 4096, 4096},
                                                       {2048, 2048, 16384},
                                                       16384,
                                                       {16384, 2046},
                                                       {16384, 2048},
                                                       {16384, 16384, 2048},
                                                       65536,
                                                       {65536, 32768},
                                                       {65536, 32768, 2048},
                                                       {65536, 2048},
                                                       {65536, 32768, 2048},
                                                       32768,
                                                       {32768, 2046}};

/// Which kind of part an ArchSpec row answers device queries for: ECC,
/// GPUDirect RDMA and double-precision rate follow it.
enum class PartKind { Datacenter, Consumer, Integrated };

struct DeviceLimits {
  uint64_t sharedPerBlock = 48 * 1024, sharedPerBlockOptin = 48 * 1024;
  uint64_t sharedPerSM = 48 * 1024, reservedSharedPerBlock = 0;
  int registersPerBlock = 65536, registersPerSM = 65536;
  int blocksPerSM = 32, maxThreadsPerBlock = 1024;
  int maxBlockDimZ = 64;
  int maxGridDimX = 2147483647, maxGridDimYZ = 65535;
  // [Occ] cudaOccSMemAllocationGranularity, cudaOccRegAllocationMaxPerThread,
  // cudaOccSubPartitionsPerMultiprocessor.
  unsigned sharedAllocationGranularity = 128;
  int maxRegistersPerThread = 256;
  int subPartitions = 4;
  // [Occ] cudaOccMaxBlocksPerSMBlockBarrierLimit: named-barrier sets per
  // resident-block slot from sm_90 (0: barriers do not limit occupancy).
  int barrierSetsPerBlockSlot = 0;
  uint64_t totalGlobalMem = uint64_t(80) << 30;
  int l2Bytes = 50 * 1024 * 1024;
  int clockRateKHz = 1980000, memoryClockRateKHz = 2619000;
  int memoryBusWidth = 5120, totalConstMem = 65536, memPitch = 2147483647;
  int textureAlignment = 512, texturePitchAlignment = 32;
  // Copy engines: 3 on the GH100 (measured on the H200, same chip).
  int asyncEngineCount = 3;
  // The L2 set-aside limit for persisting accesses (cudaLimitPersisting-
  // L2CacheSize): the H200 answers 62914560 * 5/8; the H100's 50 MB * 5/8.
  // 0 before cc8.0, which has no access-policy window.
  int persistingL2Bytes = 32768000;
  // FP32 to FP64 throughput [Guide, Arithmetic Instructions]: 2 on the
  // parts with full-rate FP64 (cc6.0, 7.0, 8.0, 9.0, 10.x).
  int singleToDoubleRatio = 2;
  TextureLimits texture = kTextureLimitsVolta;
  // The shared-memory carveouts an SM can be configured with, in KB,
  // ascending (cc7.0 and later; empty before) [Occ]
  // cudaOccAlignUpShmemSizeVoltaPlus: a preference is rounded up to one.
  std::array<uint16_t, 10> carveoutKB = {0,   8,   16,  32,  64,
                                         100, 132, 164, 196, 228};
  size_t carveouts = 10;
  // How the occupancy calculator places thread-block clusters
  // (cudaOccupancyMaxActiveClusters): a cluster's blocks on distinct SMs of
  // one GPC, at most clusterBlocksPerSM of the blocks on one SM; the SMs of
  // each GPC as the calculator counts them (clusterGpcs of them; 0: not
  // measured for this part). [H200] docs/validation/data/
  // h200-cluster_occupancy.txt: 312 configurations fitted exactly.
  int clusterBlocksPerSM = 0;
  std::array<uint8_t, 16> clusterGpcSms = {};
  size_t clusterGpcs = 0;
};

/// What the user may change per run (`--bank-mode`, `--l1-cache`).
struct ModelOptions {
  unsigned bankModeBytes = 4; // 4, or 8 on cc3.x
  bool l1Cache = false;       // global loads cached in L1 (-dlcm=ca)
};

struct ArchSpec {
  std::string name; // "sm_90"
  unsigned major = 0, minor = 0;
  unsigned warpSize = 32;
  unsigned sharedBanks = 32;   // = shared.banks (kept for existing callers)
  unsigned bankWidthBytes = 4; // = shared.defaultBankBytes (ditto)
  unsigned sectorBytes = 32;   // = global.segmentBytes (ditto)
  unsigned smCount = 0;        // for device queries (0 = unknown)
  std::string deviceName;      // cudaDeviceProp::name
  PartKind part = PartKind::Datacenter;
  unsigned maxThreadsPerSM = 0;
  SharedMemorySpec shared;
  GlobalMemorySpec global;
  DeviceLimits limits;
  /// What the models use; findArch fills the defaults, the CLI overrides
  /// them after validateModelOptions.
  ModelOptions options;
};

/// The architecture named `sm_XX`, or nullopt when kcheck does not know it.
std::optional<ArchSpec> findArch(std::string_view name);
/// Every name findArch accepts, for `--help` and error messages.
std::vector<std::string> knownArchNames();

/// The options a run uses when the user sets none.
ModelOptions defaultModelOptions(const ArchSpec &arch);
/// Why `options` cannot apply to `arch` (a usage error), or "" when they can.
std::string validateModelOptions(const ArchSpec &arch,
                                 const ModelOptions &options);

} // namespace kcheck::core

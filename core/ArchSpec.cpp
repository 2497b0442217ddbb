#include "core/ArchSpec.h"

#include <array>

namespace kcheck::core {

namespace {

/// The memory rules one group of compute capabilities shares. Each record's
/// comment names the Programming Guide section its fields come from.
struct GenerationRules {
  SharedMemorySpec shared;
  GlobalMemorySpec global;
};

// cc1.0, 1.1: 16 banks, per half-warp, one broadcast word; strict coalescing.
constexpr GenerationRules kTesla10 = {
    {16, 4, false, SharedIssue::HalfWarp, SharedBroadcast::OneWordPerStep,
     SharedWideAccess::Split32Bit},
    {GlobalRules::HalfWarpSequential, GlobalRequests::HalfWarp, 32, 0, false,
     false}};
// cc1.2, 1.3: shared as 1.0; any pattern coalesces into reduced segments.
constexpr GenerationRules kTesla12 = {kTesla10.shared,
                                      {GlobalRules::HalfWarpSegments,
                                       GlobalRequests::HalfWarp, 32, 0, false,
                                       false}};
// cc2.x: 32 banks x 4 bytes, multicast; L1 caches global loads by default in
// 128-byte lines, 32-byte segments with -dlcm=cg.
constexpr GenerationRules kFermi = {
    {32, 4, false, SharedIssue::Warp, SharedBroadcast::Multicast,
     SharedWideAccess::FermiHalfQuarter},
    {GlobalRules::CachedTransactions, GlobalRequests::Per128Bytes, 32, 128,
     true, true}};
// cc3.x: 32 banks, 4- or 8-byte mode; global loads cached in L2 only by
// default, 128-byte L1 lines where opted in (-dlcm=ca).
constexpr GenerationRules kKepler = {
    {32, 4, true, SharedIssue::Warp, SharedBroadcast::Multicast,
     SharedWideAccess::KeplerWholeWarp},
    {GlobalRules::CachedTransactions, GlobalRequests::Per128Bytes, 32, 128,
     false, true}};
// cc5.x, 6.x: 32 banks x 4 bytes; L2 "same as 3.x", counted in 32-byte
// sectors whether L1 caches the load or not.
constexpr GenerationRules kMaxwellPascal = {
    {32, 4, false, SharedIssue::Warp, SharedBroadcast::Multicast,
     SharedWideAccess::HalfWarpPhasesH100},
    {GlobalRules::CachedTransactions, GlobalRequests::Per128Bytes, 32, 0, false,
     true}};
// cc7.x and later: as 5.x, one L1TEX request per instruction; sm_90 as
// measured on the H100. L1 caches global loads by default.
constexpr GenerationRules kVoltaAndLater = {kMaxwellPascal.shared,
                                            {GlobalRules::CachedTransactions,
                                             GlobalRequests::OnePerInstruction,
                                             32, 0, true, true}};

/// `l` with the carveouts `kb` [Occ cudaOccAlignUpShmemSizeVoltaPlus].
template <size_t N>
constexpr DeviceLimits withCarveouts(DeviceLimits l, const uint16_t (&kb)[N]) {
  l.carveoutKB = {};
  for (size_t i = 0; i < N; ++i)
    l.carveoutKB[i] = kb[i];
  l.carveouts = N;
  return l;
}
constexpr DeviceLimits withoutCarveouts(DeviceLimits l) {
  l.carveoutKB = {};
  l.carveouts = 0; // before cc7.0: the cache configuration's split instead
  return l;
}

/// Device limits per group of compute capabilities [Guide, Technical
/// Specifications; Occ]; fields not set are DeviceLimits' defaults.
constexpr DeviceLimits limitsTesla(int registersPerSM) {
  DeviceLimits l;
  l.sharedPerBlock = l.sharedPerBlockOptin = l.sharedPerSM = 16 * 1024;
  l.registersPerSM = registersPerSM;
  l.blocksPerSM = 8;
  l.maxThreadsPerBlock = 512;
  l.maxGridDimX = 65535;
  l.sharedAllocationGranularity = 256;
  l.maxRegistersPerThread = 255;
  l.texture = kTextureLimitsKepler;
  l.persistingL2Bytes = 0;
  return l;
}
constexpr DeviceLimits kTesla10Limits = withoutCarveouts(limitsTesla(8192));
constexpr DeviceLimits kTesla12Limits = withoutCarveouts(limitsTesla(16384));
constexpr DeviceLimits kFermiLimits = [] {
  DeviceLimits l;
  l.registersPerSM = 32768;
  l.blocksPerSM = 8;
  l.maxGridDimX = 65535;
  l.sharedAllocationGranularity = 256;
  l.maxRegistersPerThread = 255;
  l.texture = kTextureLimitsKepler;
  l.persistingL2Bytes = 0;
  l = withoutCarveouts(l);
  return l;
}();
constexpr DeviceLimits kKeplerMaxwellPascalLimits = [] {
  DeviceLimits l;
  l.blocksPerSM = 16; // cc3.x; Maxwell and Pascal below
  l.sharedAllocationGranularity = 256;
  l.maxRegistersPerThread = 255;
  l.texture = kTextureLimitsKepler;
  l.persistingL2Bytes = 0;
  l = withoutCarveouts(l);
  return l;
}();
constexpr DeviceLimits kMaxwellPascalLimits = [] {
  DeviceLimits l = kKeplerMaxwellPascalLimits;
  l.blocksPerSM = 32;
  return l;
}();
constexpr DeviceLimits kGP100Limits = [] { // sm_60: two sub-partitions [Occ]
  DeviceLimits l = kMaxwellPascalLimits;
  l.subPartitions = 2;
  return l;
}();
constexpr DeviceLimits kVoltaLimits = [] {
  DeviceLimits l;
  l.sharedPerBlockOptin = l.sharedPerSM = 96 * 1024;
  l.sharedAllocationGranularity = 256;
  l.persistingL2Bytes = 0;
  constexpr uint16_t kb[] = {0, 8, 16, 32, 64, 96};
  l = withCarveouts(l, kb);
  return l;
}();
constexpr DeviceLimits kTuringLimits = [] {
  DeviceLimits l;
  l.sharedPerBlockOptin = l.sharedPerSM = 64 * 1024;
  l.blocksPerSM = 16;
  l.sharedAllocationGranularity = 256;
  l.persistingL2Bytes = 0;
  constexpr uint16_t kb[] = {32, 64};
  l = withCarveouts(l, kb);
  return l;
}();
// cc8.0 and later reserve 1 KB of shared memory per block.
constexpr DeviceLimits ampereLimits(uint64_t optinKB, uint64_t perSMKB,
                                    int blocksPerSM) {
  DeviceLimits l;
  l.sharedPerBlockOptin = optinKB * 1024;
  l.sharedPerSM = perSMKB * 1024;
  l.blocksPerSM = blocksPerSM;
  l.reservedSharedPerBlock = 1024;
  return l;
}
constexpr uint16_t kCarveouts164[] = {0, 8, 16, 32, 64, 100, 132, 164};
constexpr uint16_t kCarveouts100[] = {0, 8, 16, 32, 64, 100};
constexpr DeviceLimits kA100Limits =
    withCarveouts(ampereLimits(163, 164, 32), kCarveouts164);
constexpr DeviceLimits kOrinLimits =
    withCarveouts(ampereLimits(163, 164, 16), kCarveouts164);
constexpr DeviceLimits kGA10xLimits =
    withCarveouts(ampereLimits(99, 100, 16), kCarveouts100);
// cc8.9 and 12.x: 24 resident blocks [Occ cudaOccMaxBlocksPerMultiprocessor].
constexpr DeviceLimits kAdaLimits =
    withCarveouts(ampereLimits(99, 100, 24), kCarveouts100);
constexpr DeviceLimits withBarrierSets(DeviceLimits l, int sets) {
  l.barrierSetsPerBlockSlot = sets;
  return l;
}
constexpr DeviceLimits kBlackwellGeForceLimits = withBarrierSets(kAdaLimits, 1);
// The H200's GPCs as its occupancy calculator counts them (ArchSpec.h): 132
// SMs as 18, 18, 16 x 5, 8 and 2 x 4, measured (the H100 SXM is the same chip
// with the same SM count; its layout is taken to be the same). Not measured
// for other parts.
constexpr DeviceLimits withClusters(DeviceLimits l, bool measuredHopper) {
  if (measuredHopper) {
    l.clusterBlocksPerSM = 8;
    l.clusterGpcSms = {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2};
    l.clusterGpcs = 12;
  } else {
    l.clusterBlocksPerSM = 0, l.clusterGpcs = 0, l.clusterGpcSms = {};
  }
  return l;
}
// Two named-barrier sets per block slot on sm_90, one from sm_100 [Occ].
constexpr DeviceLimits kHopperLimits =
    withClusters(withBarrierSets(ampereLimits(227, 228, 32), 2), true);
constexpr DeviceLimits kBlackwellLimits =
    withClusters(withBarrierSets(kHopperLimits, 1), false);

struct ArchRow {
  const char *name;
  unsigned major, minor, smCount, maxThreadsPerSM;
  const GenerationRules *rules;
  const DeviceLimits *limits;
  PartKind part; // the flagship part's kind
  // FP32 over FP64 results per clock per SM [Guide, "Throughput of Native
  // Arithmetic Instructions"]; cc1.0-1.2 have no FP64 and answer 1.3's.
  int singleToDoubleRatio;
};
// SM counts, threads per SM and the part's kind are those of the flagship
// part of each generation (used only to answer device queries in host code).
constexpr std::array<ArchRow, 29> kArchs = {{
    {"sm_10", 1, 0, 16, 768, &kTesla10, &kTesla10Limits, PartKind::Consumer, 8},
    {"sm_11", 1, 1, 16, 768, &kTesla10, &kTesla10Limits, PartKind::Consumer, 8},
    {"sm_12", 1, 2, 30, 1024, &kTesla12, &kTesla12Limits, PartKind::Consumer,
     8},
    {"sm_13", 1, 3, 30, 1024, &kTesla12, &kTesla12Limits, PartKind::Datacenter,
     8},
    {"sm_20", 2, 0, 16, 1536, &kFermi, &kFermiLimits, PartKind::Datacenter, 2},
    {"sm_21", 2, 1, 16, 1536, &kFermi, &kFermiLimits, PartKind::Consumer, 12},
    {"sm_30", 3, 0, 8, 2048, &kKepler, &kKeplerMaxwellPascalLimits,
     PartKind::Consumer, 24},
    {"sm_32", 3, 2, 1, 2048, &kKepler, &kKeplerMaxwellPascalLimits,
     PartKind::Integrated, 24},
    {"sm_35", 3, 5, 15, 2048, &kKepler, &kKeplerMaxwellPascalLimits,
     PartKind::Datacenter, 3},
    {"sm_37", 3, 7, 13, 2048, &kKepler, &kKeplerMaxwellPascalLimits,
     PartKind::Datacenter, 3},
    {"sm_50", 5, 0, 5, 2048, &kMaxwellPascal, &kMaxwellPascalLimits,
     PartKind::Consumer, 32},
    {"sm_52", 5, 2, 24, 2048, &kMaxwellPascal, &kMaxwellPascalLimits,
     PartKind::Consumer, 32},
    {"sm_53", 5, 3, 2, 2048, &kMaxwellPascal, &kMaxwellPascalLimits,
     PartKind::Integrated, 32},
    {"sm_60", 6, 0, 56, 2048, &kMaxwellPascal, &kGP100Limits,
     PartKind::Datacenter, 2},
    {"sm_61", 6, 1, 30, 2048, &kMaxwellPascal, &kMaxwellPascalLimits,
     PartKind::Consumer, 32},
    {"sm_62", 6, 2, 2, 2048, &kMaxwellPascal, &kMaxwellPascalLimits,
     PartKind::Integrated, 32},
    {"sm_70", 7, 0, 80, 2048, &kVoltaAndLater, &kVoltaLimits,
     PartKind::Datacenter, 2},
    {"sm_72", 7, 2, 8, 2048, &kVoltaAndLater, &kVoltaLimits,
     PartKind::Integrated, 2},
    {"sm_75", 7, 5, 72, 1024, &kVoltaAndLater, &kTuringLimits,
     PartKind::Consumer, 32},
    {"sm_80", 8, 0, 108, 2048, &kVoltaAndLater, &kA100Limits,
     PartKind::Datacenter, 2},
    {"sm_86", 8, 6, 84, 1536, &kVoltaAndLater, &kGA10xLimits,
     PartKind::Consumer, 64},
    {"sm_87", 8, 7, 16, 1536, &kVoltaAndLater, &kOrinLimits,
     PartKind::Integrated, 64},
    {"sm_89", 8, 9, 128, 1536, &kVoltaAndLater, &kAdaLimits, PartKind::Consumer,
     64},
    {"sm_90", 9, 0, 132, 2048, &kVoltaAndLater, &kHopperLimits,
     PartKind::Datacenter, 2},
    {"sm_90a", 9, 0, 132, 2048, &kVoltaAndLater, &kHopperLimits,
     PartKind::Datacenter, 2},
    {"sm_100", 10, 0, 148, 2048, &kVoltaAndLater, &kBlackwellLimits,
     PartKind::Datacenter, 2},
    {"sm_103", 10, 3, 148, 2048, &kVoltaAndLater, &kBlackwellLimits,
     PartKind::Datacenter, 2},
    {"sm_120", 12, 0, 170, 1536, &kVoltaAndLater, &kBlackwellGeForceLimits,
     PartKind::Consumer, 64},
    {"sm_121", 12, 1, 48, 1536, &kVoltaAndLater, &kBlackwellGeForceLimits,
     PartKind::Integrated, 64},
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
    a.smCount = r.smCount;
    a.maxThreadsPerSM = r.maxThreadsPerSM;
    // The part kcheck's counting rules were measured on answers with its
    // own name (cudaDeviceProp::name, as the H100 reported it); other
    // generations with a name that says what they are.
    a.deviceName =
        a.major == 9 ? "NVIDIA H100 80GB HBM3" : "kcheck simulated " + a.name;
    a.shared = r.rules->shared;
    a.global = r.rules->global;
    a.limits = *r.limits;
    a.limits.singleToDoubleRatio = r.singleToDoubleRatio;
    a.part = r.part;
    a.sharedBanks = a.shared.banks;
    a.bankWidthBytes = a.shared.defaultBankBytes;
    a.sectorBytes = a.global.segmentBytes;
    a.options = defaultModelOptions(a);
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

ModelOptions defaultModelOptions(const ArchSpec &arch) {
  return {arch.shared.defaultBankBytes, arch.global.l1CacheDefault};
}

std::string validateModelOptions(const ArchSpec &arch,
                                 const ModelOptions &options) {
  if (options.bankModeBytes != 4 && options.bankModeBytes != 8)
    return "--bank-mode must be 4 or 8 (bytes per shared-memory bank)";
  if (options.bankModeBytes == 8 && !arch.shared.eightByteBankMode)
    return "--bank-mode 8 needs compute capability 3.x (Kepler's 64-bit bank "
           "mode); " +
           arch.name + " has 4-byte banks only";
  if (options.l1Cache && !arch.global.l1CacheSelectable)
    return "--l1-cache on needs compute capability 2.0 or later; " + arch.name +
           " does not cache global memory in L1";
  return "";
}

} // namespace kcheck::core

// The occupancy calculator (core/Occupancy) against the CUDA toolkit's own,
// include/cuda_occupancy.h, over random kernels and launches on every
// architecture both know; skipped where the toolkit is not installed.
#include "core/Occupancy.h"
#include "core/DeviceFacts.h"

#include <gtest/gtest.h>

#include <random>

#ifdef KCHECK_HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>
#endif

using namespace kcheck::core;

TEST(Occupancy, H100Examples) {
  ArchSpec h100 = *findArch("sm_90");
  KernelResources k;
  k.registers = 21;
  k.staticSharedBytes = 1024;
  k.barriers = 1;
  // 256 threads, 21 registers, 1 KB: 8 warps each; 64 warps per SM.
  Occupancy o = occupancy(h100, k, 256, 0);
  EXPECT_EQ(o.blocksPerSM, 8);
  EXPECT_EQ(o.limitedBy(), "warps");
  // 255 registers: a warp takes 8192 of 16384 per sub-partition.
  k.registers = 255;
  EXPECT_EQ(occupancy(h100, k, 128, 0).blocksPerSM, 2);
  EXPECT_EQ(occupancy(h100, k, 128, 0).limitedBy(), "registers");
  EXPECT_EQ(maxThreadsPerBlock(h100, k), 256);
  EXPECT_EQ(occupancy(h100, k, 512, 0).blocksPerSM, 0);
  // Shared memory: 100 KB dynamic needs the opt-in attribute.
  k.registers = 32;
  EXPECT_EQ(occupancy(h100, k, 128, 100 * 1024).blocksPerSM, 0);
  k.maxDynamicSharedBytes = 200 * 1024;
  EXPECT_EQ(occupancy(h100, k, 128, 100 * 1024).blocksPerSM, 2);
  EXPECT_EQ(occupancy(h100, k, 128, 100 * 1024).limitedBy(), "shared memory");
  k = KernelResources{};
  k.registers = 16;
  PotentialBlockSize p = maxPotentialBlockSize(h100, k, 0);
  EXPECT_EQ(p.blockThreads, 1024);
  EXPECT_EQ(p.minGridSize, 2 * 132);
}

// As the H200 answers cudaOccupancyAvailableDynamicSMemPerBlock
// (docs/validation/data/h200-runtime-facts-2.tsv and, after
// cudaDeviceSetCacheConfig(cudaFuncCachePreferL1), h200-runtime-facts.tsv).
TEST(Occupancy, AvailableDynamicSharedAsTheH200Answers) {
  ArchSpec h100 = *findArch("sm_90");
  KernelResources none, small, large;
  small.staticSharedBytes = 256;
  large.staticSharedBytes = 16384;
  auto available = [&](const KernelResources &k, int blocks, int threads,
                       SharedPreference p = {}) {
    return availableDynamicSharedBytes(h100, k, blocks, threads, p);
  };
  EXPECT_EQ(available(none, 1, 32), 49152u);
  EXPECT_EQ(available(none, 8, 256), 29184u);
  EXPECT_EQ(available(none, 32, 32), 7296u);
  EXPECT_FALSE(available(none, 3, 1024)); // 3072 threads do not fit
  EXPECT_EQ(available(small, 8, 32), 28928u);
  EXPECT_EQ(available(small, 32, 32), 7040u);
  EXPECT_EQ(available(large, 8, 128), 12800u);
  EXPECT_FALSE(available(large, 16, 32));
  KernelResources optIn = small;
  optIn.maxDynamicSharedBytes = 200 * 1024;
  SharedPreference full{0, 100};
  EXPECT_EQ(available(optIn, 1, 32, full), 204800u);
  EXPECT_EQ(available(optIn, 2, 32, full), 116480u);
  EXPECT_EQ(available(optIn, 3, 32, full), 77568u);
  EXPECT_EQ(available(optIn, 4, 32, full), 58112u);
  SharedPreference preferL1{2, -1};
  EXPECT_EQ(available(small, 2, 128, preferL1), 3840u);
}

TEST(Occupancy, CoResidentBlocksOfACooperativeLaunch) {
  ArchSpec h100 = *findArch("sm_90");
  // Without the kernel's resources: only the 2048 threads per SM bound it.
  EXPECT_EQ(maxCoResidentBlocks(h100, nullptr, 256, 0), 8u * 132);
  EXPECT_EQ(maxCoResidentBlocks(h100, nullptr, 96, 0), 21u * 132);
  // With them: the calculator's blocks per SM (255 registers: 2 of 128).
  KernelResources k;
  k.registers = 255;
  EXPECT_EQ(maxCoResidentBlocks(h100, &k, 128, 0), 2u * 132);
  h100.smCount = 0; // unknown
  EXPECT_EQ(maxCoResidentBlocks(h100, &k, 128, 0), 0u);
}

#ifdef KCHECK_HAVE_CUDA_OCCUPANCY_H
// The toolkit calculator's description of the device kcheck answers for.
cudaOccDeviceProp toolkitProperties(const DeviceFacts &f) {
  cudaOccDeviceProp prop;
  prop.computeMajor = f.major;
  prop.computeMinor = f.minor;
  prop.maxThreadsPerBlock = f.maxThreadsPerBlock;
  prop.maxThreadsPerMultiprocessor = f.maxThreadsPerSM;
  prop.regsPerBlock = f.registersPerBlock;
  prop.regsPerMultiprocessor = f.registersPerSM;
  prop.warpSize = f.warpSize;
  prop.sharedMemPerBlock = f.sharedPerBlock;
  prop.sharedMemPerMultiprocessor = f.sharedPerSM;
  prop.numSms = f.smCount;
  prop.sharedMemPerBlockOptin = f.sharedPerBlockOptin;
  prop.reservedSharedMemPerBlock = f.reservedSharedPerBlock;
  return prop;
}

TEST(Occupancy, AgreesWithTheToolkitsCalculator) {
  std::mt19937 rng(17);
  int compared = 0;
  for (const std::string &name : knownArchNames()) {
    ArchSpec arch = *findArch(name);
    if (arch.major < 7) // cuda_occupancy.h's rules before Volta differ in
      continue;         // cache carveouts kcheck does not model
    DeviceFacts f = deviceFacts(arch);
    cudaOccDeviceProp prop = toolkitProperties(f);
    cudaOccDeviceState state;
    for (int i = 0; i < 3000; ++i) {
      KernelResources k;
      k.registers = int(rng() % 257);
      k.staticSharedBytes = rng() % 3 ? rng() % (16 * 1024) : 0;
      if (rng() % 4 == 0)
        k.maxDynamicSharedBytes = rng() % f.sharedPerBlockOptin + 1;
      int threads = int(rng() % 1024) + 1;
      uint64_t dynamic = rng() % 2 ? rng() % (64 * 1024) : 0;
      cudaOccFuncAttributes attr;
      attr.maxThreadsPerBlock = maxThreadsPerBlock(arch, k);
      attr.numRegs = k.registers;
      attr.sharedSizeBytes = k.staticSharedBytes;
      attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
      attr.maxDynamicSharedSizeBytes = maxDynamicSharedBytes(arch, k);
      attr.numBlockBarriers = 1;
      cudaOccResult result;
      ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(
                    &result, &prop, &attr, &state, threads, dynamic),
                CUDA_OCC_SUCCESS);
      Occupancy o = occupancy(arch, k, threads, dynamic);
      ASSERT_EQ(o.blocksPerSM, result.activeBlocksPerMultiprocessor)
          << name << " registers " << k.registers << " threads " << threads
          << " static " << k.staticSharedBytes << " dynamic " << dynamic
          << " max dynamic " << attr.maxDynamicSharedSizeBytes;
      if (i % 50 == 0 && attr.maxThreadsPerBlock > 0) {
        int minGrid = 0, block = 0;
        ASSERT_EQ(cudaOccMaxPotentialOccupancyBlockSize(
                      &minGrid, &block, &prop, &attr, &state, nullptr, dynamic),
                  CUDA_OCC_SUCCESS);
        PotentialBlockSize p = maxPotentialBlockSize(arch, k, dynamic);
        EXPECT_EQ(p.blockThreads, block) << name;
        EXPECT_EQ(p.minGridSize, minGrid) << name;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 3000);
}

// Blocks per SM under a cache or carveout preference, and the dynamic
// shared memory left (cudaOccAvailableDynamicSMemPerBlock), both against
// the toolkit's calculator.
TEST(Occupancy, PreferencesAndAvailableSharedAgreeWithTheToolkit) {
  std::mt19937 rng(23);
  int compared = 0;
  for (const std::string &name : knownArchNames()) {
    ArchSpec arch = *findArch(name);
    if (arch.major < 7)
      continue;
    DeviceFacts f = deviceFacts(arch);
    cudaOccDeviceProp prop = toolkitProperties(f);
    for (int i = 0; i < 2000; ++i) {
      KernelResources k;
      k.registers = int(rng() % 128);
      k.staticSharedBytes = rng() % 3 ? rng() % (16 * 1024) : 0;
      if (rng() % 4 == 0)
        k.maxDynamicSharedBytes = rng() % f.sharedPerBlockOptin + 1;
      SharedPreference pref;
      pref.cacheConfig = int(rng() % 4);
      pref.carveoutPercent = rng() % 2 ? -1 : int(rng() % 101);
      cudaOccDeviceState state;
      state.cacheConfig = cudaOccCacheConfig(pref.cacheConfig);
      state.carveoutConfig = pref.carveoutPercent;
      int threads = 32 * int(rng() % 32 + 1);
      int blocks = int(rng() % 16) + 1;
      cudaOccFuncAttributes attr;
      attr.maxThreadsPerBlock = maxThreadsPerBlock(arch, k);
      attr.numRegs = k.registers;
      attr.sharedSizeBytes = k.staticSharedBytes;
      attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
      attr.maxDynamicSharedSizeBytes = maxDynamicSharedBytes(arch, k);
      attr.numBlockBarriers = 1;
      cudaOccResult result;
      if (cudaOccMaxActiveBlocksPerMultiprocessor(
              &result, &prop, &attr, &state, threads, 0) == CUDA_OCC_SUCCESS) {
        ASSERT_EQ(occupancy(arch, k, threads, 0, pref).blocksPerSM,
                  result.activeBlocksPerMultiprocessor)
            << name << " cache " << pref.cacheConfig << " carveout "
            << pref.carveoutPercent << " static " << k.staticSharedBytes;
      }
      size_t bytes = 0;
      cudaOccError e = cudaOccAvailableDynamicSMemPerBlock(
          &bytes, &prop, &attr, &state, blocks, threads);
      std::optional<uint64_t> ours =
          availableDynamicSharedBytes(arch, k, blocks, threads, pref);
      // The calculator's unsigned subtraction wraps where the static part
      // exceeds the share; the runtime then refuses the blocks anyway.
      if (e == CUDA_OCC_SUCCESS && ours) {
        ASSERT_EQ(*ours, bytes) << name << " blocks " << blocks << " threads "
                                << threads << " cache " << pref.cacheConfig
                                << " carveout " << pref.carveoutPercent;
        ++compared;
      } else if (e != CUDA_OCC_SUCCESS) {
        ASSERT_FALSE(ours) << name << " blocks " << blocks;
      }
    }
  }
  EXPECT_GT(compared, 3000);
}
#else
TEST(Occupancy, AgreesWithTheToolkitsCalculator) {
  GTEST_SKIP() << "no CUDA toolkit (include/cuda_occupancy.h) at configure";
}
#endif

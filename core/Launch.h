// Launch geometry shared by the analyzer, the simulator and the runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kcheck::core {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3 &) const = default;
};

std::string toString(const Dim3 &d); // "x,y,z"

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint64_t dynamicSharedBytes = 0;
  // cudaLaunchCooperativeKernel: every block resident at once, so blocks may
  // wait for each other (cooperative groups' grid.sync()).
  bool cooperative = false;
  // Thread-block clusters (sm_90): blocks per cluster in each dimension, and
  // whether the launch asked for clusters (cudaLaunchAttributeClusterDimension
  // or the kernel's __cluster_dims__). A cluster's blocks run alongside each
  // other, read and write each other's shared memory and share a barrier;
  // without a cluster each block is a cluster of one (%is_explicit_cluster
  // false).
  Dim3 cluster = {};
  bool explicitCluster = false;
  // The kernel allows clusters past the portable 8 blocks
  // (cudaFuncAttributeNonPortableClusterSizeAllowed).
  bool nonPortableCluster = false;
  /// A kernel's __cluster_dims__ are its launches' clusters where the launch
  /// names none (every path that launches asks this).
  void applyKernelCluster(const std::optional<Dim3> &kernelDims) {
    if (!explicitCluster && kernelDims)
      cluster = *kernelDims, explicitCluster = true;
  }
  // Launched by a kernel (dynamic parallelism): its nesting depth, 1 for a
  // child of a grid the host launched; 0 for a host launch.
  unsigned deviceDepth = 0;
};

} // namespace kcheck::core

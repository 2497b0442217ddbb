// The driver of a cooperative launch (cudaLaunchCooperativeKernel): every
// block is resident at once on the GPU, so blocks may wait for each other,
// as cooperative groups' grid.sync() does (an atomic arrival on the grid
// workspace, then a spin until the last block flips it).
//
// Every block runs, on one thread, each on its own BlockRunner in
// co-resident mode: a block runs until it completes or every warp it has
// left spins with nothing changing (BlockResult::Status::Waiting); then the
// next block in launch order runs, and waiting blocks are resumed in turn
// until all complete. Stores are direct, so a block sees every store made
// before it resumed. A pass in which no block completes or writes memory is a
// deadlock (on a GPU the launch would hang): the launch stops, naming where
// the first block waits.
//
// Assumptions: how many times a waiting warp polls before the block it
// waits for arrives depends on the GPU's timing; here a spinning warp polls
// until the repeat check (RunnerImpl.h, every few hundred warp instructions)
// sees it come back unchanged, so the counts of a spin loop's instructions
// are kcheck's, not the GPU's.
#pragma once

#include "simulator/BlockClasses.h"
#include "simulator/engine/Cluster.h"

namespace kcheck::sim {

/// Runs every block of a cooperative launch, alongside each other.
LaunchResult runCoResidentBlocks(const DecodedKernel &kernel,
                                 const core::LaunchConfig &config,
                                 const std::vector<KernelArg> &args,
                                 DeviceMemory &memory, const Limits &limits,
                                 const BlockClassOptions &options,
                                 BlockCounter &counter);

/// Runs a launch with thread-block clusters (or of a kernel that uses the
/// cluster barrier or another block's shared memory), cluster by cluster:
/// the blocks of a cluster alongside each other as above, sharing their
/// shared memory and the cluster barrier (simulator/engine/Cluster.h).
/// Assumes the grid is a whole number of clusters (the launch is refused
/// otherwise). Clusters run one after another: they meet only in global
/// memory, as blocks do.
LaunchResult runClusters(const DecodedKernel &kernel,
                         const core::LaunchConfig &config,
                         const std::vector<KernelArg> &args,
                         DeviceMemory &memory, const Limits &limits,
                         const BlockClassOptions &options,
                         BlockCounter &counter);

} // namespace kcheck::sim

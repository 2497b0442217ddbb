// Static extraction's launches as the engine takes them (driver/
// StaticLaunches.cpp): which launches --kernel selects, their kernel
// arguments, their grid, block and shared size, and the launch the command
// line describes for a file that makes none.
#pragma once

#include "analyzer/facts/KernelNames.h"
#include "analyzer/host/LaunchExtractor.h"
#include "core/Report.h"
#include "driver/Options.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DeviceMemory.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace kcheck::driver {

/// Whether `launch` is of the kernel --kernel names (its source name, its
/// name without template arguments or namespace, or its mangled name); any
/// launch when `wanted` is empty.
bool kernelMatches(const std::string &wanted,
                   const analyzer::HostLaunch &launch);

/// Kernel arguments from what host code evaluated to, in one device memory
/// shared by the program's launches (each host allocation placed once, on
/// first use).
class LaunchBuilder {
public:
  LaunchBuilder(const Options &options, const analyzer::HostProgram &host,
                sim::DeviceMemory &memory);
  ~LaunchBuilder();
  /// Kernel arguments as the engine wants them; false when one is unknown.
  bool arguments(const llvm::Function &f, const analyzer::HostLaunch *launch,
                 std::vector<sim::KernelArg> &out,
                 std::vector<std::string> &notes);

private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

/// For a file without launches of the wanted kernel: the launch the command
/// line describes (--kernel, or the file's only kernel), named as the
/// compile named its kernels (`names`). nullopt, with the reason in
/// `errors`, when no single kernel is named.
std::optional<analyzer::HostLaunch>
launchFromCommandLine(const Options &options, const llvm::Module &module,
                      const std::map<std::string, analyzer::KernelName> &names,
                      std::vector<std::string> &errors);

/// Grid, block and dynamic shared size of a launch: the command line's
/// overrides, else what host code evaluated to. Fills `lr.config`; names
/// what is missing in `lr.notes` and returns false then.
bool resolveConfig(const Options &options, const analyzer::HostLaunch &hl,
                   bool fromCommandLine, core::LaunchReport &lr);

} // namespace kcheck::driver

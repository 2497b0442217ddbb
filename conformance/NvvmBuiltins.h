// The device functions Clang 22 compiles CUDA source into, as the compiler
// and the toolkit define them: every NVPTX target builtin Clang knows
// (`__nvvm_*`, the warp-matrix `__hmma_*`/`__imma_*`/..., `__builtin_ptx_*`;
// read from Clang's own builtin table, with its prototype and the sm_XX/PTX
// features it requires) and every function the toolkit's libdevice defines
// (`__nv_*`, what the CUDA math headers and Clang's __clang_cuda_* wrappers
// call). Each is called from a generated kernel (nvvmCallProgram) that the
// conformance family compiles with kcheck's pipeline and decodes, and that
// runs on the GPU and under `kcheck run` to compare the values bit for bit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::conformance {

struct DeviceFunction {
  // DeviceRuntime: an entry point of cuda_device_runtime_api.h (CDP2), only
  // its name read (ToolkitInventory::deviceRuntimeFunctions).
  enum class Origin { ClangBuiltin, Libdevice, DeviceRuntime };
  Origin origin = Origin::ClangBuiltin;
  std::string name;       // "__nvvm_add_rp_d", "__nv_sinf"
  std::string returnType; // as C++ spells it: "double", "void"
  /// Parameter types as C++ spells them ("const float *", "unsigned int").
  std::vector<std::string> params;
  /// Bit i: parameter i must be an integer constant expression.
  unsigned constantParams = 0;
  /// Clang's required features ("(sm_80|sm_90),(ptx70|ptx78)"); "" for none.
  std::string features;
  /// Whether the arch the inventory was read for (with the toolkit's PTX
  /// version) has it.
  bool available = true;
};

/// Clang's NVPTX builtins and the toolkit's libdevice functions, as Clang
/// sees them compiling CUDA device code for `arch` against the toolkit at
/// `root`; nullopt, with `why`, when Clang cannot set up that compile.
std::optional<std::vector<DeviceFunction>>
readDeviceFunctions(const std::string &root, const std::string &arch,
                    std::string &why);

/// How the generated program calls a function: the constant chosen for each
/// constant parameter (Clang's Sema checks their ranges).
struct DeviceCall {
  const DeviceFunction *function = nullptr;
  std::vector<long long> constants; // one per constant parameter, in order
};

/// The kernel name a call gets in the generated program.
std::string callKernelName(const DeviceFunction &f);

/// The generated program: one kernel per call, each reading its arguments
/// from a per-thread input record and writing its result to a per-thread
/// output record; main() runs every kernel on the same inputs and prints one
/// line per function, "<name> <hash of the results>". Compiled by Clang for
/// the GPU (tests/conformance/nvvm) and run by `kcheck run`.
/// `rejected` ("name: error", from chooseDeviceCalls) is written as comments
/// the conformance family reads back (calledFunctions).
std::string nvvmCallProgram(const std::vector<DeviceCall> &calls,
                            const std::vector<std::string> &rejected);

/// The calls of every available function, with the constants Clang accepts
/// (found by compiling candidates with Clang; `arch` as above). Functions for
/// which no candidate compiles are left out, with Clang's first error in
/// `rejected` ("name: error").
std::vector<DeviceCall>
chooseDeviceCalls(const std::vector<DeviceFunction> &functions,
                  const std::string &root, const std::string &arch,
                  std::vector<std::string> &rejected);

/// The functions the program calls, and (into `rejected`) those it names
/// as rejected by Clang, "name: error".
std::vector<std::string> calledFunctions(const std::string &program,
                                         std::vector<std::string> &rejected);

/// Compiles the program with kcheck's pipeline (as `kcheck` compiles a
/// program for `arch`) and decodes the kernel of each of `names` with the
/// engine: per name, "" when the engine runs it, else the error the engine
/// gives a program that meets it. nullopt, with `why`, when the program does
/// not compile.
std::optional<std::map<std::string, std::string>> decodeDeviceCalls(
    const std::string &program, const std::vector<std::string> &names,
    const std::string &root, const std::string &arch, std::string &why);

/// What kcheck does with each function the committed program
/// (tests/conformance/programs/nvvm_calls.cu) calls: the engine's error per
/// name ("" when it runs it), and Clang's per name it rejected.
struct DeviceCallResults {
  std::map<std::string, std::string> decoded;
  std::map<std::string, std::string> rejected;
};

/// Reads the program at `path` and decodes its calls; nullopt, with `why`,
/// when it cannot be read or compiled.
std::optional<DeviceCallResults> readDeviceCallResults(const std::string &path,
                                                       const std::string &root,
                                                       std::string &why);

} // namespace kcheck::conformance

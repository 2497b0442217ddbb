// The conformance tables against the toolkit and against the GPU: every
// entry of the installed toolkit is provided or excluded with a reason; the
// sm_90 answers are the H200's (docs/validation/data/h200-runtime-facts.tsv)
// except where the H100 kcheck predicts for is a different part; every
// provided runtime function is called by a test program.
#include "conformance/Conformance.h"
#include "analyzer/toolchain/CudaToolkit.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "conformance/HostMacroFamily.h"
#include "conformance/NvccMacroFamily.h"
#include "core/DeviceFacts.h"
#include "host/RuntimeConformance.h"
#include "simulator/engine/DeviceRuntime.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace kcheck {
namespace {

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// key -> value of the H200's "key<TAB>value" lines.
std::map<std::string, std::string> h200Facts() {
  std::map<std::string, std::string> facts;
  std::istringstream in(
      readFile(std::string(KCHECK_SOURCE_DIR) +
               "/docs/validation/data/h200-runtime-facts.tsv"));
  std::string line;
  while (std::getline(in, line)) {
    size_t tab = line.find('\t');
    if (tab != std::string::npos)
      facts[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return facts;
}

core::ArchSpec sm90() { return *core::findArch("sm_90"); }

// The installed toolkit's inventory; nullopt, with `why`, without one.
std::optional<conformance::ToolkitInventory>
installedInventory(std::string &why) {
  std::optional<analyzer::CudaToolkit> toolkit =
      analyzer::findCudaToolkit("", why);
  if (!toolkit) {
    why = "no CUDA toolkit: " + why;
    return std::nullopt;
  }
  std::optional<conformance::ToolkitInventory> inventory =
      conformance::readToolkitInventory(toolkit->root, why);
  if (!inventory)
    ADD_FAILURE() << why; // a toolkit whose headers do not parse
  return inventory;
}

TEST(Conformance, EveryEntryOfTheToolkitIsProvidedOrExcluded) {
  std::string why;
  std::optional<conformance::ToolkitInventory> inventory =
      installedInventory(why);
  if (!inventory)
    GTEST_SKIP() << why;
  // A toolkit is read in full: CUDA 13 declares 310 runtime functions.
  EXPECT_GT(inventory->runtimeFunctions.size(), 250u);
  EXPECT_GT(inventory->deviceAttributes.size(), 130u);
  std::optional<conformance::DeviceCallResults> calls =
      conformance::readDeviceCallResults(
          KCHECK_SOURCE_DIR "/tests/conformance/programs/nvvm_calls.cu",
          inventory->root, why);
  ASSERT_TRUE(calls) << why;
  // Clang 22 has 861 NVPTX builtins; CUDA 13's libdevice about 350.
  EXPECT_GT(inventory->deviceFunctions.size(), 1100u);
  auto families = conformance::conformanceFamilies(*inventory, *calls);
  EXPECT_EQ(conformance::conformanceFailures(families), "");
}

TEST(Conformance, EveryMacroNvccDefinesIsDefinedAsNvccDoesOrExcluded) {
  std::string why;
  std::optional<analyzer::CudaToolkit> toolkit =
      analyzer::findCudaToolkit("", why);
  if (!toolkit)
    GTEST_SKIP() << "no CUDA toolkit: " << why;
  std::optional<conformance::Family> family =
      conformance::nvccMacroFamilyOf(toolkit->root, why);
  ASSERT_TRUE(family) << why;
  // nvcc 13.0: 15 macros always (12 of its own, the 3 of the host
  // compiler's version), 16 (macro, option) pairs more.
  EXPECT_GE(family->entries.size(), 31u);
  EXPECT_EQ(conformance::conformanceFailures({*family}), "");
}

// Every macro nvcc's gcc defines for an empty C++ file: Clang's host
// compiles define it with the same value, or a row excludes it.
TEST(Conformance, EveryMacroTheHostCompilerDefinesIsDefinedOrExcluded) {
  std::string why;
  std::optional<analyzer::CudaToolkit> toolkit =
      analyzer::findCudaToolkit("", why);
  if (!toolkit)
    GTEST_SKIP() << "no CUDA toolkit: " << why;
  std::optional<conformance::Family> family =
      conformance::hostMacroFamilyOf(toolkit->root, why);
  ASSERT_TRUE(family) << why;
  EXPECT_GE(family->entries.size(), 300u); // gcc 13: 442
  EXPECT_GT(family->count(conformance::Status::Provided),
            family->entries.size() / 2);
  EXPECT_EQ(conformance::conformanceFailures({*family}), "");
}

// Values compare as values, not as spellings.
TEST(Conformance, HostMacroValuesCompareAsValues) {
  using conformance::sameMacroValue;
  EXPECT_TRUE(sameMacroValue("__INT_MAX__", "0x7fffffff", "2147483647"));
  EXPECT_TRUE(sameMacroValue("__UINT64_MAX__", "0xffffffffffffffffUL",
                             "18446744073709551615UL"));
  EXPECT_TRUE(sameMacroValue("__UINT16_TYPE__", "short unsigned int",
                             "unsigned short"));
  EXPECT_TRUE(sameMacroValue("__INT64_TYPE__", "long int", "long"));
  EXPECT_FALSE(sameMacroValue("__INT64_TYPE__", "long int", "long long"));
  EXPECT_FALSE(sameMacroValue("__SIZE_TYPE__", "long unsigned int", "long"));
  EXPECT_TRUE(sameMacroValue("__INT64_C", "(c) c ## L", "(c) c##L"));
  EXPECT_TRUE(sameMacroValue(
      "__DBL_MAX__", "double(1.79769313486231570814527423731704357e+308L)",
      "double(1.79769313486231570814527423731704357e+308L)"));
  EXPECT_TRUE(sameMacroValue(
      "__DBL_MAX__", "double(1.79769313486231570814527423731704357e+308L)",
      "1.7976931348623157e+308"));
  EXPECT_FALSE(sameMacroValue("__DBL_MAX__", "1.7976931348623157e+308",
                              "1.7976931348623155e+308"));
  EXPECT_TRUE(sameMacroValue("__FLT_MIN__",
                             "1.17549435082228750796873653722224568e-38F",
                             "1.17549435e-38F"));
  EXPECT_FALSE(sameMacroValue("__INT_WIDTH__", "32", "64"));
}

// nvcc's build number, which its version text alone gives (the headers
// carry major and minor): __CUDACC_VER_BUILD__.
TEST(Conformance, NvccBuildNumberIsReadFromItsVersionText) {
  EXPECT_EQ(analyzer::nvccBuildFromVersionText(
                "nvcc: NVIDIA (R) Cuda compiler driver\n"
                "Cuda compilation tools, release 13.0, V13.0.88\n"
                "Build cuda_13.0.r13.0/compiler.36424714_0\n"),
            88);
  EXPECT_EQ(analyzer::nvccBuildFromVersionText("release 12.4, V12.4.131"), 131);
  EXPECT_EQ(analyzer::nvccBuildFromVersionText("no version here"), 0);
}

TEST(Conformance, NvccDryRunAndHelpAreRead) {
  std::string dryRun =
      "#$ _NVVM_BRANCH_=nvvm\n"
      "#$ gcc -D__CUDA_ARCH_LIST__=900 -E -x c++ -D__CUDACC__ -D__NVCC__ "
      "\"-I/x/include\" -D__CUDACC_VER_BUILD__=88 -include \"cuda_runtime.h\" "
      "-m64 \"e.cu\" -o \"e.cpp4.ii\"\n"
      "#$ cudafe++ --c++17 --gnu_version=120200 --allow_managed e.ii\n"
      "#$ gcc -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900 -E -x c++ "
      "-DCUDA_DOUBLE_MATH_FUNCTIONS -D__CUDACC__ e.cu -o e.cpp1.ii\n"
      "#$ gcc -D__CUDA_ARCH__=900 -c -x c++ -DNOT_PREPROCESSING e.cpp\n";
  std::map<std::string, conformance::NvccMacroUse> uses;
  for (const conformance::NvccMacroUse &u : conformance::macrosOfDryRun(dryRun))
    uses[u.name] = u;
  ASSERT_TRUE(uses.count("__NVCC__"));
  EXPECT_TRUE(uses["__NVCC__"].host);
  EXPECT_FALSE(uses["__NVCC__"].device);
  EXPECT_EQ(uses["__NVCC__"].value, "1");
  EXPECT_TRUE(uses["__CUDACC__"].host && uses["__CUDACC__"].device);
  EXPECT_TRUE(uses["CUDA_DOUBLE_MATH_FUNCTIONS"].device);
  EXPECT_FALSE(uses["CUDA_DOUBLE_MATH_FUNCTIONS"].host);
  EXPECT_EQ(uses["__CUDACC_VER_BUILD__"].value, "88");
  EXPECT_EQ(uses["__GNUC__"].value, "12");
  EXPECT_EQ(uses["__GNUC_MINOR__"].value, "2");
  EXPECT_EQ(uses["__GNUC_PATCHLEVEL__"].value, "0");
  EXPECT_FALSE(uses.count("NOT_PREPROCESSING"));

  std::string help =
      "--device-c                                  (-dc)\n"
      "--output-file <file>                        (-o)\n"
      "--default-stream {legacy|null|per-thread}   (-default-stream)\n"
      "        Specify the stream\n";
  std::vector<std::string> options = conformance::optionsOfHelp(help);
  EXPECT_EQ(options,
            (std::vector<std::string>{"--device-c", "--default-stream=legacy",
                                      "--default-stream=null",
                                      "--default-stream=per-thread"}));
}

// The values kcheck gives an sm_90 device are the H200's, except those of
// the part: kcheck answers as the H100 SXM 80 GB (its memory, L2 and PCI
// identity), whose counting rules it predicts.
const std::set<int> kPartAttributes = {
    33,  34, // PCI bus and device: the simulated device has no PCI location
    36,  37, // memory clock and bus width: HBM3 on the H100, HBM3e on the H200
    38,      // L2: 50 MB on the H100, 60 MB on the H200
    108,     // the persisting-L2 maximum, 5/8 of the L2 on both
    139, 140}; // PCI device and subsystem identifiers

TEST(Conformance, Sm90AttributesAreTheH200sButThePart) {
  std::map<std::string, std::string> facts = h200Facts();
  ASSERT_FALSE(facts.empty());
  int compared = 0;
  for (int number = 0; number < 200; ++number) {
    auto it = facts.find("attr." + std::to_string(number));
    ASSERT_NE(it, facts.end()) << number;
    std::optional<int64_t> ours = core::deviceAttributeValue(sm90(), number);
    if (it->second.rfind("cuda", 0) == 0) { // an error: not an attribute
      EXPECT_FALSE(ours) << "attribute " << number << ": the H200 answers "
                         << it->second;
      continue;
    }
    ASSERT_TRUE(ours) << "attribute " << number << " is " << it->second
                      << " on the H200";
    if (kPartAttributes.count(number))
      continue;
    EXPECT_EQ(*ours, std::stoll(it->second)) << "attribute " << number;
    ++compared;
  }
  EXPECT_GT(compared, 130);
}

TEST(Conformance, Sm90PropertiesAreTheH200sButThePart) {
  const std::set<std::string> part = {
      "totalGlobalMem",           "pciDeviceID",
      "memoryBusWidth",           "l2CacheSize",
      "persistingL2CacheMaxSize", "gpuPciDeviceID",
      "gpuPciSubsystemID"};
  std::map<std::string, std::string> facts = h200Facts();
  int compared = 0;
  for (const core::DeviceProperty &p : core::deviceProperties()) {
    auto it = facts.find("prop." + std::string(p.field));
    if (it == facts.end()) // a field CUDA 13 removed: not on the H200
      continue;
    std::optional<int64_t> ours = core::devicePropertyValue(sm90(), p);
    if (!ours || part.count(std::string(p.field)))
      continue;
    EXPECT_EQ(*ours, std::stoll(it->second)) << p.field;
    ++compared;
  }
  EXPECT_GT(compared, 100);
  // Every field takes the value of its attribute, as the runtime fills it.
  for (const core::DeviceProperty &p : core::deviceProperties()) {
    if (p.kind == core::DeviceProperty::Kind::Attribute) {
      EXPECT_TRUE(core::deviceAttributeValue(sm90(), p.attribute)) << p.field;
    }
  }
}

TEST(Conformance, EveryGenerationAnswersEveryAttribute) {
  for (const std::string &name : core::knownArchNames()) {
    core::ArchSpec arch = *core::findArch(name);
    for (const core::DeviceAttribute &a : core::deviceAttributes())
      EXPECT_TRUE(core::deviceAttributeValue(arch, a.number)) << name;
    // The facts the occupancy calculator reads agree with the attributes.
    EXPECT_EQ(
        *core::deviceFact(arch, "cudaDevAttrMaxSharedMemoryPerBlockOptin"),
        int64_t(arch.limits.sharedPerBlockOptin))
        << name;
    EXPECT_EQ(*core::deviceFact(arch, "maxThreadsDim[2]"),
              arch.limits.maxBlockDimZ)
        << name;
  }
}

TEST(Conformance, ErrorNamesAndMessagesAreTheH200s) {
  // What the runtime answers (host::cudaErrorText) for every code the H200
  // named, name and message; and for one it did not.
  std::map<std::string, std::string> facts = h200Facts();
  int compared = 0;
  for (const auto &[key, value] : facts) {
    if (key.rfind("error.", 0) != 0 || !std::isdigit(key[6]))
      continue;
    size_t tab = value.find('\t');
    const host::CudaErrorText &t =
        host::cudaErrorText(std::stoi(key.substr(6)));
    EXPECT_EQ(t.name, value.substr(0, tab)) << key;
    EXPECT_EQ(t.message, value.substr(tab + 1)) << key;
    ++compared;
  }
  EXPECT_GT(compared, 120);
  EXPECT_EQ(std::string(host::cudaErrorText(5555).name),
            facts["error.unknown-name"]);
  EXPECT_EQ(std::string(host::cudaErrorText(5555).message),
            facts["error.unknown-string"]);
}

TEST(Conformance, ExclusionsGiveAReason) {
  std::vector<std::string> provided = host::providedRuntimeFunctions();
  for (const host::RuntimeExclusion &x : host::runtimeExclusions()) {
    EXPECT_FALSE(x.why.empty()) << x.name << " (family " << x.family << ")";
    EXPECT_EQ(std::count(provided.begin(), provided.end(), std::string(x.name)),
              0)
        << x.name << " is provided and excluded";
  }
}

// Each provided function is called somewhere a test runs it under kcheck:
// the conformance programs or the --run-host test programs.
TEST(Conformance, EveryProvidedRuntimeFunctionIsCalledByATestProgram) {
  std::string text;
  for (const char *dir :
       {"/tests/conformance/programs", "/tests/host/programs"})
    for (const auto &entry : std::filesystem::directory_iterator(
             std::string(KCHECK_SOURCE_DIR) + dir))
      if (entry.path().extension() == ".cu")
        text += readFile(entry.path());
  // The functions of the installed toolkit's API (a provided function an
  // older toolkit had, such as cudaThreadSynchronize, cannot be called by a
  // program compiled against this one).
  std::string why;
  std::optional<conformance::ToolkitInventory> inventory =
      installedInventory(why);
  if (!inventory)
    GTEST_SKIP() << why;
  std::set<std::string> declared(inventory->runtimeFunctions.begin(),
                                 inventory->runtimeFunctions.end());
  std::vector<std::string> uncalled;
  for (const std::string &name : host::providedRuntimeFunctions()) {
    if (!declared.count(name))
      continue;
    std::regex call("\\b" + name + "\\s*[(<]");
    if (!std::regex_search(text, call))
      uncalled.push_back(name);
  }
  std::string list;
  for (const std::string &n : uncalled)
    list += n + " ";
  EXPECT_TRUE(uncalled.empty()) << list;
}

// Every device-runtime function the engine executes is called by the
// dynamic-parallelism programs (the _ptsz ones with per-thread default
// streams, as their ctest compiles it), as Clang compiles them.
TEST(Conformance, EveryProvidedDeviceRuntimeFunctionIsCalledByATestProgram) {
  std::string why;
  std::optional<analyzer::CudaToolkit> toolkit =
      analyzer::findCudaToolkit("", why);
  if (!toolkit)
    GTEST_SKIP() << "no CUDA toolkit: " << why;
  std::set<std::string> called;
  const std::string programs =
      std::string(KCHECK_SOURCE_DIR) + "/tests/conformance/programs/";
  // The programs that call them; those that launch kernels from the device
  // compile as relocatable device code (cudaGraphSetConditional needs none).
  struct Program {
    const char *file, *define;
    bool relocatable;
  };
  for (auto [file, define, relocatable] :
       {Program{"dynamic_parallelism.cu", "", true},
        Program{"dynamic_parallelism_ptsz.cu",
                "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", true},
        Program{"graph_conditionals.cu", "", false},
        Program{"device_runtime_queries.cu", "", true},
        Program{"device_runtime_queries.cu",
                "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", true},
        Program{"device_launch_v2.cu", "", true},
        Program{"graph_device_launch.cu", "", false},
        Program{"device_updatable_nodes.cu", "", false},
        Program{"cg_runtime_queries.cu", "", true},
        Program{"device_launch_v2.cu", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1",
                true}}) {
    analyzer::CompileOptions options;
    options.toolkit = toolkit;
    if (*define)
      options.extraClangArgs.push_back(define);
    analyzer::CompiledModule m =
        analyzer::compileDevice(programs + file, options);
    ASSERT_TRUE(m.ok) << m.diagnostics;
    EXPECT_EQ(m.relocatable, relocatable) << file;
    for (const llvm::Function &f : *m.module)
      if (f.isDeclaration() && !f.use_empty())
        called.insert(f.getName().str());
  }
  std::string uncalled;
  for (const sim::DeviceRuntimeFunction &f : sim::deviceRuntimeFunctions())
    if (!called.count(std::string(f.symbol)))
      uncalled += std::string(f.symbol) + " ";
  EXPECT_TRUE(uncalled.empty()) << uncalled;
}

} // namespace
} // namespace kcheck

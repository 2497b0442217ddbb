#include "conformance/NvvmBuiltins.h"

#include "analyzer/toolchain/CudaStubHeaders.h"
#include "analyzer/toolchain/CudaToolkit.h"
#include "analyzer/toolchain/DeviceCompiler.h"
#include "simulator/engine/Decode.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetBuiltins.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace kcheck::conformance {

namespace {

using namespace clang;

constexpr const char *kProbeFile = "/kcheck-conformance/nvvm-probe.cu";

// The spelling of a type in a declaration of the generated program. Vector
// types have no declarator syntax of their own: they become typedefs, which
// `typedefs` collects.
std::string spell(QualType t, const PrintingPolicy &policy,
                  std::map<std::string, std::string> &typedefs) {
  if (const auto *v = t->getAs<VectorType>()) {
    std::string element = spell(v->getElementType(), policy, typedefs);
    std::string name =
        "kc_v" + std::to_string(v->getNumElements()) + "_" +
        std::regex_replace(element, std::regex("[^A-Za-z0-9]"), "_");
    std::string n = std::to_string(v->getNumElements());
    bool ext = isa<ExtVectorType>(v);
    if (!ext)
      name += "_gnu";
    typedefs[name] =
        "typedef " + element + " " + name + " __attribute__((" +
        (ext ? "ext_vector_type(" + n + ")"
             : "__vector_size__(" + n + " * sizeof(" + element + "))") +
        "));";
    return name;
  }
  if (const auto *p = t->getAs<PointerType>()) {
    QualType pointee = p->getPointeeType();
    std::string quals;
    if (pointee.isConstQualified())
      quals += "const ";
    if (pointee.isVolatileQualified())
      quals += "volatile ";
    if (pointee.getAddressSpace() != LangAS::Default)
      quals += "__attribute__((address_space(" +
               std::to_string(toTargetAddressSpace(pointee.getAddressSpace())) +
               "))) ";
    return quals + spell(pointee.getUnqualifiedType(), policy, typedefs) + " *";
  }
  return t.getCanonicalType().getUnqualifiedType().getAsString(policy);
}

struct Reader : public ASTConsumer {
  Reader(std::vector<DeviceFunction> &into,
         std::map<std::string, std::string> &typedefs)
      : into_(into), typedefs_(typedefs) {}

  void HandleTranslationUnit(ASTContext &context) override {
    PrintingPolicy policy(context.getLangOpts());
    policy.SuppressTagKeyword = true;
    const Builtin::Context &builtins = context.BuiltinInfo;
    const llvm::StringMap<bool> &features =
        context.getTargetInfo().getTargetOpts().FeatureMap;
    for (unsigned id = Builtin::FirstTSBuiltin; id < NVPTX::LastTSBuiltin;
         ++id) {
      DeviceFunction f;
      f.origin = DeviceFunction::Origin::ClangBuiltin;
      f.name = builtins.getName(id);
      f.features = builtins.getRequiredFeatures(id);
      f.available =
          Builtin::evaluateRequiredTargetFeatures(f.features, features);
      ASTContext::GetBuiltinTypeError error = ASTContext::GE_None;
      unsigned constants = 0;
      QualType type = context.GetBuiltinType(id, error, &constants);
      const auto *proto =
          type.isNull() ? nullptr : type->getAs<FunctionProtoType>();
      if (error != ASTContext::GE_None || !proto) {
        f.available = false;
        f.returnType = "?";
      } else {
        f.returnType = spell(proto->getReturnType(), policy, typedefs_);
        for (QualType p : proto->param_types())
          f.params.push_back(spell(p, policy, typedefs_));
        f.constantParams = constants;
      }
      into_.push_back(std::move(f));
    }
    // libdevice, as Clang's CUDA wrappers declare it for device code (in
    // extern "C" blocks).
    readLibdevice(context, context.getTranslationUnitDecl(), policy);
  }

private:
  // The device runtime's entry points: what cuda_device_runtime_api.h
  // declares for device code and does not itself implement as a static
  // wrapper of another (cudaGetLastError calls __cudaCDP2GetLastError).
  // Read without -rdc, where six of them are inline stubs: those too.
  static bool isDeviceRuntimeEntry(ASTContext &context,
                                   const FunctionDecl &fn) {
    const SourceManager &sm = context.getSourceManager();
    PresumedLoc at = sm.getPresumedLoc(fn.getLocation());
    return at.isValid() &&
           llvm::StringRef(at.getFilename())
               .ends_with("cuda_device_runtime_api.h") &&
           fn.hasAttr<CUDADeviceAttr>() && fn.getStorageClass() != SC_Static;
  }

  void readLibdevice(ASTContext &context, const DeclContext *dc,
                     const PrintingPolicy &policy) {
    for (const Decl *d : dc->decls()) {
      if (const auto *linkage = dyn_cast<LinkageSpecDecl>(d)) {
        readLibdevice(context, linkage, policy);
        continue;
      }
      const auto *fn = dyn_cast<FunctionDecl>(d);
      if (fn && fn->getIdentifier() && isDeviceRuntimeEntry(context, *fn)) {
        if (seen_.insert(fn->getName().str()).second) {
          DeviceFunction f;
          f.origin = DeviceFunction::Origin::DeviceRuntime;
          f.name = fn->getName().str();
          into_.push_back(std::move(f));
        }
        continue;
      }
      if (!fn || !fn->getIdentifier() || !fn->getName().starts_with("__nv_"))
        continue;
      const SourceManager &sm = context.getSourceManager();
      PresumedLoc at = sm.getPresumedLoc(fn->getLocation());
      if (!at.isValid() || !llvm::StringRef(at.getFilename())
                                .ends_with("__clang_cuda_libdevice_declares.h"))
        continue;
      if (!seen_.insert(fn->getName().str()).second)
        continue;
      DeviceFunction f;
      f.origin = DeviceFunction::Origin::Libdevice;
      f.name = fn->getName().str();
      f.returnType = spell(fn->getReturnType(), policy, typedefs_);
      for (const ParmVarDecl *p : fn->parameters())
        f.params.push_back(spell(p->getType(), policy, typedefs_));
      into_.push_back(std::move(f));
    }
  }

  std::vector<DeviceFunction> &into_;
  std::map<std::string, std::string> &typedefs_;
  std::set<std::string> seen_;
};

class ReadAction : public ASTFrontendAction {
public:
  ReadAction(std::vector<DeviceFunction> &into,
             std::map<std::string, std::string> &typedefs)
      : into_(into), typedefs_(typedefs) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Reader>(into_, typedefs_);
  }

private:
  std::vector<DeviceFunction> &into_;
  std::map<std::string, std::string> &typedefs_;
};

analyzer::CompileOptions probeOptions(const std::string &root,
                                      const std::string &arch) {
  analyzer::CompileOptions options;
  options.arch = arch;
  std::string why;
  options.toolkit = analyzer::findCudaToolkit(root, why);
  return options;
}

// Vector typedefs of the last read, by name: the generated program declares
// them (the set depends only on Clang's builtin table).
std::map<std::string, std::string> &vectorTypedefs() {
  static std::map<std::string, std::string> typedefs;
  return typedefs;
}

} // namespace

std::optional<std::vector<DeviceFunction>>
readDeviceFunctions(const std::string &root, const std::string &arch,
                    std::string &why) {
  analyzer::CompileOptions options = probeOptions(root, arch);
  if (!options.toolkit) {
    why = "no CUDA toolkit at " + root;
    return std::nullopt;
  }
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(kProbeFile, 0, llvm::MemoryBuffer::getMemBuffer("\n"));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      analyzer::makeFileSystemWithCudaStubs());
  overlay->pushOverlay(memory);
  std::vector<DeviceFunction> functions;
  ReadAction action(functions, vectorTypedefs());
  std::string diagnostics;
  llvm::raw_string_ostream out(diagnostics);
  std::vector<std::string> args =
      analyzer::deviceCompileArguments(kProbeFile, options);
  if (!analyzer::runClangAction(args, overlay, out, action) ||
      functions.empty()) {
    why = "Clang could not parse CUDA device code for " + arch + ": " +
          diagnostics;
    return std::nullopt;
  }
  return functions;
}

std::string callKernelName(const DeviceFunction &f) { return "kc" + f.name; }

} // namespace kcheck::conformance

namespace kcheck::conformance {

namespace {

constexpr const char *kCallFile = "/kcheck-conformance/nvvm_calls.cu";

// Record sizes of the generated program, in bytes.
constexpr unsigned kSlot = 32;     // one argument or the result
constexpr unsigned kMaxArgs = 8;   // a record has this many argument slots
constexpr unsigned kScratch = 64;  // the memory a pointer argument points to
constexpr unsigned kThreads = 128; // four warps: 32 special values, 96 random

bool isPointer(const std::string &type) {
  return !type.empty() && type.back() == '*';
}
bool hasPointer(const DeviceFunction &f) {
  return std::any_of(f.params.begin(), f.params.end(), isPointer);
}
bool isWarpMatrix(const DeviceFunction &f) {
  return std::regex_search(f.name, std::regex("^__[hibd]?mma_"));
}

// Whether the values test calls it: a function with a result or a store
// through a per-thread pointer, and not a warp-collective matrix operation
// (wmma_forms.cu checks those, with the warp-uniform pointers they need).
bool valueTested(const DeviceFunction &f) {
  if (isWarpMatrix(f))
    return false;
  return f.returnType != "void" || hasPointer(f);
}

// Arguments a builtin's prototype does not say must be literals: LLVM's
// NVVMReflect pass stops the compile (a fatal error) on any other.
struct LiteralArgument {
  const char *function, *text;
};
constexpr LiteralArgument kLiteralArguments[] = {
    {"__nvvm_reflect", "\"__CUDA_ARCH\""},
};

std::string argumentText(const DeviceFunction &f, unsigned i,
                         const std::vector<long long> &constants,
                         unsigned &nextConstant) {
  const std::string &type = f.params[i];
  for (const LiteralArgument &l : kLiteralArguments)
    if (f.name == l.function)
      return l.text;
  if (f.constantParams & (1u << i))
    return std::to_string(constants[nextConstant++]);
  if (isPointer(type)) {
    bool shared = type.find("address_space(3)") != std::string::npos;
    return "(" + type + ")(" + (shared ? "s" : "g") + ")";
  }
  return "a" + std::to_string(i);
}

// A .sync warp operation's member mask: the first operand of shfl.sync,
// vote.sync, match.sync and bar.warp.sync, the last of redux.sync (PTX ISA,
// "Parallel Synchronization and Communication Instructions"); -1 for none.
int maskParam(const DeviceFunction &f) {
  if (f.name.find("sync") == std::string::npos || f.params.empty())
    return -1;
  int i =
      f.name.rfind("__nvvm_redux_sync", 0) == 0 ? int(f.params.size()) - 1 : 0;
  const std::string &type = f.params[size_t(i)];
  return type == "unsigned int" || type == "int" ? i : -1;
}

} // namespace

std::string nvvmCallProgram(const std::vector<DeviceCall> &calls,
                            const std::vector<std::string> &rejected) {
  std::string out;
  llvm::raw_string_ostream o(out);
  o << "// Generated by `kcheck-conformance --nvvm-program` from Clang's "
       "NVPTX builtins and\n"
       "// the toolkit's libdevice (conformance/NvvmBuiltins.cpp): do not "
       "edit. One kernel per\n"
       "// call; main() prints \"<function> <FNV-1a of every thread's result "
       "and scratch>\".\n"
       "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n\n";
  // What Clang takes for no arguments, with its reason: the conformance
  // family excludes these.
  for (const std::string &r : rejected)
    o << "// rejected: " << r << "\n";
  // kcheck compiles CUDA as nvcc does, which ignores ext_vector_type
  // (analyzer/toolchain/cuda_stubs/kcheck_nvcc_attributes.h); Clang's builtins
  // take such vectors, so the program spells them with Clang's meaning.
  o << "#ifdef ext_vector_type\n#undef ext_vector_type\n#endif\n";
  for (const auto &[name, text] : vectorTypedefs())
    o << text << "\n";
  o << "\nconstexpr unsigned kSlot = " << kSlot << ", kMaxArgs = " << kMaxArgs
    << ", kScratch = " << kScratch << ", kThreads = " << kThreads << ";\n"
    << "constexpr unsigned kIn = kSlot * kMaxArgs, kOut = kSlot + kScratch;\n"
       "\n"
       "// Each thread's arguments, result and the memory its pointers reach.\n"
       "#define KC_BEGIN                                                    "
       "\\\n"
       "  __shared__ __attribute__((aligned(16))) unsigned char                "
       " "
       "\\\n"
       "      sscratch[kThreads * kScratch];                                 "
       "\\\n"
       "  unsigned t = threadIdx.x;                                          "
       "\\\n"
       "  const unsigned char *rec = in + t * kIn;                           "
       "\\\n"
       "  unsigned char *g = gscratch + t * kScratch;                        "
       "\\\n"
       "  unsigned char *s = sscratch + t * kScratch;                        "
       "\\\n"
       "  for (unsigned i = 0; i < kScratch; ++i)                            "
       "\\\n"
       "    s[i] = g[i];                                                     "
       "\\\n"
       "  __syncthreads();\n"
       "#define KC_END                                                      "
       "\\\n"
       "  __syncthreads();                                                   "
       "\\\n"
       "  for (unsigned i = 0; i < kScratch; ++i)                            "
       "\\\n"
       "    out[t * kOut + kSlot + i] = s[i];\n"
       "// Typed, aligned accesses (slots are 32-byte aligned): Clang 22 with\n"
       "// ptxas 13 stored the low byte of a byte-wise copied cvt.rn.f32.u32\n"
       "// result from its source register on the H200.\n"
       "#define KC_ARG(T, name, i) T name = *reinterpret_cast<const T *>(rec "
       "+ (i) * kSlot);\n"
       "#define KC_RESULT(r) *reinterpret_cast<decltype(r) *>(out + t * kOut) "
       "= r;\n"
       "\n";
  for (const DeviceCall &c : calls) {
    const DeviceFunction &f = *c.function;
    // A GPU build leaves out what Clang's backend cannot select for the
    // arch (-DKC_OMIT_<name>, tests/conformance/nvvm_gpu_build.sh).
    o << "#ifndef KC_OMIT_" << f.name << "\n";
    o << "extern \"C\" __global__ void " << callKernelName(f)
      << "(const unsigned char *in, unsigned char *out, unsigned char "
         "*gscratch) {\n  KC_BEGIN\n";
    for (unsigned i = 0; i < f.params.size(); ++i)
      if (!(f.constantParams & (1u << i)) && !isPointer(f.params[i]))
        o << "  KC_ARG(" << f.params[i] << ", a" << i << ", " << i << ")\n";
    std::string args;
    unsigned nextConstant = 0;
    for (unsigned i = 0; i < f.params.size(); ++i)
      args += (i ? ", " : "") + argumentText(f, i, c.constants, nextConstant);
    if (f.returnType == "void") {
      o << "  " << f.name << "(" << args << ");\n";
    } else {
      o << "  " << f.returnType << " r = " << f.name << "(" << args
        << ");\n  KC_RESULT(r)\n";
    }
    o << "  KC_END\n}\n#endif\n\n";
  }
  // The inputs: per argument type, the first warp takes special values, the
  // others random bits; a function with a pointer gets small integers, so no
  // address leaves the thread's scratch.
  o << R"(struct Call {
  const char *name;
  void (*kernel)(const unsigned char *, unsigned char *, unsigned char *);
  const char *kinds; // per argument slot: f float, d double, i integer,
                     // m member mask, s small integer, - none
};
)";
  o << "static const Call kCalls[] = {\n";
  for (const DeviceCall &c : calls) {
    const DeviceFunction &f = *c.function;
    if (!valueTested(f))
      continue;
    std::string kinds;
    bool pointers = hasPointer(f);
    for (unsigned i = 0; i < f.params.size(); ++i) {
      const std::string &p = f.params[i];
      char k = 'i';
      if ((f.constantParams & (1u << i)) || isPointer(p))
        k = '-';
      else if (int(i) == maskParam(f))
        k = 'm'; // a .sync warp operation's member mask: every lane
      else if (p.find("double") != std::string::npos)
        k = 'd';
      else if (p.find("float") != std::string::npos ||
               p.find("half") != std::string::npos ||
               p.find("bf16") != std::string::npos ||
               p.find("_Float16") != std::string::npos)
        k = p.find("float") != std::string::npos ? 'f' : 'i';
      else if (pointers ||
               (f.origin == DeviceFunction::Origin::Libdevice &&
                (f.returnType == "float" || f.returnType == "double")))
        k = 's'; // a math function's order or exponent (jn, powi): its
                 // loop stays short
      kinds += k;
    }
    o << "#ifndef KC_OMIT_" << f.name << "\n  {\"" << f.name << "\", "
      << callKernelName(f) << ", \"" << kinds << "\"},\n#endif\n";
  }
  o << "};\n\n";
  o << R"(static unsigned long long state = 0x9E3779B97F4A7C15ull;
static unsigned long long next() {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}
static const float kFloats[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.0f, 0.1f,
    1e-40f, -1e-40f, 1.17549435e-38f, 3.40282347e38f, -3.40282347e38f,
    __builtin_inff(), -__builtin_inff(), __builtin_nanf(""), 1e-30f, 3.14159265f,
    1e10f, -7.25f, 16777217.0f, 0.75f, 65504.0f, 65520.0f, 1.0e-8f, -1.0e-8f,
    2147483648.0f, -2147483904.0f, 4294967296.0f, 100.5f};
static const double kDoubles[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.0, 0.1, 4.9e-324, -4.9e-324,
    2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
    __builtin_inf(), -__builtin_inf(), __builtin_nan(""), 1e-300, 3.141592653589793,
    1e10, -7.25, 9007199254740993.0, 0.75, 1e-40, 3.4028235677973366e38,
    1.0e-8, -1.0e-8, 2147483648.0, -9223372036854775808.0, 1.8446744073709552e19,
    100.5};
static const long long kInts[] = {
    0, 1, -1, 2, 3, 31, 32, 33, 63, 64, 0x7fffffffll, -0x7fffffffll - 1,
    0xffffffffll, 0x80000000ll, 0x7fffffffffffffffll, 255, 256, -256, 0x5555,
    0xaaaaaaaall, 7, 8, 16, 1000, -1000, 65535, 65536, 12345678, -2, 4, 5, 6};

static void fill(unsigned char *rec, unsigned t, const char *kinds) {
  for (unsigned a = 0; kinds[a]; ++a) {
    unsigned char *slot = rec + a * kSlot;
    for (unsigned i = 0; i < kSlot; i += 8) {
      unsigned long long bits = next();
      std::memcpy(slot + i, &bits, 8);
    }
    unsigned pick = (t * 7 + a * 13) % 32;
    if (kinds[a] == 'm') {
      unsigned all = 0xffffffffu;
      std::memcpy(slot, &all, 4);
    } else if (kinds[a] == 's') {
      long long v = (t + a) % 4;
      std::memcpy(slot, &v, 8);
    } else if (t < 32 && kinds[a] == 'f') {
      for (unsigned i = 0; i < kSlot; i += 4)
        std::memcpy(slot + i, &kFloats[(pick + i / 4) % 32], 4);
    } else if (t < 32 && kinds[a] == 'd') {
      for (unsigned i = 0; i < kSlot; i += 8)
        std::memcpy(slot + i, &kDoubles[(pick + i / 8) % 32], 8);
    } else if (t < 32 && kinds[a] == 'i') {
      for (unsigned i = 0; i < kSlot; i += 8)
        std::memcpy(slot + i, &kInts[(pick + i / 8) % 32], 8);
    }
  }
}

// nvvm_calls [--skip FILE] [NAME]: every call, but those FILE names (one a
// line: what the simulator does not run), or NAME alone with each thread's
// result printed.
static bool listed(const char *file, const char *name) {
  if (!file)
    return false;
  FILE *f = std::fopen(file, "r");
  char line[256];
  bool found = false;
  while (f && !found && std::fgets(line, sizeof line, f)) {
    line[std::strcspn(line, "\r\n")] = 0;
    found = std::strcmp(line, name) == 0;
  }
  if (f)
    std::fclose(f);
  return found;
}

int main(int argc, char **argv) {
  const char *only = nullptr, *skip = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--skip") == 0 && i + 1 < argc)
      skip = argv[++i];
    else
      only = argv[i];
  }
  unsigned char *in, *out, *scratch;
  size_t inBytes = kThreads * kIn, outBytes = kThreads * kOut,
         scratchBytes = kThreads * kScratch;
  cudaMalloc(&in, inBytes);
  cudaMalloc(&out, outBytes);
  cudaMalloc(&scratch, scratchBytes);
  static unsigned char hin[kThreads * kIn], hout[kThreads * kOut],
      hscratch[kThreads * kScratch];
  unsigned tested = 0, failed = 0;
  for (const Call &c : kCalls) {
    if ((only && std::strcmp(only, c.name) != 0) || listed(skip, c.name))
      continue;
    state = 0x9E3779B97F4A7C15ull;
    for (unsigned t = 0; t < kThreads; ++t)
      fill(hin + t * kIn, t, c.kinds);
    for (unsigned i = 0; i < scratchBytes; ++i)
      hscratch[i] = (unsigned char)(next() | ((i % kScratch) == kScratch - 1 ? 0 : 1));
    for (unsigned i = kScratch - 1; i < scratchBytes; i += kScratch)
      hscratch[i] = 0; // a string argument ends in its scratch
    cudaMemcpy(in, hin, inBytes, cudaMemcpyHostToDevice);
    cudaMemcpy(scratch, hscratch, scratchBytes, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, outBytes);
    c.kernel<<<1, kThreads>>>(in, out, scratch);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("%s error %s\n", c.name, cudaGetErrorName(e));
      return 1;
    }
    cudaMemcpy(hout, out, outBytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(hscratch, scratch, scratchBytes, cudaMemcpyDeviceToHost);
    unsigned long long h = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < outBytes; ++i)
      h = (h ^ hout[i]) * 0x100000001b3ull;
    for (unsigned i = 0; i < scratchBytes; ++i)
      h = (h ^ hscratch[i]) * 0x100000001b3ull;
    std::printf("%s %016llx\n", c.name, h);
    for (unsigned t = 0; only && t < kThreads; ++t) {
      std::printf("  thread %3u:", t);
      for (unsigned i = 0; i < kSlot; ++i)
        std::printf("%02x", hout[t * kOut + i]);
      std::printf("\n");
    }
    ++tested;
  }
  std::printf("nvvm_calls: %u functions\n", tested);
  return failed ? 1 : 0;
}
)";
  return out;
}

} // namespace kcheck::conformance

namespace kcheck::conformance {

std::vector<DeviceCall>
chooseDeviceCalls(const std::vector<DeviceFunction> &functions,
                  const std::string &root, const std::string &arch,
                  std::vector<std::string> &rejected) {
  // Constant parameters are modes, layouts, shifts and counts: Clang's Sema
  // checks each range; the first candidate it takes for all of them wins.
  // Code generation rejects some builtins whatever the arguments ("cannot
  // compile this builtin function yet"): those are rejected too.
  const long long kCandidates[] = {0, 1, 2, 4, 8, 16, 32, 3, 5, 7};
  constexpr size_t kCount = sizeof kCandidates / sizeof kCandidates[0];
  struct Trial {
    const DeviceFunction *function;
    size_t candidate = 0;
    std::string lastError;
  };
  std::vector<Trial> active;
  for (const DeviceFunction &f : functions)
    if (f.available)
      active.push_back({&f, 0, ""});
  std::sort(active.begin(), active.end(), [](const Trial &a, const Trial &b) {
    return a.function->name < b.function->name;
  });
  analyzer::CompileOptions options = probeOptions(root, arch);
  options.extraClangArgs = {"-ferror-limit=0"};
  auto callsOf = [&] {
    std::vector<DeviceCall> calls;
    for (const Trial &t : active) {
      DeviceCall c;
      c.function = t.function;
      c.constants.assign(size_t(__builtin_popcount(t.function->constantParams)),
                         kCandidates[t.candidate]);
      calls.push_back(std::move(c));
    }
    return calls;
  };
  std::regex error("nvvm_calls\\.cu:(\\d+):\\d+: error: (.*)");
  for (;;) {
    std::vector<DeviceCall> calls = callsOf();
    std::string text = nvvmCallProgram(calls, {});
    // Which call's kernel each line belongs to.
    std::vector<int> kernelOfLine(1, -1);
    int current = -1;
    for (llvm::StringRef rest(text); !rest.empty();) {
      auto [line, tail] = rest.split('\n');
      if (line.starts_with("extern \"C\" __global__"))
        ++current;
      else if (line.starts_with("struct Call"))
        current = -1;
      kernelOfLine.push_back(current);
      rest = tail;
    }
    options.mainFileText = text;
    analyzer::CompiledModule compiled =
        analyzer::compileDevice(kCallFile, options);
    if (compiled.ok)
      return calls;
    std::set<int> failed;
    const std::string &d = compiled.diagnostics;
    for (auto it = std::sregex_iterator(d.begin(), d.end(), error);
         it != std::sregex_iterator(); ++it) {
      unsigned line = unsigned(std::stoul((*it)[1]));
      int k = line < kernelOfLine.size() ? kernelOfLine[line] : -1;
      if (k < 0)
        continue;
      failed.insert(k);
      active[size_t(k)].lastError = (*it)[2].str();
    }
    if (failed.empty()) {
      // An error outside every kernel: nothing can be chosen.
      rejected.push_back("(program): " + compiled.diagnostics);
      return {};
    }
    std::vector<Trial> still;
    for (size_t k = 0; k < active.size(); ++k) {
      Trial t = active[k];
      bool constants = t.function->constantParams != 0;
      if (failed.count(int(k)) && (!constants || ++t.candidate == kCount)) {
        rejected.push_back(t.function->name + ": " + t.lastError);
        continue;
      }
      still.push_back(t);
    }
    active = std::move(still);
  }
}

} // namespace kcheck::conformance

namespace kcheck::conformance {

std::vector<std::string> calledFunctions(const std::string &program,
                                         std::vector<std::string> &rejected) {
  std::vector<std::string> names;
  std::regex kernel("^extern \"C\" __global__ void kc(\\w+)\\(");
  std::regex reject("^// rejected: (\\w+): (.*)$");
  for (llvm::StringRef rest(program); !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    std::string text = line.str();
    std::smatch m;
    if (std::regex_search(text, m, kernel))
      names.push_back(m[1]);
    else if (std::regex_search(text, m, reject))
      rejected.push_back(m[1].str() + ": " + m[2].str());
    rest = tail;
  }
  return names;
}

std::optional<std::map<std::string, std::string>> decodeDeviceCalls(
    const std::string &program, const std::vector<std::string> &names,
    const std::string &root, const std::string &arch, std::string &why) {
  analyzer::CompileOptions options = probeOptions(root, arch);
  options.keepLibdeviceDeclaration = sim::executesNatively;
  options.mainFileText = program;
  analyzer::CompiledModule compiled =
      analyzer::compileDevice(kCallFile, options);
  if (!compiled.ok || !compiled.module) {
    why = "the generated program did not compile: " + compiled.diagnostics;
    return std::nullopt;
  }
  std::map<std::string, std::string> outcome;
  for (const std::string &name : names) {
    const llvm::Function *f = compiled.module->getFunction("kc" + name);
    if (!f || f->isDeclaration()) {
      outcome[name] = "no kernel kc" + name + " in the module";
      continue;
    }
    auto decoded = sim::decodeKernel(*f);
    outcome[name] = decoded ? "" : llvm::toString(decoded.takeError());
  }
  return outcome;
}

} // namespace kcheck::conformance

namespace kcheck::conformance {

std::optional<DeviceCallResults> readDeviceCallResults(const std::string &path,
                                                       const std::string &root,
                                                       std::string &why) {
  auto text = llvm::MemoryBuffer::getFile(path);
  if (!text) {
    why = "cannot read " + path;
    return std::nullopt;
  }
  std::string program = (*text)->getBuffer().str();
  std::vector<std::string> rejected;
  std::vector<std::string> names = calledFunctions(program, rejected);
  auto decoded = decodeDeviceCalls(program, names, root, "sm_90", why);
  if (!decoded)
    return std::nullopt;
  DeviceCallResults results;
  results.decoded = std::move(*decoded);
  for (const std::string &r : rejected) {
    size_t colon = r.find(": ");
    results.rejected[r.substr(0, colon)] =
        colon == std::string::npos ? "" : r.substr(colon + 2);
  }
  return results;
}

} // namespace kcheck::conformance

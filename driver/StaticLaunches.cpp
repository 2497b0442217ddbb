// The launches of static extraction as the engine takes them: kernel
// arguments from the values host code evaluated to (device pointers into
// the allocations it made, scalars, structs by value), the grid, block and
// shared size with the command line's overrides, and the one launch the
// command line describes for a file that makes none.
#include "driver/StaticLaunches.h"

#include "simulator/LaunchRunner.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

namespace kcheck::driver {

using analyzer::HostLaunch;
using analyzer::HostProgram;
using analyzer::HostValue;

namespace {

/// Allocations that host code made without a size kcheck could evaluate get
/// this much address space: pages are only backed when touched.
constexpr uint64_t kUnknownAllocationBytes = 1ull << 32;

std::string baseKernelName(const std::string &name) {
  std::string n = name;
  size_t lt = n.find('<');
  if (lt != std::string::npos)
    n = n.substr(0, lt);
  size_t colon = n.rfind("::");
  if (colon != std::string::npos)
    n = n.substr(colon + 2);
  return n;
}

bool isKernel(const llvm::Function &f) {
  return !f.isDeclaration() &&
         f.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

/// Parses an --arg value as the bits of an integer or a float.
std::optional<uint64_t> parseArgValue(const std::string &v, bool isFloat,
                                      bool isDouble) {
  if (isFloat || isDouble || v.find('.') != std::string::npos) {
    char *end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (!end || *end)
      return std::nullopt;
    if (isDouble) {
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
    float f = float(d);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  int64_t i;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), i);
  if (ec != std::errc() || p != v.data() + v.size())
    return std::nullopt;
  return uint64_t(i);
}

} // namespace

bool kernelMatches(const std::string &wanted, const HostLaunch &l) {
  return wanted.empty() || wanted == l.kernelName ||
         wanted == baseKernelName(l.kernelName) || wanted == l.mangledName;
}

class LaunchBuilder::Impl {
public:
  Impl(const Options &o, const HostProgram &host, sim::DeviceMemory &memory)
      : options_(o), host_(host), memory_(memory) {}

  /// The device address of each host allocation, made on first use.
  uint64_t allocationBase(int id, std::vector<std::string> &notes) {
    auto it = bases_.find(id);
    if (it != bases_.end())
      return it->second;
    const analyzer::HostAllocation *a = nullptr;
    for (const auto &alloc : host_.allocations)
      if (alloc.id == id)
        a = &alloc;
    uint64_t bytes = a && a->bytes ? *a->bytes : kUnknownAllocationBytes;
    if (!a || !a->bytes)
      notes.push_back("size of allocation '" + (a ? a->name : "?") +
                      "' unknown: bounds checks on it are off");
    uint64_t base = memory_.allocate(bytes, a ? a->name : "allocation");
    bases_[id] = base;
    return base;
  }

  /// The texture and surface objects host code made, placed over the
  /// allocations they view (before the first launch: a handle is the n-th
  /// object made, whenever the program made it).
  void placeTextureObjects(std::vector<std::string> &notes) {
    if (std::exchange(texturesPlaced_, true))
      return;
    for (const analyzer::HostTextureObject &o : host_.textureObjects) {
      using Object = analyzer::HostTextureObject;
      sim::TextureView view = o.view;
      for (sim::TextureLevel &l : view.levels)
        l.base = allocationBase(Object::allocationOf(l.base), notes) +
                 Object::offsetOf(l.base);
      uint64_t handle = memory_.textures.create(std::move(view), o.surface);
      if (handle != o.handle)
        notes.push_back("the object made at " + o.where + " has handle " +
                        std::to_string(handle) + " on the simulated device, " +
                        "not the " + std::to_string(o.handle) +
                        " host code was given: its reads are not of it");
    }
  }

  /// Kernel arguments as the engine wants them; false when one is unknown.
  bool arguments(const llvm::Function &f, const HostLaunch *launch,
                 std::vector<sim::KernelArg> &out,
                 std::vector<std::string> &notes) {
    placeTextureObjects(notes);
    bool ok = true;
    for (unsigned i = 0; i < f.arg_size(); ++i) {
      const llvm::Argument &param = *f.getArg(i);
      std::string label = "#" + std::to_string(i);
      std::string paramName = param.getName().str();
      const analyzer::LaunchArg *given =
          launch && i < launch->args.size() ? &launch->args[i] : nullptr;
      // --arg NAME=V, NAME being the parameter's name, the argument as
      // written at the launch, or "#i".
      std::optional<std::string> override;
      for (const auto &[name, value] : options_.args)
        if (name == label || (!paramName.empty() && name == paramName) ||
            (given && name == given->text))
          override = value;
      if (override) {
        auto bits = parseArgValue(*override, param.getType()->isFloatTy(),
                                  param.getType()->isDoubleTy());
        if (!bits) {
          notes.push_back("bad --arg value '" + *override + "'");
          ok = false;
          continue;
        }
        out.push_back({*bits});
        continue;
      }
      if (param.hasByValAttr()) {
        if (!structArgument(param, given, label, out, notes))
          ok = false;
        continue;
      }
      if (param.getType()->isPointerTy()) {
        if (given && given->value.kind == HostValue::Kind::DevicePtr) {
          out.push_back({allocationBase(given->value.allocation, notes) +
                         uint64_t(given->value.offset)});
        } else {
          out.push_back({freshBuffer(
              "argument " + label,
              "pointer argument " +
                  (paramName.empty() ? label : "'" + paramName + "'") +
                  (given ? " '" + given->text + "'" : "") +
                  " not traced to a cudaMalloc",
              notes)});
        }
        continue;
      }
      llvm::Type *pt = param.getType();
      bool real = pt->isFloatTy() || pt->isDoubleTy() || pt->isHalfTy() ||
                  pt->isBFloatTy();
      if (real && given && given->value.kind == HostValue::Kind::Unknown) {
        // A float that host code computes from its data (a scale, a
        // threshold) rarely decides an address: run it as unseen data.
        notes.push_back(
            "argument " + (paramName.empty() ? label : "'" + paramName + "'") +
            " ('" + given->text + "') could not be evaluated" +
            (given->value.why.empty() ? "" : ": " + given->value.why) +
            "; simulated as 0, an input kcheck did not see (exact unless a "
            "note says a branch or address depends on it; give it with --arg " +
            (paramName.empty() ? label : paramName) + "=VALUE)");
        sim::KernelArg unseen(0);
        unseen.unseen = true;
        out.push_back(unseen);
        continue;
      }
      if (!given || given->value.kind == HostValue::Kind::Unknown) {
        notes.push_back(
            "argument " + (paramName.empty() ? label : "'" + paramName + "'") +
            (given ? " ('" + given->text + "')" : "") +
            " could not be evaluated" +
            (given && !given->value.why.empty() ? ": " + given->value.why
                                                : "") +
            "; give it with --arg " + (paramName.empty() ? label : paramName) +
            "=VALUE");
        ok = false;
        continue;
      }
      const HostValue &v = given->value;
      uint64_t bits = 0;
      if (param.getType()->isFloatTy()) {
        float fv = v.kind == HostValue::Kind::Float ? float(v.f) : float(v.i);
        uint32_t b;
        std::memcpy(&b, &fv, 4);
        bits = b;
      } else if (param.getType()->isDoubleTy()) {
        double dv = v.kind == HostValue::Kind::Float ? v.f : double(v.i);
        std::memcpy(&bits, &dv, 8);
      } else {
        bits = v.kind == HostValue::Kind::Float ? uint64_t(int64_t(v.f))
                                                : uint64_t(v.i);
      }
      out.push_back({bits});
    }
    return ok;
  }

private:
  // An unknown pointer (argument or struct field): a fresh allocation keeps
  // the kernel runnable, with a note saying so.
  uint64_t freshBuffer(const std::string &name, const std::string &what,
                       std::vector<std::string> &notes) {
    notes.push_back(what + ": a fresh buffer was assumed");
    return memory_.allocate(kUnknownAllocationBytes, name);
  }

  // A struct passed by value: its bytes, from the scalars host code gave.
  bool structArgument(const llvm::Argument &param,
                      const analyzer::LaunchArg *given,
                      const std::string &label,
                      std::vector<sim::KernelArg> &out,
                      std::vector<std::string> &notes) {
    std::string name =
        param.getName().empty() ? label : "'" + param.getName().str() + "'";
    const llvm::DataLayout &dl = param.getParent()->getDataLayout();
    sim::KernelArg arg;
    arg.bytes.assign(dl.getTypeAllocSize(param.getParamByValType()), 0);
    out.push_back(arg);
    if (!given || !given->fields) {
      notes.push_back(
          "argument " + name + " (a struct passed by value)" +
          (given ? " ('" + given->text + "')" : "") +
          " could not be evaluated" +
          (given && !given->value.why.empty() ? ": " + given->value.why : ""));
      return false;
    }
    std::vector<uint8_t> &bytes = out.back().bytes;
    for (const analyzer::ArgField &f : *given->fields) {
      const HostValue &v = f.value;
      uint64_t bits = 0;
      switch (v.kind) {
      case HostValue::Kind::Unknown:
        if (f.type == analyzer::ArgField::Type::Pointer) {
          bits = freshBuffer("argument " + label + " " + f.path,
                             "pointer `" + f.path + "` in argument " + name +
                                 " not traced to a cudaMalloc (" + v.why + ")",
                             notes);
          break;
        }
        // As for a scalar argument: zero, and the whole struct marked as
        // input kcheck did not see, so what depends on it is noted.
        notes.push_back("argument " + name + ": `" + f.path +
                        "` could not be evaluated: " + v.why +
                        "; simulated as 0, an input kcheck did not see "
                        "(exact unless a note says a branch or address "
                        "depends on it)");
        out.back().unseen = true;
        continue;
      case HostValue::Kind::DevicePtr:
        bits = allocationBase(v.allocation, notes) + uint64_t(v.offset);
        break;
      case HostValue::Kind::HostPtr: // the kernel must not dereference it
        bits = 0;
        break;
      case HostValue::Kind::Int:
      case HostValue::Kind::Float:
        if (f.type == analyzer::ArgField::Type::Float) {
          float x = v.kind == HostValue::Kind::Float ? float(v.f) : float(v.i);
          uint32_t b;
          std::memcpy(&b, &x, 4);
          bits = b;
        } else if (f.type == analyzer::ArgField::Type::Double) {
          double x = v.kind == HostValue::Kind::Float ? v.f : double(v.i);
          std::memcpy(&bits, &x, 8);
        } else {
          bits = v.kind == HostValue::Kind::Float ? uint64_t(int64_t(v.f))
                                                  : uint64_t(v.i);
        }
        break;
      }
      if (f.offset + f.bytes <= bytes.size() && f.bytes <= 8)
        std::memcpy(bytes.data() + f.offset, &bits, f.bytes); // little-endian
    }
    return true;
  }

  const Options &options_;
  const HostProgram &host_;
  sim::DeviceMemory &memory_;
  std::map<int, uint64_t> bases_;
  bool texturesPlaced_ = false;
};

LaunchBuilder::LaunchBuilder(const Options &options, const HostProgram &host,
                             sim::DeviceMemory &memory)
    : impl_(std::make_unique<Impl>(options, host, memory)) {}
LaunchBuilder::~LaunchBuilder() = default;

bool LaunchBuilder::arguments(const llvm::Function &f, const HostLaunch *launch,
                              std::vector<sim::KernelArg> &out,
                              std::vector<std::string> &notes) {
  return impl_->arguments(f, launch, out, notes);
}

/// For a file without launches of the wanted kernel: the launch the command
/// line describes (--kernel, or the file's only kernel). nullopt, with the
/// reason in `errors`, when no single kernel is named.
std::optional<HostLaunch>
launchFromCommandLine(const Options &options, const llvm::Module &module,
                      const std::map<std::string, analyzer::KernelName> &names,
                      std::vector<std::string> &errors) {
  std::vector<const llvm::Function *> kernels;
  for (const llvm::Function &f : module)
    if (isKernel(f)) {
      std::string demangled = llvm::demangle(f.getName().str());
      std::string base =
          baseKernelName(demangled.substr(0, demangled.find('(')));
      if (options.kernel.empty() || options.kernel == base ||
          options.kernel == f.getName())
        kernels.push_back(&f);
    }
  if (kernels.empty()) {
    errors.push_back(options.kernel.empty()
                         ? "no kernel found in " + options.file
                         : "no kernel named '" + options.kernel + "'");
    return std::nullopt;
  }
  if (kernels.size() > 1) {
    std::string names;
    for (const llvm::Function *f : kernels)
      names += " " + llvm::demangle(f->getName().str());
    errors.push_back("no launch found; choose a kernel with --kernel "
                     "(and give --grid and --block):" +
                     names);
    return std::nullopt;
  }
  HostLaunch l;
  l.mangledName = kernels[0]->getName().str();
  std::tie(l.kernelName, l.signature) =
      analyzer::namesOf(names, l.mangledName)
          .value_or(sim::kernelNames(l.mangledName));
  l.notes.push_back("no launch of this kernel in host code: the launch is the "
                    "command line's");
  return l;
}

/// Grid, block and dynamic shared size of a launch: the command line's
/// overrides, else what host code evaluated to. Fills `lr.config`; names
/// what is missing in `lr.notes` and returns false then.
bool resolveConfig(const Options &options, const HostLaunch &hl,
                   bool fromCommandLine, core::LaunchReport &lr) {
  std::optional<core::Dim3> grid = options.grid ? options.grid : hl.grid;
  std::optional<core::Dim3> block = options.block ? options.block : hl.block;
  std::optional<uint64_t> shmem =
      options.sharedBytes ? options.sharedBytes : hl.dynamicSharedBytes;
  if (!shmem && fromCommandLine)
    shmem = 0;
  if (grid)
    lr.config.grid = *grid;
  if (block)
    lr.config.block = *block;
  if (shmem)
    lr.config.dynamicSharedBytes = *shmem;
  lr.config.cooperative = hl.cooperative;
  if (hl.cluster)
    lr.config.cluster = *hl.cluster, lr.config.explicitCluster = true;
  lr.config.nonPortableCluster = hl.nonPortableCluster;
  auto missing = [&](const char *what, const char *flag) {
    lr.notes.push_back(std::string(what) + " of launch #" +
                       std::to_string(lr.index) + " (" + hl.kernelName +
                       ") could not be evaluated; give it with " + flag);
  };
  if (!grid)
    missing("grid", "--grid");
  if (!block)
    missing("block", "--block");
  if (!shmem)
    missing("dynamic shared size", "--shmem");
  return grid && block && shmem;
}

} // namespace kcheck::driver

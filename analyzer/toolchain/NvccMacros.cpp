#include "analyzer/toolchain/NvccMacros.h"

#include "analyzer/toolchain/DeviceCompiler.h"
#include "analyzer/toolchain/RunProgram.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Preprocessor.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <regex>

namespace kcheck::analyzer {

const std::vector<NvccMacro> &nvccMacros() {
  using P = NvccMacroPasses;
  using V = NvccMacroValue;
  using D = NvccMacroDefinedBy;
  static const std::vector<NvccMacro> rows = {
#define KCHECK_NVCC_MACRO(name, passes, value, option, shortOption, how)       \
  {#name, P::passes, V::value, option, shortOption, D::how},
#include "analyzer/toolchain/NvccMacros.def"
  };
  return rows;
}

const NvccMacro *nvccMacroOfFlag(std::string_view flag) {
  if (flag.empty() || flag.find('=') != std::string_view::npos)
    return nullptr;
  for (const NvccMacro &m : nvccMacros())
    if ((m.definedBy == NvccMacroDefinedBy::Argument ||
         m.definedBy == NvccMacroDefinedBy::Relocatable) &&
        !m.option.empty() && (flag == m.option || flag == m.shortOption))
      return &m;
  return nullptr;
}

std::string nvccMacroValue(const NvccMacro &macro, const CudaToolkit &toolkit,
                           const std::string &arch) {
  // sm_90 -> 900, sm_90a -> 900: nvcc's __CUDA_ARCH__ of the architecture.
  auto archNumber = [&] {
    std::smatch m;
    static const std::regex sm("sm_([0-9]+)");
    return std::regex_search(arch, m, sm) ? m[1].str() + "0" : std::string();
  };
  switch (macro.value) {
  case NvccMacroValue::One:
    return "1";
  case NvccMacroValue::ToolkitMajor:
    return std::to_string(toolkit.major);
  case NvccMacroValue::ToolkitMinor:
    return std::to_string(toolkit.minor);
  case NvccMacroValue::ToolkitBuild:
    return std::to_string(toolkit.build);
  case NvccMacroValue::ArchList:
  case NvccMacroValue::Arch:
    return archNumber();
  }
  return "";
}

std::vector<std::string> nvccMacroArguments(const CudaToolkit &toolkit,
                                            const std::string &arch,
                                            bool devicePass) {
  std::vector<std::string> args;
  for (const NvccMacro &m : nvccMacros()) {
    if (m.definedBy != NvccMacroDefinedBy::Argument || !m.option.empty())
      continue;
    if (m.passes == NvccMacroPasses::DeviceOnly && !devicePass)
      continue;
    std::string value = nvccMacroValue(m, toolkit, arch);
    if (value.empty())
      continue;
    // Any definition of Clang's undone first: no redefinition warning.
    args.push_back("-U" + std::string(m.name));
    args.push_back("-D" + std::string(m.name) + "=" + value);
  }
  return args;
}

std::optional<std::string> hostCompilerGnuVersionArgument() {
  static const std::optional<std::string> argument =
      []() -> std::optional<std::string> {
    llvm::ErrorOr<std::string> gxx = llvm::sys::findProgramByName("g++");
    if (!gxx)
      return std::nullopt;
    std::optional<ProgramOutput> out =
        runProgram(*gxx, {"-dumpfullversion"}, /*seconds=*/10);
    if (!out || out->exitCode != 0)
      return std::nullopt;
    std::string version = llvm::StringRef(out->text).trim().str();
    static const std::regex dotted("[0-9]+(\\.[0-9]+){0,2}");
    if (!std::regex_match(version, dotted))
      return std::nullopt;
    return "-fgnuc-version=" + version;
  }();
  return argument;
}

namespace {

// Preprocesses the main file and keeps the macros defined at its end.
class MacroTableAction : public clang::PreprocessOnlyAction {
public:
  explicit MacroTableAction(std::map<std::string, std::string> &macros)
      : macros_(macros) {}

protected:
  void EndSourceFileAction() override {
    clang::Preprocessor &pp = getCompilerInstance().getPreprocessor();
    for (const auto &[name, state] : pp.macros()) {
      const clang::MacroInfo *info = pp.getMacroInfo(name);
      if (!info)
        continue;
      std::string text;
      if (info->isFunctionLike()) {
        text = "(";
        // A variadic macro's last parameter is __VA_ARGS__ (or its name).
        for (const clang::IdentifierInfo *param : info->params())
          text += (text.size() > 1 ? "," : "") + param->getName().str();
        text += ")";
      }
      std::string body;
      for (const clang::Token &token : info->tokens()) {
        if (!body.empty() && token.hasLeadingSpace())
          body += ' ';
        body += pp.getSpelling(token);
      }
      macros_[name->getName().str()] =
          text.empty() ? body : text + (body.empty() ? "" : " " + body);
    }
  }

private:
  std::map<std::string, std::string> &macros_;
};

} // namespace

std::optional<std::map<std::string, std::string>>
predefinedMacros(const std::vector<std::string> &args,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                 std::string &diagnostics) {
  std::map<std::string, std::string> macros;
  MacroTableAction action(macros);
  llvm::raw_string_ostream stream(diagnostics);
  if (!runClangAction(args, fileSystem, stream, action))
    return std::nullopt;
  return macros;
}

} // namespace kcheck::analyzer

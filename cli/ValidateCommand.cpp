// `kcheck validate FILE.cu [--arch sm_XX] [--per-line] [--keep DIR]`: the
// whole loop on a machine with a GPU. Predicts FILE.cu in-process (as
// `predict` does), builds it with `nvcc -lineinfo -arch=sm_XX -O3`, measures
// it with `kcheck-profile` (runtime/) and prints the comparison of
// `kcheck compare`. Exit 0 when every launch (and line) agrees, 1 when any
// differs, 3 when the file cannot be predicted or built (no nvcc, nvcc
// errors), 4 when there is no GPU or profiling is not permitted.
#include "cli/Commands.h"
#include "driver/Session.h"

#include "core/Compare.h"
#include "core/ReportFile.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace kcheck::cli {

namespace {

namespace fs = std::filesystem;

// kcheck-profile's exit codes (runtime/ProfileMain.cpp).
enum ProfileExit { kProfileOk = 0, kProfileIncomplete = 1, kProfileNoGpu = 4 };

bool writeWholeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  return bool(out);
}

// Runs `argv` with its standard output and error in `logPath`; returns its
// exit status (128 + N when killed by signal N, 127 when it cannot start).
int runLogged(const std::vector<std::string> &argv, const fs::path &logPath) {
  pid_t pid = fork();
  if (pid < 0)
    return 127;
  if (pid == 0) {
    int log = open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      close(log);
    }
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "cannot run '%s': %s\n", args[0],
                 std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

bool isExecutable(const fs::path &p) {
  return !p.empty() && access(p.c_str(), X_OK) == 0 && !fs::is_directory(p);
}

// `name` in the folders of $PATH; empty when absent.
fs::path findInPath(const std::string &name) {
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && isExecutable(fs::path(dir) / name))
      return fs::path(dir) / name;
  return {};
}

fs::path findNvcc() {
  if (fs::path p = findInPath("nvcc"); !p.empty())
    return p;
  fs::path fallback = "/usr/local/cuda/bin/nvcc";
  return isExecutable(fallback) ? fallback : fs::path();
}

// Next to this kcheck binary first (both are built into the build folder),
// then $PATH.
fs::path findProfiler() {
  char self[PATH_MAX] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    fs::path beside =
        fs::path(std::string(self, size_t(n))).parent_path() / "kcheck-profile";
    if (isExecutable(beside))
      return beside;
  }
  return findInPath("kcheck-profile");
}

// A fresh folder for the build and the JSON files; removed on destruction.
class WorkFolder {
public:
  WorkFolder() {
    fs::path base = fs::temp_directory_path() / "kcheck-validate.XXXXXX";
    std::string name = base.string();
    if (mkdtemp(name.data()))
      path_ = name;
  }
  ~WorkFolder() {
    std::error_code ignored;
    if (!path_.empty())
      fs::remove_all(path_, ignored);
  }
  WorkFolder(const WorkFolder &) = delete;
  WorkFolder &operator=(const WorkFolder &) = delete;
  const fs::path &path() const { return path_; }

private:
  fs::path path_;
};

// nvcc understands the include paths, macros and language standard given to
// the prediction after `--`; other Clang arguments are Clang's alone.
std::vector<std::string> nvccArgsFrom(const std::vector<std::string> &clang) {
  std::vector<std::string> out;
  for (size_t i = 0; i < clang.size(); ++i) {
    const std::string &a = clang[i];
    if ((a == "-I" || a == "-D") && i + 1 < clang.size()) {
      out.push_back(a);
      out.push_back(clang[++i]);
    } else if (a.rfind("-I", 0) == 0 || a.rfind("-D", 0) == 0 ||
               a.rfind("-std=", 0) == 0) {
      out.push_back(a);
    }
  }
  return out;
}

// With --kernel only that kernel's launches were predicted: compare only the
// measured launches with the same indices.
void keepPredictedLaunches(const core::ReportFile &predicted,
                           core::ReportFile &measured) {
  std::set<int> indices;
  for (const core::ReportLaunch &l : predicted.launches)
    indices.insert(l.index);
  std::erase_if(measured.launches, [&](const core::ReportLaunch &l) {
    return !indices.contains(l.index);
  });
}

void printPredictionNotes(const Session &s, std::ostream &err) {
  for (const std::string &n : s.report.notes)
    err << "kcheck: note: " << n << '\n';
  for (const core::LaunchReport &l : s.report.launches)
    for (const std::string &n : l.notes)
      err << "kcheck: note: launch #" << l.index << " " << l.kernel << ": " << n
          << '\n';
}

} // namespace

namespace {

/// Where validate keeps its files: a temporary folder, the JSON in --keep.
struct ValidateFiles {
  WorkFolder work;
  fs::path predicted, measured;
};

/// 1. Predict: the prediction's JSON written; exit code, or -1 to go on.
int predictInto(const Options &o, ValidateFiles &files, std::ostream &err) {
  Session s = analyzeFile(o);
  if (!s.compiled) {
    err << s.clangDiagnostics;
    for (const std::string &e : s.errors)
      err << "kcheck: error: " << e << '\n';
    err << "kcheck: error: '" << o.file << "' could not be predicted\n";
    return kExitCannotAnalyse;
  }
  printPredictionNotes(s, err);
  for (const std::string &e : s.errors)
    err << "kcheck: error: " << e << '\n';
  if (!s.errors.empty())
    return kExitCannotAnalyse;
  if (files.work.path().empty()) {
    err << "kcheck: error: cannot create a temporary folder\n";
    return kExitCannotAnalyse;
  }
  fs::path jsonDir = files.work.path();
  if (!o.keepDir.empty()) {
    std::error_code ec;
    fs::create_directories(o.keepDir, ec);
    if (ec) {
      err << "kcheck: error: cannot create '" << o.keepDir
          << "': " << ec.message() << '\n';
      return kExitCannotAnalyse;
    }
    jsonDir = o.keepDir;
  }
  const std::string stem = fs::path(o.file).stem().string();
  files.predicted = jsonDir / (stem + ".predicted.json");
  files.measured = jsonDir / (stem + ".measured.json");
  if (!writeWholeFile(files.predicted, core::toJson(s.report))) {
    err << "kcheck: error: cannot write '" << files.predicted.string() << "'\n";
    return kExitCannotAnalyse;
  }
  err << "kcheck: predicted " << s.report.launches.size() << " launch"
      << (s.report.launches.size() == 1 ? "" : "es") << " of " << o.file
      << " for " << o.arch << '\n';
  return -1;
}

/// 2. Build with nvcc -lineinfo: the program's path, or empty on failure.
fs::path build(const Options &o, const ValidateFiles &files,
               std::ostream &err) {
  fs::path nvcc = findNvcc();
  if (nvcc.empty()) {
    err << "kcheck: error: nvcc not found (looked in PATH and "
           "/usr/local/cuda/bin): validate builds FILE.cu with the CUDA "
           "toolkit; use kcheck predict without one\n";
    return {};
  }
  const fs::path program = files.work.path() / fs::path(o.file).stem().string();
  std::vector<std::string> argv = {nvcc.string(), "-lineinfo",
                                   "-arch=" + o.arch, "-O3"};
  for (const std::string &a : nvccArgsFrom(o.clangArgs))
    argv.push_back(a);
  argv.insert(argv.end(), {"-o", program.string(), o.file});
  std::string line;
  for (const std::string &a : argv)
    line += (line.empty() ? "" : " ") + a;
  const fs::path log = files.work.path() / "nvcc.log";
  int built = runLogged(argv, log);
  if (built != 0 || !isExecutable(program)) {
    err << readTextFile(log).value_or("")
        << "kcheck: error: the build failed (exit " << built << "): " << line
        << '\n';
    return {};
  }
  err << "kcheck: built " << o.file << ": " << line << '\n';
  return program;
}

/// 3. Measure with kcheck-profile: its exit code; nullopt when it is
/// missing.
std::optional<int> measure(const Options &o, const ValidateFiles &files,
                           const fs::path &program, std::ostream &err) {
  fs::path profiler = findProfiler();
  if (profiler.empty()) {
    err << "kcheck: error: kcheck-profile not found next to kcheck or in "
           "PATH (it builds where the CUDA toolkit has CUPTI)\n";
    return std::nullopt;
  }
  std::vector<std::string> argv = {profiler.string()};
  if (o.perLine)
    argv.push_back("--per-line");
  argv.insert(argv.end(),
              {"--output", files.measured.string(), "--file",
               fs::path(o.file).filename().string(), "--", program.string()});
  err << "kcheck: measuring with " << profiler.string()
      << (o.perLine ? " --per-line" : "") << '\n';
  const fs::path log = files.work.path() / "profile.log";
  int measured = runLogged(argv, log);
  err << readTextFile(log).value_or("");
  return measured;
}

/// 4. Compare the two files; false when one cannot be read.
bool compare(const Options &o, const ValidateFiles &files, std::ostream &out,
             std::ostream &err, bool &agree) {
  core::ReportLoadResult p = core::loadReportFile(files.predicted.string());
  core::ReportLoadResult m = core::loadReportFile(files.measured.string());
  for (const core::ReportLoadResult *r : {&p, &m})
    if (!r->report) {
      err << "kcheck: error: " << r->error << '\n';
      return false;
    }
  if (!o.kernel.empty())
    keepPredictedLaunches(*p.report, *m.report);
  core::ProgramComparison c = core::compareReports(*p.report, *m.report);
  if (!o.keepDir.empty()) {
    c.predictedPath = files.predicted.string();
    c.measuredPath = files.measured.string();
  }
  std::vector<core::ProgramComparison> programs = {std::move(c)};
  switch (o.format) {
  case OutputFormat::Json:
    out << core::comparisonJson(programs);
    break;
  case OutputFormat::Markdown:
    out << core::comparisonMarkdown(programs, "kcheck validate " + o.file);
    break;
  case OutputFormat::Text:
  case OutputFormat::Sarif: // parseOptions refuses these two here
  case OutputFormat::Html:
    out << core::comparisonText(programs, /*allLines=*/false);
    break;
  }
  agree = core::summarize(programs).allAgree();
  return true;
}

} // namespace

int runValidate(const Options &o, std::ostream &out, std::ostream &err) {
  if (!fs::exists(o.file)) {
    err << "kcheck: error: cannot read '" << o.file << "'\n";
    return kExitCannotAnalyse;
  }
  ValidateFiles files;
  if (int rc = predictInto(o, files, err); rc >= 0)
    return rc;
  fs::path program = build(o, files, err);
  if (program.empty())
    return kExitCannotAnalyse;
  std::optional<int> profiled = measure(o, files, program, err);
  if (!profiled)
    return kExitCannotAnalyse;
  int measured = *profiled;
  if (measured == kProfileNoGpu) {
    err << "kcheck: error: cannot measure on this machine (kcheck-profile "
           "exit 4, see above); the prediction alone: kcheck predict "
        << o.file << '\n';
    return kExitNoGpu;
  }
  if (measured != kProfileOk && measured != kProfileIncomplete) {
    err << "kcheck: error: kcheck-profile failed (exit " << measured << ")\n";
    return kExitCannotAnalyse;
  }
  bool agree = false;
  if (!compare(o, files, out, err, agree))
    return kExitCannotAnalyse;
  if (measured == kProfileIncomplete)
    err << "kcheck: note: the measurement is incomplete (see kcheck-profile's "
           "messages above)\n";
  return agree && measured == kProfileOk ? kExitClean : kExitFindings;
}

} // namespace kcheck::cli

// `kcheck check -p DIR` without a file: every CUDA source of the compile
// database, analysed in parallel as run-clang-tidy does (one kcheck process
// per file, --jobs at a time, each on one thread), gathered into one report:
// text, JSON (kcheck-project/1) or one SARIF log.
#include "cli/Commands.h"
#include "core/Json.h"
#include "driver/CompileDatabase.h"
#include "emit/JsonEmitter.h"
#include "emit/SarifEmitter.h"
#include "emit/TextEmitter.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

extern char **environ;

namespace kcheck::cli {

namespace {

namespace fs = std::filesystem;

struct FileRun {
  std::string file;
  fs::path out, err; // the child's stdout (its JSON report) and stderr
  pid_t pid = -1;
  int exit = -1;
  std::vector<core::Diagnostic> findings;
  size_t launches = 0;
};

/// The child's command line: this run's, for one file, as JSON on stdout,
/// quiet, on one thread (the files are the parallelism).
std::vector<std::string> childArguments(const std::vector<std::string> &argv,
                                        const std::string &file) {
  std::vector<std::string> out = {argv[0], file};
  size_t i = 1;
  for (; i < argv.size() && argv[i] != "--"; ++i) {
    const std::string &a = argv[i];
    if (a == "--format" || a == "--jobs" || a == "-j") {
      ++i; // and its value
      continue;
    }
    if (a.starts_with("--format=") || a.starts_with("--jobs=") || a == "-q" ||
        a == "--quiet")
      continue;
    out.push_back(a);
  }
  out.insert(out.end(), {"--format", "json", "-q", "--jobs", "1"});
  out.insert(out.end(), argv.begin() + long(i), argv.end());
  return out;
}

pid_t spawn(const std::vector<std::string> &args, const FileRun &run) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, run.out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, run.err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char *> argv = {const_cast<char *>("kcheck")};
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(),
                  environ) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

/// Runs every file's analysis, `jobs` at a time.
void runAll(std::vector<FileRun> &runs, const std::vector<std::string> &argv,
            unsigned jobs) {
  std::map<pid_t, FileRun *> running;
  size_t next = 0;
  while (next < runs.size() || !running.empty()) {
    while (next < runs.size() && running.size() < jobs) {
      FileRun &r = runs[next++];
      r.pid = spawn(childArguments(argv, r.file), r);
      if (r.pid > 0)
        running[r.pid] = &r;
    }
    if (running.empty())
      continue;
    int status = 0;
    pid_t done = waitpid(-1, &status, 0);
    auto it = running.find(done);
    if (it == running.end())
      continue;
    it->second->exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    running.erase(it);
  }
}

/// The file's findings and launches from its JSON report.
void readReport(FileRun &r) {
  std::string text = readTextFile(r.out).value_or("");
  size_t brace = text.find('{'); // after anything the program printed
  if (brace == std::string::npos)
    return;
  core::JsonParseResult parsed = core::parseJson(text.substr(brace));
  if (!parsed.value)
    return;
  r.findings = emit::readFindingsJson(*parsed.value);
  if (const core::Json *l = core::jsonMember(*parsed.value, "launches");
      l && l->is_array())
    r.launches = l->size();
}

void writeProjectJson(const std::vector<FileRun> &runs,
                      const std::string &database, std::ostream &out) {
  core::Json files = core::Json::array();
  for (const FileRun &r : runs)
    files.push_back({{"file", r.file},
                     {"exit", r.exit},
                     {"launches", uint64_t(r.launches)},
                     {"findings", emit::findingsJson(r.findings)}});
  core::Json doc = {{"schema", "kcheck-project/1"},
                    {"database", database},
                    {"files", std::move(files)}};
  out << core::jsonText(doc) << '\n';
}

} // namespace

int runProject(const Options &o, const std::vector<std::string> &argv,
               std::ostream &out, std::ostream &err) {
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> database =
      driver::loadCompileDatabase(o.compileDatabase, error);
  if (!database) {
    err << "kcheck: error: " << error << '\n';
    return kExitUsage;
  }
  std::vector<std::string> files = driver::cudaSources(*database);
  if (files.empty()) {
    err << "kcheck: error: -p " << o.compileDatabase
        << ": the compile database has no CUDA source (.cu)\n";
    return kExitCannotAnalyse;
  }
  char tmpl[] = "/tmp/kcheck-project.XXXXXX";
  if (!mkdtemp(tmpl)) {
    err << "kcheck: error: cannot create a temporary folder\n";
    return kExitCannotAnalyse;
  }
  fs::path work = tmpl;
  std::vector<FileRun> runs;
  for (size_t i = 0; i < files.size(); ++i) {
    FileRun r;
    r.file = files[i];
    r.out = work / fmt::format("{}.json", i);
    r.err = work / fmt::format("{}.err", i);
    runs.push_back(std::move(r));
  }
  unsigned jobs =
      o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  runAll(runs, argv, jobs);

  int rc = kExitClean;
  std::vector<core::Diagnostic> all;
  driver::Session merged; // what the SARIF log's invocation reports
  merged.report.arch = o.arch;
  merged.report.file = o.compileDatabase;
  for (FileRun &r : runs) {
    readReport(r);
    if (r.exit == kExitFindings && rc == kExitClean)
      rc = kExitFindings;
    if (r.exit != kExitClean && r.exit != kExitFindings) {
      rc = kExitCannotAnalyse;
      merged.errors.push_back(
          fmt::format("{} could not be analysed (exit {})", r.file, r.exit));
    }
    all.insert(all.end(), r.findings.begin(), r.findings.end());
  }
  if (o.format == OutputFormat::Json) {
    writeProjectJson(runs, o.compileDatabase, out);
  } else if (o.format == OutputFormat::Sarif) {
    out << emit::sarifLog(merged, all);
  } else {
    for (const FileRun &r : runs) {
      emit::emitText(out, r.findings, isatty(STDOUT_FILENO));
      if (r.exit != kExitClean && r.exit != kExitFindings)
        err << readTextFile(r.err).value_or("");
    }
  }
  size_t withFindings = 0, failed = merged.errors.size();
  for (const FileRun &r : runs)
    withFindings += r.exit == kExitFindings;
  err << fmt::format("kcheck: {} CUDA file{} of {}: {} with findings, {} "
                     "clean, {} not analysable\n",
                     runs.size(), runs.size() == 1 ? "" : "s",
                     o.compileDatabase, withFindings,
                     runs.size() - withFindings - failed, failed);
  fs::remove_all(work);
  return rc;
}

} // namespace kcheck::cli

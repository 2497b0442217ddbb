// kcheck-profile [options] -- ./app args: measures an unmodified CUDA program
// by injection (CUDA_INJECTION64_PATH=libkcheck_inject.so) and writes a
// kcheck-measurement/1 file (DESIGN.md). Per-line values need one run of the
// program per launch (CUPTI 13.0's SASS Metrics API patches one kernel per
// process, research/cupti.md §3.4); the program must behave the same on
// every run. It does not link libcuda: without a driver it must still start,
// to say so and exit 4.
#include "core/Metrics.h"
#include "core/ReportFile.h"
#include "runtime/CuptiMessages.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

enum Exit { kOk = 0, kIncomplete = 1, kUsage = 2, kNoGpu = 4 };

const char *kUsageText =
    R"(usage: kcheck-profile [options] -- PROGRAM [ARGS...]

Measures every kernel launch of PROGRAM on the GPU with CUPTI and writes the
counters as kcheck-measurement/1 JSON (the shape of kcheck predict --format
json), per launch in launch order and, with --per-line, per source line
(build PROGRAM with nvcc -lineinfo).

options:
  --metrics A,B,...   metrics per launch (default: the DESIGN.md set plus
                      smsp__sass_inst_executed.sum, _thread_inst_executed.sum,
                      smsp__sass_branch_targets.sum)
  --per-line          also measure per source line (one run per launch)
  --output FILE       write the JSON to FILE (default: standard output; the
                      program's own output then goes to standard error)
  --file NAME         the "file" recorded in the report (default: PROGRAM)
  --batch N           launches per Range Profiler read-out (default 256)
  -h, --help          this text

A kernel fault ends the measurement; the launches before it keep their
counters (when CUPTI cannot read them after the fault, the program runs once
more with --batch 1).

exit codes: 0 measured, 1 measurement incomplete (a fault, a failed launch,
lost ranges, the program failed), 2 usage, 4 no GPU, driver, CUPTI or
profiling permission
)";

struct ProfileOptions {
  std::vector<std::string> metrics;
  bool perLine = false;
  std::string output, file;
  int batch = 256;
  std::vector<std::string> program;
};

std::vector<std::string> defaultMetrics() {
  std::vector<std::string> m;
  // Per-op predicated-on lanes exist only per SASS instruction (summed per
  // line by SassRollup); the Range Profiler has no such counter.
  for (unsigned i = 0; i < kcheck::core::kMetricCount; ++i)
    if (kcheck::core::isProfilerMetric(kcheck::core::Metric(i)))
      m.emplace_back(kcheck::core::metricName(kcheck::core::Metric(i)));
  for (const char *extra :
       {"smsp__sass_branch_targets.sum", "smsp__sass_inst_executed.sum",
        "smsp__sass_thread_inst_executed.sum"})
    m.emplace_back(extra);
  return m;
}

std::string joinList(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &x : v)
    s += (s.empty() ? "" : ",") + x;
  return s;
}

// Checks that a driver, a GPU and CUPTI can be loaded, without linking any.
bool gpuAvailable(std::string &why) {
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda) {
    why = "no NVIDIA driver (libcuda.so.1 cannot be loaded): kcheck-profile "
          "measures on a GPU; use kcheck predict on machines without one";
    return false;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  auto init = reinterpret_cast<InitFn>(dlsym(cuda, "cuInit"));
  auto count = reinterpret_cast<CountFn>(dlsym(cuda, "cuDeviceGetCount"));
  int n = 0;
  int rc = init ? init(0) : -1;
  if (rc != 0 || !count || count(&n) != 0 || n == 0) {
    why = "no usable GPU (cuInit returned " + std::to_string(rc) +
          ", devices: " + std::to_string(n) + ")";
    return false;
  }
  if (!dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL) &&
      !dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL)) {
    why = "CUPTI is missing (libcupti.so.13 cannot be loaded): install the "
          "CUDA toolkit's CUPTI or add its lib64 to LD_LIBRARY_PATH";
    return false;
  }
  return true;
}

std::string injectionLibrary() {
  if (const char *env = std::getenv("KCHECK_INJECTION_LIB"))
    return env;
  char self[PATH_MAX] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = n > 0 ? std::string(self, size_t(n)) : std::string(".");
  dir = dir.substr(0, dir.find_last_of('/'));
  return dir + "/libkcheck_inject.so";
}

// Runs the program once with the injection; returns a description of how it
// ended ("" when it exited 0).
std::string runOnce(const ProfileOptions &o, const std::string &lib,
                    const std::string &outFile, const std::string &mode,
                    int launch, bool programOutputToStderr) {
  pid_t pid = fork();
  if (pid < 0)
    return "fork failed";
  if (pid == 0) {
    setenv("CUDA_INJECTION64_PATH", lib.c_str(), 1);
    setenv("KCHECK_PROFILE_OUTPUT", outFile.c_str(), 1);
    setenv("KCHECK_PROFILE_MODE", mode.c_str(), 1);
    setenv("KCHECK_PROFILE_LAUNCH", std::to_string(launch).c_str(), 1);
    setenv("KCHECK_PROFILE_BATCH", std::to_string(o.batch).c_str(), 1);
    setenv("KCHECK_PROFILE_METRICS", joinList(o.metrics).c_str(), 1);
    if (programOutputToStderr)
      dup2(STDERR_FILENO, STDOUT_FILENO);
    std::vector<char *> argv;
    for (const std::string &a : o.program)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "kcheck-profile: error: cannot run '%s': %s\n",
                 argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status))
    return WEXITSTATUS(status) == 0 ? ""
                                    : "the program exited with status " +
                                          std::to_string(WEXITSTATUS(status));
  return "the program was killed by signal " + std::to_string(WTERMSIG(status));
}

int parse(const std::vector<std::string> &args, ProfileOptions &o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&]() -> const std::string * {
      if (i + 1 >= args.size()) {
        std::cerr << "kcheck-profile: error: " << a << " needs a value\n";
        return nullptr;
      }
      return &args[++i];
    };
    if (a == "--") {
      o.program.assign(args.begin() + long(i) + 1, args.end());
      break;
    } else if (a == "-h" || a == "--help") {
      std::cout << kUsageText;
      std::exit(kOk);
    } else if (a == "--per-line") {
      o.perLine = true;
    } else if (a == "--metrics" || a == "--output" || a == "--file" ||
               a == "--batch") {
      const std::string *v = value();
      if (!v)
        return kUsage;
      if (a == "--metrics") {
        o.metrics.clear();
        size_t start = 0;
        while (start <= v->size()) {
          size_t c = v->find(',', start);
          std::string m = v->substr(start, c - start);
          if (!m.empty())
            o.metrics.push_back(m);
          if (c == std::string::npos)
            break;
          start = c + 1;
        }
      } else if (a == "--output") {
        o.output = *v;
      } else if (a == "--file") {
        o.file = *v;
      } else {
        o.batch = std::atoi(v->c_str());
        if (o.batch < 1) {
          std::cerr << "kcheck-profile: error: bad --batch '" << *v << "'\n";
          return kUsage;
        }
      }
    } else {
      std::cerr << "kcheck-profile: error: unknown option '" << a
                << "' (the program goes after --)\n";
      return kUsage;
    }
  }
  if (o.program.empty()) {
    std::cerr << "kcheck-profile: error: no program given (kcheck-profile "
                 "[options] -- ./app args)\n\n"
              << kUsageText;
    return kUsage;
  }
  if (o.metrics.empty())
    o.metrics = defaultMetrics();
  return kOk;
}

// A fault can leave the counters of the launches before it unread (CUPTI
// cannot decode after the context broke; the injection then reports
// kLostAfterFaultMarker). Runs the program again with one read-out per launch
// so every launch that completed before the fault keeps its counters; the
// program must behave the same on every run, as for --per-line.
void remeasureBeforeFault(const ProfileOptions &o, const std::string &lib,
                          const std::string &tmp, bool toStdout,
                          kcheck::core::ReportFile &report) {
  using kcheck::core::ReportLaunch;
  auto isLost = [](const std::string &e) {
    return e.find(kcheck::runtime::kLostAfterFaultMarker) != std::string::npos;
  };
  if (o.batch == 1 ||
      std::none_of(report.errors.begin(), report.errors.end(), isLost))
    return;
  size_t firstFailed = report.launches.size();
  for (const ReportLaunch &l : report.launches)
    if (!l.error.empty())
      firstFailed = std::min(firstFailed, size_t(l.index));
  ProfileOptions oneByOne = o;
  oneByOne.batch = 1;
  std::string file = tmp + "/launches-batch1.json";
  runOnce(oneByOne, lib, file, "launches", 0, toStdout); // it faults again
  kcheck::core::ReportLoadResult again = kcheck::core::loadReportFile(file);
  std::remove(file.c_str());
  size_t recovered = 0, missing = 0;
  for (ReportLaunch &l : report.launches) {
    if (l.hasMetrics || size_t(l.index) >= firstFailed)
      continue;
    const ReportLaunch *r =
        again.report && size_t(l.index) < again.report->launches.size()
            ? &again.report->launches[size_t(l.index)]
            : nullptr;
    if (r && r->hasMetrics && r->kernel == l.kernel) {
      l.metrics = r->metrics;
      l.hasMetrics = true;
      ++recovered;
    } else {
      ++missing;
    }
  }
  if (missing == 0) {
    std::erase_if(report.errors, isLost);
    report.notes.push_back(
        "the counters of the " + std::to_string(recovered) +
        " launches before the fault come from a second run of the program "
        "with one read-out per launch (--batch 1)");
  } else {
    report.errors.push_back(
        "a second run with one read-out per launch recovered " +
        std::to_string(recovered) + " of " +
        std::to_string(recovered + missing) + " launches before the fault" +
        (again.report ? "" : ": " + again.error));
  }
}

bool hasEnvironmentFailure(const kcheck::core::ReportFile &r) {
  for (const std::string &e : r.errors)
    if (e.find(kcheck::runtime::kNoProfilingMarker) != std::string::npos)
      return true;
  return false;
}

// Lines mode: one more run of the program per measured launch, whose
// per-line values go to that launch in `report`.
void measureLines(const ProfileOptions &o, const std::string &lib,
                  const std::string &tmp, bool toStdout,
                  kcheck::core::ReportFile &report) {
  for (kcheck::core::ReportLaunch &l : report.launches) {
    if (!l.hasMetrics)
      continue; // faulted or not measured: its lines would be too
    std::string linesFile = tmp + "/lines" + std::to_string(l.index) + ".json";
    std::string endedK = runOnce(o, lib, linesFile, "lines", l.index, toStdout);
    kcheck::core::ReportLoadResult k = kcheck::core::loadReportFile(linesFile);
    std::string problem;
    if (!k.report)
      problem = k.error;
    else if (size_t(l.index) >= k.report->launches.size())
      problem = "the program made fewer launches on this run";
    else if (k.report->launches[size_t(l.index)].kernel != l.kernel)
      problem = "the program launched " +
                k.report->launches[size_t(l.index)].kernel +
                " as this launch on another run";
    else
      l.lines = std::move(k.report->launches[size_t(l.index)].lines);
    if (k.report)
      for (const std::string &e : k.report->errors)
        problem += (problem.empty() ? "" : "; ") + e;
    if (!endedK.empty())
      problem += (problem.empty() ? "" : "; ") + endedK;
    if (!problem.empty())
      report.errors.push_back("per-line run of launch #" +
                              std::to_string(l.index) + ": " + problem);
  }
}

// Writes the report (to stdout or o.output) and says on stderr what is
// missing from it; the exit status.
int writeReport(const ProfileOptions &o, kcheck::core::ReportFile &report,
                const std::string &launchesFile, bool toStdout) {
  std::string json = kcheck::core::toJson(report);
  if (toStdout) {
    std::cout << json;
  } else {
    std::ofstream out(o.output);
    out << json;
    if (!out) {
      std::cerr << "kcheck-profile: error: cannot write '" << o.output << "'\n";
      return kIncomplete;
    }
  }
  std::remove(launchesFile.c_str());
  bool complete = report.errors.empty();
  for (const kcheck::core::ReportLaunch &l : report.launches) {
    complete &= l.hasMetrics && l.error.empty();
    if (!l.error.empty())
      std::cerr << "kcheck-profile: launch #" << l.index << " " << l.kernel
                << ": " << l.error << '\n';
  }
  for (const std::string &e : report.errors)
    std::cerr << "kcheck-profile: error: " << e << '\n';
  std::cerr << "kcheck-profile: " << report.launches.size() << " launches"
            << (complete ? "" : " (incomplete)") << '\n';
  return complete ? kOk : kIncomplete;
}

} // namespace

int main(int argc, char **argv) {
  using namespace kcheck;
  ProfileOptions o;
  if (int rc = parse(std::vector<std::string>(argv + 1, argv + argc), o))
    return rc;
  unsetenv("CUDA_INJECTION64_PATH"); // this process is not measured
  std::string why;
  if (!gpuAvailable(why)) {
    std::cerr << "kcheck-profile: error: " << why << '\n';
    return kNoGpu;
  }
  std::string lib = injectionLibrary();
  if (access(lib.c_str(), R_OK) != 0) {
    std::cerr << "kcheck-profile: error: cannot find the CUPTI runtime "
                 "library '"
              << lib << "' (set KCHECK_INJECTION_LIB)\n";
    return kNoGpu;
  }
  char dirTemplate[] = "/tmp/kcheck-profile.XXXXXX";
  if (!mkdtemp(dirTemplate)) {
    std::cerr << "kcheck-profile: error: cannot create a temporary folder\n";
    return kIncomplete;
  }
  std::string tmp = dirTemplate;
  const bool toStdout = o.output.empty();

  std::string launchesFile = tmp + "/launches.json";
  std::string ended = runOnce(o, lib, launchesFile, "launches", 0, toStdout);
  core::ReportLoadResult loaded = core::loadReportFile(launchesFile);
  if (!loaded.report) {
    std::cerr << "kcheck-profile: error: no measurement came back ("
              << (ended.empty() ? "the program made no CUDA call?" : ended)
              << "): " << loaded.error << '\n';
    return kIncomplete;
  }
  core::ReportFile report = std::move(*loaded.report);
  if (!ended.empty())
    report.errors.push_back(ended);
  report.file = o.file.empty() ? o.program[0] : o.file;
  if (hasEnvironmentFailure(report)) {
    for (const std::string &e : report.errors)
      std::cerr << "kcheck-profile: error: " << e << '\n';
    return kNoGpu;
  }
  remeasureBeforeFault(o, lib, tmp, toStdout, report);

  if (o.perLine)
    measureLines(o, lib, tmp, toStdout, report);

  return writeReport(o, report, launchesFile, toStdout);
}

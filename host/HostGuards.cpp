#include "host/HostGuards.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace kcheck::host {

namespace {

constexpr int kSignals[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

/// Writes `text` to stderr with async-signal-safe calls only.
void writeStderr(const char *text) {
  (void)!write(STDERR_FILENO, text, std::strlen(text));
}

/// Flushes what the program printed if nobody holds stdout's lock (the
/// program may be inside printf on the thread being abandoned).
void tryFlushStdout() {
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
}

void onCrash(int signal) {
  const char *name = signal == SIGSEGV  ? "SIGSEGV"
                     : signal == SIGBUS ? "SIGBUS"
                     : signal == SIGFPE ? "SIGFPE"
                                        : "SIGILL";
  writeStderr("\nkcheck: error: the program crashed (");
  writeStderr(name);
  writeStderr(") while kcheck ran its host code; a device pointer "
              "dereferenced on the host, or a bug in the program\n");
  _exit(3);
}

} // namespace

HostWatchdog::HostWatchdog(double budgetSeconds, const SimulationClock &clock)
    : budget_(budgetSeconds), clock_(clock),
      start_(std::chrono::steady_clock::now()), thread_([this] { watch(); }) {}

HostWatchdog::~HostWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

double HostWatchdog::hostSeconds() const {
  auto wall = std::chrono::steady_clock::now() - start_;
  return std::chrono::duration<double>(wall).count() -
         double(clock_.nanos.load()) * 1e-9;
}

void HostWatchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!done_) {
    wake_.wait_for(lock, std::chrono::milliseconds(50));
    if (done_ || clock_.running || hostSeconds() <= budget_)
      continue;
    tryFlushStdout();
    std::fprintf(stderr,
                 "\nkcheck: error: the program's host code ran longer than "
                 "its budget of %g s (--host-budget SECONDS; the simulation "
                 "of its launches does not count)\n",
                 budget_);
    _exit(3);
  }
}

CrashGuard::CrashGuard() : altStack_(256 * 1024) {
  stack_t stack{};
  stack.ss_sp = altStack_.data();
  stack.ss_size = altStack_.size();
  sigaltstack(&stack, &oldStack_);
  struct sigaction action {};
  action.sa_handler = onCrash;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 4; ++i)
    sigaction(kSignals[i], &action, &old_[i]);
}

CrashGuard::~CrashGuard() {
  for (int i = 0; i < 4; ++i)
    sigaction(kSignals[i], &old_[i], nullptr);
  sigaltstack(&oldStack_, nullptr);
}

StdoutToStderr::StdoutToStderr(bool active) {
  if (!active)
    return;
  std::fflush(stdout);
  saved_ = dup(STDOUT_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);
}

StdoutToStderr::~StdoutToStderr() {
  if (saved_ < 0)
    return;
  std::fflush(stdout);
  dup2(saved_, STDOUT_FILENO);
  close(saved_);
}

namespace {
bool heapZeroed = false; // host code runs on one thread at a time
void zeroHeap(bool on) {
#if defined(__GLIBC__)
  if (on != heapZeroed)
    mallopt(M_PERTURB, on ? 0xff : 0);
#endif
  heapZeroed = on;
}
} // namespace

ZeroedHeap::ZeroedHeap(bool zeroed) : was_(heapZeroed) { zeroHeap(zeroed); }
ZeroedHeap::~ZeroedHeap() { zeroHeap(was_); }

} // namespace kcheck::host

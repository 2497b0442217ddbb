// What keeps a run of untrusted host code from hanging or crashing kcheck
// silently: a watchdog for the host time budget, handlers for the signals a
// crash raises, and the redirection of the program's stdout. Each is scoped
// to one run (RAII) and restores what it changed.
#pragma once

#include "host/HostDevice.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <signal.h>
#include <thread>
#include <vector>

namespace kcheck::host {

/// Ends kcheck (message on stderr, exit status 3) when host code has run
/// longer than `budgetSeconds`, not counting the time spent simulating its
/// launches. Host code cannot be interrupted safely in the middle of a loop,
/// so the process ends there, from the watchdog's thread.
class HostWatchdog {
public:
  HostWatchdog(double budgetSeconds, const SimulationClock &clock);
  ~HostWatchdog();
  HostWatchdog(const HostWatchdog &) = delete;
  HostWatchdog &operator=(const HostWatchdog &) = delete;
  /// Seconds of host time so far.
  double hostSeconds() const;

private:
  void watch();
  double budget_;
  const SimulationClock &clock_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

/// While alive: a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) ends kcheck with a
/// message and exit status 3 instead of a core dump, stack overflows included
/// (the handler runs on its own stack).
class CrashGuard {
public:
  CrashGuard();
  ~CrashGuard();
  CrashGuard(const CrashGuard &) = delete;
  CrashGuard &operator=(const CrashGuard &) = delete;

private:
  std::vector<char> altStack_;
  stack_t oldStack_{};
  struct sigaction old_[4]{};
};

/// While alive (and `active`): file descriptor 1 is stderr's, so the
/// program's output does not mix with a report on stdout.
class StdoutToStderr {
public:
  explicit StdoutToStderr(bool active);
  ~StdoutToStderr();
  StdoutToStderr(const StdoutToStderr &) = delete;
  StdoutToStderr &operator=(const StdoutToStderr &) = delete;

private:
  int saved_ = -1;
};

/// While alive: memory host code takes from malloc reads as zeros until
/// written (`zeroed` true), as a fresh process's heap does (its pages come
/// zeroed from the kernel), not kcheck's leftovers; or not (false: kcheck's
/// own allocations, a launch's simulation, inside a run of host code). The
/// previous setting comes back at the end. A program that reads a buffer it
/// never cleared (HeCBench asmooth's reference adds into one) then computes
/// what it computed on the GPU's machine. glibc's M_PERTURB 0xff: blocks are
/// filled with 0xff ^ 0xff on malloc (and 0xff on free).
class ZeroedHeap {
public:
  explicit ZeroedHeap(bool zeroed);
  ~ZeroedHeap();
  ZeroedHeap(const ZeroedHeap &) = delete;
  ZeroedHeap &operator=(const ZeroedHeap &) = delete;

private:
  bool was_;
};

} // namespace kcheck::host

// kcheck's CUDA runtime, device graph launch (the Programming Guide's
// "Device Graph Launch"): graphs instantiated with
// cudaGraphInstantiateFlagDeviceLaunch and launched by a kernel of a graph.
// What the reference leaves open is the H200's with CUDA 13
// (tests/conformance/programs/graph_device_launch.cu, its probes in
// docs/validation/data/h200-graph_device_launch.txt):
// - a device graph holds kernel, memset, memcpy and child graph nodes only
//   (an empty node too is refused), its copies of device or pinned memory;
//   others fail instantiation with cudaGraphInstantiateNodeOperationNot-
//   Supported;
// - a fire-and-forget launch (and a sibling one) runs after the launching
//   kernel, before the launching graph's next node; a tail launch after the
//   launching graph's work; each in launch order;
// - a graph not uploaded is refused with cudaErrorInvalidValue; a graph
//   not instantiated for device launch and a stream other than the three
//   device graph streams are refused so too (not measured);
// - cudaGetCurrentGraphExec is the device graph that runs, 0 in a graph not
//   instantiated for device launch;
// - a kernel no graph launched that calls cudaGraphLaunch: the H200 stops
//   the calling thread there without an error; kcheck stops the kernel,
//   saying so.
#include "host/CudaGraph.h"

#include <algorithm>
#include <deque>

namespace kcheck::host::graph {

namespace {

// cuda_device_runtime_api.h's device graph streams.
constexpr uint64_t kTailLaunch = 0x0100000000000000ull;
constexpr uint64_t kFireAndForget = 0x0200000000000000ull;
constexpr uint64_t kFireAndForgetAsSibling = 0x0300000000000000ull;

bool pinnedOrDevice(const void *p) {
  CudaRuntime &r = entry::rt();
  return !p || r.device().memory().find(reinterpret_cast<uint64_t>(p), 1) ||
         r.isPinnedHost(p);
}

// The device runtime's view of the runtime's graph launches.
class RuntimeDeviceGraphs : public sim::DeviceGraphs {
public:
  uint64_t launch(uint64_t exec, uint64_t stream, uint32_t instId,
                  std::string &fault) override {
    State &st = state();
    if (st.frames.empty()) {
      fault = "cudaGraphLaunch by a kernel no graph launched: the H200 stops "
              "the calling thread there without an error, so kcheck stops "
              "the kernel";
      return 0;
    }
    Exec *e = execOf(reinterpret_cast<cudaGraphExec_t>(exec));
    if (!e || !e->deviceLaunch || !e->uploaded)
      return uint64_t(cudaErrorInvalidValue);
    State::Frame &f = st.frames.back();
    State::Launched l{e, entry::rt().device().originOfCall(instId)};
    if (l.origin)
      l.origin->graph = true;
    if (stream == kTailLaunch)
      f.tail.push_back(std::move(l));
    else if (stream == kFireAndForget || stream == kFireAndForgetAsSibling)
      f.fireAndForget.push_back(std::move(l));
    else
      return uint64_t(cudaErrorInvalidValue);
    return 0;
  }
  uint64_t current() override {
    const State &st = state();
    if (st.frames.empty() || !st.frames.back().exec->deviceLaunch)
      return 0;
    return reinterpret_cast<uint64_t>(st.frames.back().exec);
  }
  uint64_t setNodeParam(uint64_t node, uint64_t offset,
                        const std::vector<uint8_t> &bytes) override {
    Node *n = updatable(node);
    if (!n)
      return uint64_t(cudaErrorInvalidValue);
    KernelLaunch &k = n->work.kernel;
    // The parameters as the kernel lays them out; the update may span
    // several, none past the last.
    CudaRuntime &r = entry::rt();
    const std::string &name = r.kernels.at(k.func);
    uint64_t end = 0;
    std::vector<std::pair<uint64_t, uint64_t>> places;
    for (size_t i = 0; i < k.args.size(); ++i) {
      std::optional<std::pair<uint64_t, uint64_t>> p =
          r.device().parameter(name, i);
      if (!p)
        return uint64_t(cudaErrorInvalidValue);
      places.push_back(*p);
      end = std::max(end, p->first + p->second);
    }
    if (offset + bytes.size() > end)
      return uint64_t(cudaErrorInvalidValue);
    for (size_t i = 0; i < places.size(); ++i) {
      auto [at, size] = places[i];
      uint64_t from = std::max(at, offset),
               to = std::min(at + size, offset + bytes.size());
      for (uint64_t b = from; b < to && b - at < k.args[i].size(); ++b)
        k.args[i][b - at] = char(bytes[b - offset]);
    }
    return 0;
  }
  uint64_t setNodeGridDim(uint64_t node, core::Dim3 grid) override {
    Node *n = updatable(node);
    if (!n)
      return uint64_t(cudaErrorInvalidValue);
    n->work.kernel.grid = dim3(grid.x, grid.y, grid.z);
    return 0;
  }
  uint64_t setNodeEnabled(uint64_t node, bool enabled) override {
    Node *n = updatable(node);
    if (!n)
      return uint64_t(cudaErrorInvalidValue);
    n->enabled = enabled;
    return 0;
  }

private:
  // The one instantiation's copy of device-updatable node `handle` (the
  // graph's node), or null.
  static Node *updatable(uint64_t handle) {
    const Node *original = reinterpret_cast<const Node *>(handle);
    for (const auto &[p, e] : state().execs) {
      auto it = e->nodeOf.find(original);
      if (it != e->nodeOf.end() &&
          it->second->work.type == cudaGraphNodeTypeKernel &&
          it->second->work.kernel.deviceUpdatable)
        return it->second;
    }
    return nullptr;
  }
};

} // namespace

bool hasDeviceUpdatable(const Graph &g) {
  return anyNode(g, [](const Node &n) {
    return n.work.type == cudaGraphNodeTypeKernel &&
           n.work.kernel.deviceUpdatable;
  });
}

bool deviceLaunchable(const Graph &g) {
  for (const auto &n : g.nodes) {
    const Work &w = n->work;
    switch (w.type) {
    case cudaGraphNodeTypeKernel:
    case cudaGraphNodeTypeMemset:
      break;
    case cudaGraphNodeTypeMemcpy:
      if (w.copy.srcArray || w.copy.dstArray ||
          !pinnedOrDevice(w.copy.srcPtr.ptr) ||
          !pinnedOrDevice(w.copy.dstPtr.ptr))
        return false;
      break;
    case cudaGraphNodeTypeGraph:
      if (!deviceLaunchable(*w.child))
        return false;
      break;
    default:
      return false;
    }
  }
  return true;
}

namespace {

// Runs `e`'s graph once; `tails` gets the graphs its kernels tail-launched.
cudaError_t runOnce(Exec &e,
                    const std::optional<core::DeviceLaunchOrigin> &origin,
                    std::vector<State::Launched> &tails) {
  State &st = state();
  st.frames.push_back({&e, origin, {}, {}});
  cudaError_t err = runWithConditionals(*e.graph);
  tails = std::move(st.frames.back().tail);
  st.frames.pop_back();
  return err;
}

} // namespace

cudaError_t runExec(Exec &e,
                    const std::optional<core::DeviceLaunchOrigin> &origin) {
  // A tail launch runs after the graph that made it, and its own tail
  // launches after it, before that graph's next one: a queue, not nested
  // calls, so a graph that relaunches itself runs in constant stack until
  // a budget stops it.
  std::vector<State::Launched> tails;
  cudaError_t err = runOnce(e, origin, tails);
  std::deque<State::Launched> queue(tails.begin(), tails.end());
  while (!err && !queue.empty()) {
    State::Launched next = queue.front();
    queue.pop_front();
    err = runOnce(*next.exec, next.origin, tails);
    queue.insert(queue.begin(), tails.begin(), tails.end());
  }
  return err;
}

cudaError_t runFireAndForget() {
  State &st = state();
  if (st.frames.empty())
    return cudaSuccess;
  std::vector<State::Launched> launched;
  launched.swap(st.frames.back().fireAndForget);
  for (const State::Launched &l : launched)
    if (cudaError_t err = runExec(*l.exec, l.origin))
      return err;
  return cudaSuccess;
}

std::optional<core::DeviceLaunchOrigin> runningOrigin() {
  const State &st = state();
  return st.frames.empty() ? std::nullopt : st.frames.back().origin;
}

} // namespace kcheck::host::graph

namespace kcheck::host {

std::unique_ptr<sim::DeviceGraphs> makeDeviceGraphs() {
  return std::make_unique<graph::RuntimeDeviceGraphs>();
}

} // namespace kcheck::host

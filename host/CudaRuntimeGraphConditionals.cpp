// kcheck's CUDA runtime, conditional graph nodes (if/else, while, switch):
// their handles, their bodies, what instantiation refuses, and how a launch
// runs them. The rules are the Runtime API reference's
// (cudaGraphConditionalHandleCreate, cudaConditionalNodeParams,
// cudaGraphNodeTypeConditional); where it leaves the answer open, the H200's
// with CUDA 13 (tests/conformance/programs/graph_conditionals.cu, its probes
// in docs/validation/data/h200-graph_conditionals.txt):
// - every malformed handle or node (flags past cudaGraphCondAssignDefault, a
//   size the type does not take, a handle of another graph) is an invalid
//   value; a body takes any node, and instantiation refuses the kinds the
//   reference does not allow in one (invalid value);
// - a handle no node uses fails instantiation with
//   cudaGraphInstantiateConditionalHandleUnused; cloning such a graph, using
//   it as a child and instantiating it twice (CudaRuntimeGraphExec.cpp) are
//   not supported;
// - without cudaGraphCondAssignDefault a handle's value carries over from
//   one launch to the next; its first value is 0 in a fresh context (the
//   H200 gives a value left by an earlier graph where the driver reuses the
//   slot: kcheck notes the read as undefined).
#include "host/CudaGraph.h"

#include <algorithm>
#include <functional>

namespace kcheck::host::graph {

namespace {

// Each conditional node's handle in `g` and in every graph it holds.
void handlesIn(const Graph &g, std::set<cudaGraphConditionalHandle> &out) {
  for (const auto &n : g.nodes) {
    if (n->work.type == cudaGraphNodeTypeConditional)
      out.insert(n->work.conditional);
    for (const Graph *s : n->work.subgraphs())
      handlesIn(*s, out);
  }
}

// The node types a body may hold, in itself and in its child graphs and
// nested bodies (cudaConditionalNodeParams::phGraph_out).
bool allowedInBody(const Graph &g) {
  return !anyNode(g, [](const Node &n) {
    switch (n.work.type) {
    case cudaGraphNodeTypeKernel:
    case cudaGraphNodeTypeEmpty:
    case cudaGraphNodeTypeGraph:
    case cudaGraphNodeTypeMemset:
    case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeConditional:
      return false;
    default:
      return true;
    }
  });
}

// Every body of every conditional node in `g` (nested ones included).
bool bodiesAllowed(const Graph &g) {
  return !anyNode(g, [](const Node &n) {
    return std::any_of(n.work.bodies.begin(), n.work.bodies.end(),
                       [](const auto &b) { return !allowedInBody(*b); });
  });
}

sim::GraphConditionals &running() {
  return entry::rt().device().graphConditionals();
}

} // namespace

std::optional<Work> conditionalWork(const Graph &g,
                                    const cudaConditionalNodeParams &p,
                                    cudaError_t &error) {
  error = cudaErrorInvalidValue;
  auto it = state().conditionals.find(p.handle);
  if (it == state().conditionals.end())
    return std::nullopt;
  // The node is in the handle's graph or in a graph it holds.
  const Graph *in = &g;
  while (in && in != it->second.graph)
    in = in->parent ? in->parent->graph : nullptr;
  if (!in)
    return std::nullopt;
  bool sizeTaken = p.type == cudaGraphCondTypeIf ? p.size == 1 || p.size == 2
                   : p.type == cudaGraphCondTypeWhile  ? p.size == 1
                   : p.type == cudaGraphCondTypeSwitch ? p.size >= 1
                                                       : false;
  if (!sizeTaken)
    return std::nullopt;
  Work w;
  w.type = cudaGraphNodeTypeConditional;
  w.conditional = p.handle;
  w.conditionalType = p.type;
  for (unsigned i = 0; i < p.size; ++i) {
    w.bodies.push_back(std::make_unique<Graph>());
    w.bodyHandles.push_back(handle(w.bodies.back().get()));
  }
  return w;
}

bool hasConditionals(const Graph &g) {
  return anyNode(g, [](const Node &n) {
    return n.work.type == cudaGraphNodeTypeConditional;
  });
}

cudaError_t conditionalRefusal(const Graph &g,
                               cudaGraphInstantiateResult &result) {
  result = cudaGraphInstantiateError;
  if (!bodiesAllowed(g))
    return cudaErrorInvalidValue;
  std::set<cudaGraphConditionalHandle> used;
  handlesIn(g, used);
  for (const auto &[h, c] : state().conditionals)
    if (c.graph == &g && !used.count(h)) {
      result = cudaGraphInstantiateConditionalHandleUnused;
      return cudaErrorInvalidValue;
    }
  return cudaSuccess;
}

cudaError_t runConditional(const Work &w) {
  auto &values = running().values;
  // Armed by runWithConditionals for every handle the launch's graph uses.
  sim::GraphConditionals::Value &v = values[w.conditional];
  auto read = [&] {
    if (!v.defined) {
      char name[32];
      std::snprintf(name, sizeof name, "%llu", w.conditional);
      entry::rt().noteOnce(
          std::string("a conditional node read handle ") + name +
          " before anything set it (made without cudaGraphCondAssignDefault, "
          "and no kernel set it first): its value is undefined on the GPU "
          "(kcheck reads 0, as a fresh context gives; the H200 may give what "
          "an earlier graph left)");
      v.defined = true;
    }
    return v.value;
  };
  switch (w.conditionalType) {
  case cudaGraphCondTypeIf:
    if (read())
      return run(*w.bodies[0]);
    return w.bodies.size() == 2 ? run(*w.bodies[1]) : cudaSuccess;
  case cudaGraphCondTypeWhile:
    // Tested before each iteration: a body that never clears it loops, as
    // the GPU does, until the host budget stops the run.
    while (read())
      if (cudaError_t e = run(*w.bodies[0]))
        return e;
    return cudaSuccess;
  case cudaGraphCondTypeSwitch: {
    uint32_t n = read();
    return n < w.bodies.size() ? run(*w.bodies[n]) : cudaSuccess;
  }
  }
  return cudaSuccess;
}

cudaError_t runWithConditionals(const Graph &g) {
  std::set<cudaGraphConditionalHandle> handles;
  handlesIn(g, handles);
  auto &values = running().values;
  for (cudaGraphConditionalHandle h : handles) {
    auto it = state().conditionals.find(h);
    if (it == state().conditionals.end()) { // its graph was destroyed
      values[h] = {};
      continue;
    }
    const State::Conditional &c = it->second;
    values[h] = c.assignDefault
                    ? sim::GraphConditionals::Value{c.defaultValue, true}
                    : sim::GraphConditionals::Value{c.value, c.set};
  }
  cudaError_t e = run(g);
  for (cudaGraphConditionalHandle h : handles) {
    auto it = state().conditionals.find(h);
    if (it != state().conditionals.end())
      it->second.value = values[h].value, it->second.set = values[h].defined;
    values.erase(h);
  }
  return e;
}

} // namespace kcheck::host::graph

namespace kcheck::host::entry {

namespace {

using namespace graph;

cudaError_t apiGraphConditionalHandleCreate(cudaGraphConditionalHandle *out,
                                            cudaGraph_t graph,
                                            unsigned defaultValue,
                                            unsigned flags) {
  Graph *g = graphOf(graph);
  if (!out || !g || (flags & ~unsigned(cudaGraphCondAssignDefault)))
    return fail(cudaErrorInvalidValue);
  State &st = state();
  State::Conditional c;
  c.graph = g;
  c.defaultValue = defaultValue;
  c.assignDefault = flags & cudaGraphCondAssignDefault;
  *out = st.nextConditional++;
  st.conditionals[*out] = c;
  return cudaSuccess;
}

} // namespace

EntryPoints graphConditionalEntryPoints() {
  return {
      {"cudaGraphConditionalHandleCreate",
       serialized<apiGraphConditionalHandleCreate>()},
  };
}

} // namespace kcheck::host::entry

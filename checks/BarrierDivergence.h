// [barrier-divergence]: a __syncthreads() (or cg block sync) that some of a
// block's live threads reached while others left or took another path, as
// the simulation ran it: undefined behaviour on a GPU.
#pragma once

#include "core/Diagnostic.h"
#include "driver/Session.h"

#include <vector>

namespace kcheck::checks {

/// One error per barrier, with a note per launch naming the first warp's
/// threads that did not arrive.
std::vector<core::Diagnostic>
barrierDivergenceDiagnostics(const driver::Session &session);

} // namespace kcheck::checks

// The toolkit's libdevice (nvvm/libdevice/libdevice.10.bc) linked into a
// device module, as Clang links it without -nocudalib, but only for the
// __nv_* functions the caller does not keep declared: the engine executes the
// common math functions itself and needs libdevice's IR for the rest
// (__nv_byte_perm, __nv_isinff, __nv_ffs, erfinv, ...).
#pragma once

#include "analyzer/toolchain/CudaToolkit.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>

namespace llvm {
class Module;
}

namespace kcheck::analyzer {

std::string libdevicePath(const CudaToolkit &toolkit);

// Links the definitions of the declared __nv_* functions of `module` for
// which `keep` is false; they become internal and always inlined. Returns
// an error message, or "" (also when there is nothing to link).
std::string linkLibdevice(llvm::Module &module, const std::string &path,
                          const std::function<bool(llvm::StringRef)> &keep);

} // namespace kcheck::analyzer

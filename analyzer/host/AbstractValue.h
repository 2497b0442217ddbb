// The static host evaluator's values (HostEvaluator.h): what an expression
// evaluates to (a scalar, a dim3, the address of store slots, an object's
// leaves, a function, a lambda's frame, a std::vector's size...), where a
// value lives (LValue), and how a statement ends (Flow).
#pragma once

#include "analyzer/host/LaunchExtractor.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace kcheck::analyzer {

// A value as the evaluator sees it: a scalar, a dim3, or the address of slots.
struct AbstractValue {
  HostValue scalar;
  std::optional<std::array<HostValue, 3>> dim; // dim3 / uint3 objects
  int slotRef = -1;  // pointer to store slot(s): `&x`, an array's elements
  int slotCount = 0; // slots from slotRef to the end of the array
  bool deviceProps = false; // a cudaDeviceProp filled by the device query
  const clang::FunctionDecl *function = nullptr; // a function (pointer)
  // A cudaFuncAttributes that cudaFuncGetAttributes filled for this kernel.
  const clang::FunctionDecl *funcAttributes = nullptr;
  // A struct or array value (a copy, a returned object): its leaves.
  std::shared_ptr<const std::vector<AbstractValue>> leaves;
  // The characters of a string literal, or of a std::string made from one.
  std::shared_ptr<const std::string> text;
  // A lambda: the serial of the frame it was made in, whose variables its
  // body sees (its captures).
  uint64_t closure = 0;
  // A std::optional: empty, or engaged with `scalar` (Unknown: not known).
  enum class Optional : uint8_t {
    Unknown,
    Empty,
    Engaged
  } optional = Optional::Unknown;
  // A std::vector of this many elements (-1: not one, or not known); its
  // elements' leaves are the slots from slotRef when tracked, slotCount of
  // them its capacity (HostEvaluatorVector.cpp).
  int64_t vectorSize = -1;

  static AbstractValue of(HostValue v) {
    AbstractValue a;
    a.scalar = std::move(v);
    return a;
  }
  static AbstractValue unknown(std::string why) {
    return of(HostValue::unknown(std::move(why)));
  }
  static AbstractValue object(std::vector<AbstractValue> parts) {
    AbstractValue a;
    a.leaves =
        std::make_shared<const std::vector<AbstractValue>>(std::move(parts));
    return a;
  }
  bool same(const AbstractValue &o) const;
  // The first reason this value (or one of its dim3 parts) is unknown, or "".
  std::string why() const;
};

// Where a value lives: a slot, optionally one dim3 component of it.
struct LValue {
  int slot = -1;
  int field = -1; // 0..2: .x/.y/.z of a dim3
  int count = 1;  // array: number of slots
  int leaves = 0; // a struct or array object: its slots (0: a scalar)
  bool valid() const { return slot >= 0; }
};

enum class Flow { Normal, Break, Continue, Return, Exit, Unknown };

} // namespace kcheck::analyzer

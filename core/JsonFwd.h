// The name of kcheck's JSON value, for headers that only pass values around;
// core/Json.h has the library and kcheck's conventions.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace kcheck::core {

using Json = nlohmann::ordered_json;

} // namespace kcheck::core

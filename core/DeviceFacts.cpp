#include "core/DeviceFacts.h"

namespace kcheck::core {

DeviceFacts deviceFacts(const ArchSpec &a) {
  DeviceFacts f;
  static_cast<DeviceLimits &>(f) = a.limits;
  f.warpSize = int(a.warpSize);
  f.smCount = int(a.smCount);
  f.maxThreadsPerSM = int(a.maxThreadsPerSM);
  f.major = int(a.major);
  f.minor = int(a.minor);
  f.integrated = a.part == PartKind::Integrated;
  f.datacenter = a.part == PartKind::Datacenter;
  return f;
}

const std::vector<DeviceAttribute> &deviceAttributes() {
  static const std::vector<DeviceAttribute> rows = {
#define KCHECK_DEVICE_ATTRIBUTE(NUMBER, RUNTIME, DRIVER, VALUE)                \
  {NUMBER, #RUNTIME, #DRIVER},
#include "core/DeviceAttributes.def"
#undef KCHECK_DEVICE_ATTRIBUTE
  };
  return rows;
}

std::optional<int64_t> deviceAttributeValue(const ArchSpec &arch, int number) {
  const DeviceFacts f = deviceFacts(arch);
  switch (number) {
#define KCHECK_DEVICE_ATTRIBUTE(NUMBER, RUNTIME, DRIVER, VALUE)                \
  case NUMBER:                                                                 \
    return int64_t(VALUE);
#include "core/DeviceAttributes.def"
#undef KCHECK_DEVICE_ATTRIBUTE
  }
  return std::nullopt;
}

const std::vector<DeviceProperty> &deviceProperties() {
  using K = DeviceProperty::Kind;
  static const std::vector<DeviceProperty> rows = {
#define KCHECK_DEVICE_PROPERTY(FIELD, ATTRIBUTE)                               \
  {#FIELD, K::Attribute, ATTRIBUTE},
#define KCHECK_DEVICE_PROPERTY_VALUE(FIELD, VALUE) {#FIELD, K::Value, 0},
#define KCHECK_DEVICE_PROPERTY_NAME(FIELD) {#FIELD, K::Name, 0},
#define KCHECK_DEVICE_PROPERTY_ZEROED(FIELD) {#FIELD, K::Zeroed, 0},
#include "core/DeviceProperties.def"
#undef KCHECK_DEVICE_PROPERTY
#undef KCHECK_DEVICE_PROPERTY_VALUE
#undef KCHECK_DEVICE_PROPERTY_NAME
#undef KCHECK_DEVICE_PROPERTY_ZEROED
  };
  return rows;
}

std::optional<int64_t> devicePropertyValue(const ArchSpec &arch,
                                           const DeviceProperty &p) {
  switch (p.kind) {
  case DeviceProperty::Kind::Attribute:
    return deviceAttributeValue(arch, p.attribute);
  case DeviceProperty::Kind::Value: {
    const DeviceFacts f = deviceFacts(arch);
#define KCHECK_DEVICE_PROPERTY(FIELD, ATTRIBUTE)
#define KCHECK_DEVICE_PROPERTY_VALUE(FIELD, VALUE)                             \
  if (p.field == #FIELD)                                                       \
    return int64_t(VALUE);
#define KCHECK_DEVICE_PROPERTY_NAME(FIELD)
#define KCHECK_DEVICE_PROPERTY_ZEROED(FIELD)
#include "core/DeviceProperties.def"
#undef KCHECK_DEVICE_PROPERTY
#undef KCHECK_DEVICE_PROPERTY_VALUE
#undef KCHECK_DEVICE_PROPERTY_NAME
#undef KCHECK_DEVICE_PROPERTY_ZEROED
    (void)f; // read only by the VALUE rows
    return std::nullopt;
  }
  case DeviceProperty::Kind::Name:
  case DeviceProperty::Kind::Zeroed:
    return std::nullopt;
  }
  return std::nullopt;
}

std::vector<DeviceFactEntry> deviceFactTable(const ArchSpec &arch) {
  std::vector<DeviceFactEntry> table;
  std::vector<bool> underField(size_t(deviceAttributes().back().number) + 1,
                               false); // by attribute number, rows ascending
  for (const DeviceProperty &p : deviceProperties()) {
    std::optional<int64_t> v = devicePropertyValue(arch, p);
    if (!v)
      continue;
    std::string_view attribute;
    if (p.kind == DeviceProperty::Kind::Attribute) {
      for (const DeviceAttribute &a : deviceAttributes())
        if (a.number == p.attribute)
          attribute = a.runtimeName;
      underField[size_t(p.attribute)] = true;
    }
    table.push_back({p.field, attribute, *v});
  }
  // The attributes no field carries (and the second name of one a field
  // carries twice, such as maxThreadsDim[0] and maxThreadsPerBlock).
  for (const DeviceAttribute &a : deviceAttributes())
    if (!a.runtimeName.empty() && !underField[size_t(a.number)])
      table.push_back(
          {"", a.runtimeName, *deviceAttributeValue(arch, a.number)});
  return table;
}

std::optional<int64_t> deviceFact(const ArchSpec &arch, std::string_view name) {
  if (arch.smCount == 0 && (name == "multiProcessorCount" ||
                            name == "cudaDevAttrMultiProcessorCount"))
    return std::nullopt; // ArchSpec does not know this generation's count
  for (const DeviceProperty &p : deviceProperties())
    if (p.field == name)
      return devicePropertyValue(arch, p);
  for (const DeviceAttribute &a : deviceAttributes())
    if (a.runtimeName == name)
      return deviceAttributeValue(arch, a.number);
  return std::nullopt;
}

} // namespace kcheck::core

// The steps both CUPTI sessions begin with (CuptiSessions.h).
#include "runtime/CuptiSessions.h"

namespace kcheck::runtime {

bool CuptiSession::deviceSupports(CUdevice dev, CUpti_Profiler_API api,
                                  const char *why) {
  auto sup = params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  sup.cuDevice = dev;
  sup.api = api;
  KCHECK_CUPTI(cuptiProfilerDeviceSupported(&sup));
  if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    error = std::string(kNoProfilingMarker) + ": " + why;
    environmentFailure = true;
    return false;
  }
  return true;
}

bool CuptiSession::chipName(CUdevice dev, const char *&name) {
  auto chip = params<CUpti_Device_GetChipName_Params>(
      CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = size_t(dev);
  KCHECK_CUPTI(cuptiDeviceGetChipName(&chip));
  name = chip.pChipName;
  return true;
}

} // namespace kcheck::runtime

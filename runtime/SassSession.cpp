// The CUPTI SASS Metrics API: per-PC values of one launch.
#include "runtime/CuptiSessions.h"

#include <cstdlib>

namespace kcheck::runtime {

bool SassSession::enable(CUcontext ctx, CUdevice dev) {
  ctx_ = ctx;
  const char *chip = nullptr;
  if (!deviceSupports(dev, CUPTI_PROFILER_SASS_METRICS,
                      "this device does not support the CUPTI SASS Metrics "
                      "API") ||
      !chipName(dev, chip))
    return false;
  std::vector<CUpti_SassMetrics_Config> configs;
  for (const std::string &m : sassPerPcMetrics()) {
    auto p = params<CUpti_SassMetrics_GetProperties_Params>(
        CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
    p.pChipName = chip;
    p.pMetricName = m.c_str();
    KCHECK_CUPTI(cuptiSassMetricsGetProperties(&p));
    // GPU granularity: per-SM instance values were not trustworthy (§3.1).
    configs.push_back({p.metric.metricId,
                       uint8_t(CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU)});
    ids_[p.metric.metricId] = m;
  }
  auto set = params<CUpti_SassMetricsSetConfig_Params>(
      CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
  set.numOfMetricConfig = configs.size();
  set.pConfigs = configs.data();
  set.deviceIndex = uint32_t(dev);
  KCHECK_CUPTI(cuptiSassMetricsSetConfig(&set));
  auto en = params<CUpti_SassMetricsEnable_Params>(
      CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
  en.ctx = ctx;
  en.enableLazyPatching = 1;
  KCHECK_CUPTI(cuptiSassMetricsEnable(&en));
  return true;
}

bool SassSession::flush(std::vector<SassPcRecord> &out) {
  auto props = params<CUpti_SassMetricsGetDataProperties_Params>(
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
  props.ctx = ctx_;
  KCHECK_CUPTI(cuptiSassMetricsGetDataProperties(&props));
  if (props.numOfPatchedInstructionRecords == 0) {
    error = "the SASS Metrics API returned no records for this launch";
    return false;
  }
  std::vector<CUpti_SassMetrics_Data> data(
      props.numOfPatchedInstructionRecords);
  std::vector<CUpti_SassMetrics_InstanceValue> values(
      props.numOfPatchedInstructionRecords * props.numOfInstances);
  for (size_t i = 0; i < data.size(); ++i) {
    data[i].structSize = sizeof(CUpti_SassMetrics_Data);
    data[i].pInstanceValues = &values[i * props.numOfInstances];
  }
  auto fl = params<CUpti_SassMetricsFlushData_Params>(
      CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
  fl.ctx = ctx_;
  fl.numOfPatchedInstructionRecords = data.size();
  fl.numOfInstances = props.numOfInstances;
  fl.pMetricsData = data.data();
  KCHECK_CUPTI(cuptiSassMetricsFlushData(&fl));
  for (CUpti_SassMetrics_Data &d : data) {
    SassPcRecord r;
    r.cubinCrc = d.cubinCrc;
    r.function = d.functionName ? d.functionName : "";
    r.pcOffset = d.pcOffset;
    for (size_t k = 0; k < props.numOfInstances; ++k) {
      auto it = ids_.find(d.pInstanceValues[k].metricId);
      if (it != ids_.end())
        r.values.emplace_back(it->second, d.pInstanceValues[k].value);
    }
    std::free(const_cast<char *>(d.functionName)); // the caller frees it
    out.push_back(std::move(r));
  }
  auto dis = params<CUpti_SassMetricsDisable_Params>(
      CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
  dis.ctx = ctx_;
  KCHECK_CUPTI(cuptiSassMetricsDisable(&dis));
  if (dis.numOfDroppedRecords != 0) {
    error = std::to_string(dis.numOfDroppedRecords) +
            " SASS metric records were dropped";
    return false;
  }
  return true;
}

} // namespace kcheck::runtime

// The CUPTI Range Profiler with the Profiler Host API: one range per launch
// (AutoRange, KernelReplay), read in batches.
#include "runtime/CuptiSessions.h"

namespace kcheck::runtime {

bool RangeSession::setUp(CUcontext ctx, CUdevice dev,
                         const std::vector<std::string> &metricNames,
                         size_t batch) {
  for (const std::string &m : metricNames)
    metricPtrs_.push_back(m.c_str());
  batch_ = batch;
  const char *chip = nullptr;
  if (!deviceSupports(dev, CUPTI_PROFILER_RANGE_PROFILING,
                      "this device/configuration does not support the CUPTI "
                      "Range Profiler (architecture, vGPU, SLI, confidential "
                      "compute, WSL or a CMP part)") ||
      !chipName(dev, chip))
    return false;
  auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx;
  KCHECK_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  availability_.resize(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability_.data();
  KCHECK_CUPTI(cuptiProfilerGetCounterAvailability(&avail));

  auto host = params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip;
  host.pCounterAvailabilityImage = availability_.data();
  KCHECK_CUPTI(cuptiProfilerHostInitialize(&host));
  host_ = host.pHostObject;
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host_;
  add.ppMetricNames = metricPtrs_.data();
  add.numMetrics = metricPtrs_.size();
  KCHECK_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = host_;
  KCHECK_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
  config_.resize(size.configImageSize);
  auto image = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = host_;
  image.configImageSize = config_.size();
  image.pConfigImage = config_.data();
  KCHECK_CUPTI(cuptiProfilerHostGetConfigImage(&image));
  auto np = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  np.configImageSize = config_.size();
  np.pConfigImage = config_.data();
  KCHECK_CUPTI(cuptiProfilerHostGetNumOfPasses(&np));
  passes = np.numOfPasses;

  auto en = params<CUpti_RangeProfiler_Enable_Params>(
      CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  en.ctx = ctx;
  KCHECK_CUPTI(cuptiRangeProfilerEnable(&en));
  profiler_ = en.pRangeProfilerObject;
  auto cds = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  cds.pRangeProfilerObject = profiler_;
  cds.pMetricNames = metricPtrs_.data();
  cds.numMetrics = metricPtrs_.size();
  cds.maxNumOfRanges = batch_;
  cds.maxNumRangeTreeNodes = uint32_t(batch_);
  KCHECK_CUPTI(cuptiRangeProfilerGetCounterDataSize(&cds));
  counterData_.resize(cds.counterDataSize);
  return configure();
}

bool RangeSession::begin() {
  if (started_)
    return true;
  auto st = params<CUpti_RangeProfiler_Start_Params>(
      CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  st.pRangeProfilerObject = profiler_;
  KCHECK_CUPTI(cuptiRangeProfilerStart(&st));
  started_ = true;
  return true;
}

bool RangeSession::collectBeforeFault(
    int faulted, std::vector<std::pair<int, std::vector<double>>> &values) {
  std::erase(owners_, faulted);
  return decode(values, /*afterFault=*/true);
}

bool RangeSession::decode(
    std::vector<std::pair<int, std::vector<double>>> &values, bool afterFault) {
  std::vector<int> owners;
  owners.swap(owners_);
  if (started_) {
    auto sp = params<CUpti_RangeProfiler_Stop_Params>(
        CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    sp.pRangeProfilerObject = profiler_;
    started_ = false;
    KCHECK_CUPTI(cuptiRangeProfilerStop(&sp));
  }
  auto dec = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  dec.pRangeProfilerObject = profiler_;
  KCHECK_CUPTI(cuptiRangeProfilerDecodeData(&dec));
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counterData_.data();
  info.counterDataImageSize = counterData_.size();
  KCHECK_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  bool rangesMatch = afterFault ? info.numTotalRanges >= owners.size()
                                : info.numTotalRanges == owners.size();
  if (dec.numOfRangeDropped != 0 || !rangesMatch) {
    error = "CUPTI returned " + std::to_string(info.numTotalRanges) +
            " ranges (" + std::to_string(dec.numOfRangeDropped) +
            " dropped) for " + std::to_string(owners.size()) +
            " launches; their counters cannot be attributed";
    if (!afterFault)
      configure();
    return false;
  }
  for (size_t r = 0; r < owners.size(); ++r) {
    std::vector<double> v(metricPtrs_.size());
    auto ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = host_;
    ev.pCounterDataImage = counterData_.data();
    ev.counterDataImageSize = counterData_.size();
    ev.rangeIndex = r;
    ev.ppMetricNames = metricPtrs_.data();
    ev.numMetrics = metricPtrs_.size();
    ev.pMetricValues = v.data();
    KCHECK_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev));
    values.emplace_back(owners[r], std::move(v));
  }
  return afterFault || configure();
}

bool RangeSession::configure() {
  auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = profiler_;
  init.counterDataSize = counterData_.size();
  init.pCounterData = counterData_.data();
  KCHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&init));
  auto set = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = profiler_;
  set.configSize = config_.size();
  set.pConfig = config_.data();
  set.counterDataImageSize = counterData_.size();
  set.pCounterDataImage = counterData_.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_KernelReplay;
  set.maxRangesPerPass = batch_;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  KCHECK_CUPTI(cuptiRangeProfilerSetConfig(&set));
  return true;
}

} // namespace kcheck::runtime

// kcheck's CUDA runtime, streams: their properties and attributes, host
// functions and callbacks. Work on a stream has completed when the call that
// queued it returns (CudaRuntime.h), so a stream is its properties (and,
// while it captures, its capture: CudaRuntimeCapture.cpp).
#include "host/CudaGraph.h"

#include <algorithm>
#include <cstring>

namespace kcheck::host::entry {

CudaRuntime::Stream *streamOf(cudaStream_t stream) {
  for (CudaRuntime::Stream &s : rt().streams)
    if (reinterpret_cast<cudaStream_t>(&s) == stream)
      return &s;
  return nullptr;
}

cudaError_t createStream(cudaStream_t *stream, unsigned flags, int priority) {
  if (!stream || (flags & ~1u)) // cudaStreamNonBlocking only
    return fail(cudaErrorInvalidValue);
  CudaRuntime &r = rt();
  CudaRuntime::Stream s;
  s.flags = flags;
  s.priority = std::min(0, std::max(-5, priority)); // clamped to the range
  s.id = r.nextStreamId++;
  r.streams.push_back(s);
  *stream = reinterpret_cast<cudaStream_t>(&r.streams.back());
  return cudaSuccess;
}

namespace {

cudaError_t apiStreamCreateWithPriority(cudaStream_t *stream, unsigned flags,
                                        int priority) {
  return createStream(stream, flags, priority);
}
// The NULL, legacy and per-thread streams: priority 0, flags 0, device 0.
cudaError_t apiStreamGetPriority(cudaStream_t stream, int *priority) {
  if (!priority)
    return fail(cudaErrorInvalidValue);
  CudaRuntime::Stream *s = streamOf(stream);
  *priority = s ? s->priority : 0;
  return cudaSuccess;
}
cudaError_t apiStreamGetFlags(cudaStream_t stream, unsigned *flags) {
  if (!flags)
    return fail(cudaErrorInvalidValue);
  CudaRuntime::Stream *s = streamOf(stream);
  *flags = s ? s->flags : 0;
  return cudaSuccess;
}
cudaError_t apiStreamGetDevice(cudaStream_t, int *device) {
  if (!device)
    return fail(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t apiStreamGetId(cudaStream_t stream, unsigned long long *id) {
  if (!id)
    return fail(cudaErrorInvalidValue);
  CudaRuntime::Stream *s = streamOf(stream);
  *id = s ? s->id
        : reinterpret_cast<uintptr_t>(stream) <= 2
            ? reinterpret_cast<uintptr_t>(stream)
            : 0;
  return cudaSuccess;
}

// Work on a stream has completed when the call that queued it returns, so a
// host function runs at once, in order after everything queued before it.
using HostFunction = void (*)(void *);
using StreamCallback = void (*)(cudaStream_t, cudaError_t, void *);
cudaError_t apiLaunchHostFunc(cudaStream_t stream, HostFunction fn,
                              void *data) {
  if (cudaError_t e = sticky())
    return e;
  if (!fn)
    return fail(cudaErrorInvalidValue);
  if (capturing(stream)) // a host node
    return capture(stream, graph::hostWork(fn, data));
  fn(data);
  return cudaSuccess;
}
cudaError_t apiStreamAddCallback(cudaStream_t stream, StreamCallback callback,
                                 void *data, unsigned flags) {
  if (!callback || flags != 0)
    return fail(cudaErrorInvalidValue);
  // The callback is told the stream's status: a fault's error, if any.
  callback(stream, cudaError_t(rt().stickyError), data);
  return sticky();
}

// Stream attributes: cudaLaunchAttributeValue is a 64-byte union; a stream
// keeps what was set, and answers its priority for cudaLaunchAttributePriority
// and zeros for what was never set (no access-policy window, the default
// synchronization policy and memory-synchronization domain).
constexpr int kPriorityAttribute = 8;
bool streamAttribute(int id) {
  // AccessPolicyWindow, SynchronizationPolicy, Priority, MemSyncDomainMap,
  // MemSyncDomain, NvlinkUtilCentricScheduling: "valid for streams".
  return id == 1 || id == 3 || id == 8 || id == 9 || id == 10 || id == 16;
}
cudaError_t apiStreamGetAttribute(cudaStream_t stream, int id, void *value) {
  if (!value || !streamAttribute(id))
    return fail(cudaErrorInvalidValue);
  CudaRuntime::Stream *s = streamOf(stream);
  std::memset(value, 0, CudaRuntime::kAttributeBytes);
  if (id == kPriorityAttribute) {
    int priority = s ? s->priority : 0;
    std::memcpy(value, &priority, sizeof priority);
  } else if (s) {
    auto it = s->attributes.find(id);
    if (it != s->attributes.end())
      std::memcpy(value, it->second.data(), it->second.size());
  }
  return cudaSuccess;
}
cudaError_t apiStreamSetAttribute(cudaStream_t stream, int id,
                                  const void *value) {
  if (!value || !streamAttribute(id))
    return fail(cudaErrorInvalidValue);
  CudaRuntime::Stream *s = streamOf(stream);
  if (!s) // the NULL stream's attributes are the context's: kept nowhere
    return cudaSuccess;
  if (id == kPriorityAttribute) {
    int priority;
    std::memcpy(&priority, value, sizeof priority);
    s->priority = std::min(0, std::max(-5, priority));
    return cudaSuccess;
  }
  auto &bytes = s->attributes[id];
  std::memcpy(bytes.data(), value, bytes.size());
  return cudaSuccess;
}
cudaError_t apiStreamCopyAttributes(cudaStream_t dst, cudaStream_t src) {
  CudaRuntime::Stream *d = streamOf(dst), *s = streamOf(src);
  if (d && s) {
    d->attributes = s->attributes;
    d->priority = s->priority;
  }
  return cudaSuccess;
}

// No memory-budget change ever happens on the simulated device, so a
// registered callback is never called.
cudaError_t apiDeviceRegisterAsyncNotification(int device, void *callback,
                                               void *, void **handle) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  if (!callback || !handle)
    return fail(cudaErrorInvalidValue);
  *handle = reinterpret_cast<void *>(++rt().notificationHandles);
  return cudaSuccess;
}
cudaError_t apiDeviceUnregisterAsyncNotification(int device, void *handle) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice);
  if (!handle)
    return fail(cudaErrorInvalidValue);
  return cudaSuccess;
}

} // namespace

EntryPoints streamEntryPoints() {
  return {
      {"cudaStreamCreateWithPriority",
       serialized<apiStreamCreateWithPriority>()},
      {"cudaStreamGetPriority", serialized<apiStreamGetPriority>()},
      {"cudaStreamGetFlags", serialized<apiStreamGetFlags>()},
      {"cudaStreamGetDevice", serialized<apiStreamGetDevice>()},
      {"cudaStreamGetId", serialized<apiStreamGetId>()},
      {"cudaLaunchHostFunc", serialized<apiLaunchHostFunc>()},
      {"cudaStreamAddCallback", serialized<apiStreamAddCallback>()},
      {"cudaStreamGetAttribute", serialized<apiStreamGetAttribute>()},
      {"cudaStreamSetAttribute", serialized<apiStreamSetAttribute>()},
      {"cudaStreamCopyAttributes", serialized<apiStreamCopyAttributes>()},
      {"cudaDeviceRegisterAsyncNotification",
       serialized<apiDeviceRegisterAsyncNotification>()},
      {"cudaDeviceUnregisterAsyncNotification",
       serialized<apiDeviceUnregisterAsyncNotification>()},
  };
}

} // namespace kcheck::host::entry

// Shared by every vkprim shader: the extensions vkprim relies on and the buffer-reference types
// through which all memory is addressed (no descriptors: every pass takes device addresses in
// its push constants, which is what lets arrays exceed maxStorageBufferRange).
#ifndef VKPRIM_GLSL
#define VKPRIM_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require

#include "spec_ids.h"

// Workgroup size and items per invocation are specialization constants 0 and 1 (or ITEMS a
// compile-time constant, below).
layout(local_size_x_id = 0) in;
#if defined(FIXED_ITEMS)
// Passes that keep per-item arrays in registers fix ITEMS at compile time (set per variant in
// a family's variants.cmake, matching its engine/<family>/policy.hpp), and mark every loop over items
// [[unroll]], so that no array is indexed dynamically (which puts it in slow local memory):
// unrolled loops keep the per-item arrays in registers. A compiler may otherwise leave such a
// loop rolled, with its arrays in local memory ("Local Memory Size" in
// `vkprim bench --pipeline-stats`).
const uint ITEMS = FIXED_ITEMS;
#else
layout(constant_id = 1) const uint ITEMS = 1;
#endif
#define WG_SIZE gl_WorkGroupSize.x

layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer U32x2Buf { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer U32x4Buf { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer U64Buf { uint64_t v[]; };

// Addressing: `.v[i]` only where i * the element size stays below 2^31 bytes (an index into a
// tile, from a reference to the tile's start). OpAccessChain takes its index as signed, and a
// driver may form index * stride in 32 bits: the NVIDIA driver evidently does (a copy of 4.3 GB
// indexed from its start comes out wrong past 4 GiB, docs/conventions.md). An element of a
// whole array is reached through ELEM_ADDR, which forms its address in 64 bits.
#define ELEM_ADDR(addr, i, size) ((addr) + uint64_t(i) * uint64_t(size))

// An element count read from a GPU buffer (Count::on_device; engine/core/device_count.hpp):
// `addr` is the buffer's address with bit 0 set for a u64 count, clear for a u32. The count is
// clamped to `most`, the maximum the call was recorded for (Count's n): a larger count on the
// GPU covers the first `most` elements and never reaches memory past them.
uint64_t device_count(uint64_t addr, uint64_t most) {
  const uint64_t c = (addr & 1ul) != 0ul ? U64Buf(addr & ~1ul).v[0] : uint64_t(U32Buf(addr).v[0]);
  return min(c, most);
}

// HOST_COUNT_ONLY (common/spec_ids.h): 1 in pipelines whose calls always pass the count in the
// push constants (addr 0). Their builds then hold no code that reads a count on the GPU, which
// in the single-pass scan costs the compiled pass shared memory (engine/scan/scan.cpp).
layout(constant_id = VKPRIM_SPEC_HOST_COUNT_ONLY) const bool HOST_COUNT_ONLY = false;

// A call's element count: `n`, its maximum, for a host count (addr 0), else the count on the
// GPU clamped to n.
uint64_t call_count(uint64_t addr, uint64_t n) {
  return !HOST_COUNT_ONLY && addr != 0ul ? device_count(addr, n) : n;
}

// The elements of a dispatch of n from element `first` on: n for a host count (addr 0), else
// its part of the count on the GPU (the count less `first`, at most n; 0 past the count).
uint dispatch_count(uint64_t addr, uint64_t first, uint n) {
  if (HOST_COUNT_ONLY || addr == 0ul) return n;
  const uint64_t c = device_count(addr, first + n);
  return c > first ? uint(c - first) : 0u;
}

// UNIFORM(x): a value every invocation of the workgroup holds (read from shared memory after a
// barrier), made visibly subgroup-uniform in subgroup builds so that compilers keep subgroups
// converged across the loops and branches that depend on it.
#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_ballot : require
#define UNIFORM(x) subgroupBroadcastFirst(x)
#else
#define UNIFORM(x) (x)
#endif

// Tiles are visited grid-stride: workgroup w handles tiles w, w + groups, ... so one dispatch
// of a bounded number of workgroups covers any count the host hands it (<= 2^31 items).
#define FOR_EACH_TILE(tile, tiles) \
  for (uint tile = gl_WorkGroupID.x; tile < (tiles); tile += gl_NumWorkGroups.x)

#endif

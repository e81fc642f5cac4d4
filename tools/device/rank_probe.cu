// rank_probe: vkprim's reduce-then-scan downsweep (shaders/sort/radix_downsweep.comp with
// shaders/sort/radix_rank.glsl, subgroup build, 32-bit keys alone) written line for line in
// CUDA, so that the same algorithm can be timed beside CUB and profiled with Nsight Compute,
// which does not profile Vulkan. A diagnostic for the GPU machine, not part of vkprim:
//   bash tools/device/bench.sh probe [ncu V]   (on the GPU machine), or by hand:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -o /tmp/rank_probe tools/device/rank_probe.cu
//   /tmp/rank_probe 28 [V]         one JSON line per variant (or variant V), every output verified
// The pass sorts 2^N hashed u32 keys by bits [0, 8). Each tile's first output position of each
// digit comes from the host (what vkprim's upsweep and offsets passes compute), so only the
// downsweep is timed. Variants (template arguments): the tile shape, the minimum blocks per SM
// given to the compiler (vkprim's shape gets 3, as the Vulkan driver's 56 registers give), and
// how a key finds its peers: MATCH 0 eight ballots as vkprim, 1 __match_any_sync on the digit
// pair plus one ballot, 2 ballots on predicates taken straight from the digit with the rank
// record passed through an identity shuffle (fewer instructions and registers under nvcc).
// The second argument picks one variant by its number (main() lists them). Keys are read by
// plain loads (LDG.E; `const __restrict__` makes them LDG.E.CONSTANT, slower here, as `readonly`
// is in Vulkan). nvcc's code is not the Vulkan driver's: more instructions a key.
// CUB's one-pass sort of the same bits (histogram + one onesweep pass) and its full 32-bit sort
// are timed in the same run.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__global__ void fill_hash(uint32_t* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t x = uint32_t(i) * 0x9E3779B9u ^ seed;
    x ^= x >> 16; x *= 0x85EBCA6Bu; x ^= x >> 13; x *= 0xC2B2AE35u; x ^= x >> 16;
    p[i] = x;
  }
}

__device__ __forceinline__ uint32_t lanemask_lt() { uint32_t m; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); return m; }

template <int WG, int ITEMS, int MINB, int MATCH>
__global__ void __launch_bounds__(WG, MINB)
downsweep(const uint32_t* keys_in, uint32_t* keys_out, const uint32_t* tile_off,
          uint32_t n, uint32_t shift) {
  constexpr int TILE = WG * ITEMS, WARPS = WG / 32;
  constexpr int WORDS = TILE > WARPS * 128 ? TILE : WARPS * 128;
  __shared__ uint32_t s_mem[WORDS];
  __shared__ uint32_t s_base[256];
  __shared__ uint32_t s_sums[WARPS];
  const uint32_t lid = threadIdx.x, warp = lid / 32, lane = lid % 32;
  const uint32_t tile = blockIdx.x;
  const uint64_t first = uint64_t(tile) * TILE;
  const uint32_t valid = n - first < uint64_t(TILE) ? uint32_t(n - first) : uint32_t(TILE);
  const uint32_t* kin = keys_in + first;
  // rank_load
  for (uint32_t i = lid; i < WARPS * 128; i += WG) s_mem[i] = 0;
  uint32_t key[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t j = warp * 32 * ITEMS + k * 32 + lane;
    key[k] = j < valid ? kin[j] : 0u;
  }
  __syncthreads();
  uint32_t off_lo = 0, off_hi = 0;
  if (lid < 128) {
    off_lo = tile_off[tile * 256 + 2 * lid];
    off_hi = tile_off[tile * 256 + 2 * lid + 1];
  }
  // rank_match
  const uint32_t counters = warp * 128;
  const uint32_t lt = lanemask_lt();
  uint32_t rank[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t j = warp * 32 * ITEMS + k * 32 + lane;
    const uint32_t d = j < valid ? (key[k] >> shift) & 0xFFu : 0xFFu;
    uint32_t word_peers, odd;
    if (MATCH == 0) {
      word_peers = 0xFFFFFFFFu;
      odd = 0;
#pragma unroll
      for (int b = 0; b < 8; ++b) {
        const bool set = ((d >> b) & 1u) != 0u;
        const uint32_t ballot = __ballot_sync(0xFFFFFFFFu, set);
        if (b == 0) odd = ballot;
        else word_peers &= set ? ballot : ~ballot;
      }
    } else if (MATCH == 2) {
      // Each bit's lanes by a predicate straight from the digit, and the mask flipped by a
      // select (as NVIDIA's Vulkan compiler emits vkprim's loop: VOTE, SEL, LOP3 per bit).
      word_peers = 0xFFFFFFFFu;
      odd = __ballot_sync(0xFFFFFFFFu, d & 1u);
#pragma unroll
      for (int b = 1; b < 8; ++b) {
        const uint32_t ballot = __ballot_sync(0xFFFFFFFFu, d & (1u << b));
        word_peers &= ballot ^ ((d & (1u << b)) ? 0u : 0xFFFFFFFFu);
      }
    } else {
      word_peers = __match_any_sync(0xFFFFFFFFu, d >> 1);
      odd = __ballot_sync(0xFFFFFFFFu, (d & 1u) != 0u);
    }
    const uint32_t peers = word_peers & ((d & 1u) ? odd : ~odd);
    const uint32_t below = __popc(peers & lt);
    const uint32_t word = counters + (d >> 1), sh = 16u * (d & 1u);
    const uint32_t old = s_mem[word];
    __syncwarp();
    if (__popc(word_peers & lt) == 0) {
      const uint32_t n_odd = __popc(word_peers & odd);
      s_mem[word] = old + (__popc(word_peers) - n_odd) + (n_odd << 16);
    }
    __syncwarp();
    rank[k] = (d << 16) | (((old >> sh) & 0xFFFFu) + below);
    // MATCH 2: the record through an identity shuffle, so that the compiler keeps it packed
    // (one register) instead of its parts (digit, counter address, rank) across the barrier.
    if (MATCH == 2) rank[k] = __shfl_sync(0xFFFFFFFFu, rank[k], lane);
  }
  __syncthreads();
  uint32_t pair = 0;
  if (lid < 128)
    for (uint32_t s = 0; s < WARPS; ++s) pair += s_mem[s * 128 + lid];
  // rank_positions
  const uint32_t c_lo = pair & 0xFFFFu, c_pair = c_lo + (pair >> 16);
  uint32_t incl = c_pair;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const uint32_t v = __shfl_up_sync(0xFFFFFFFFu, incl, o);
    if (lane >= uint32_t(o)) incl += v;
  }
  if (lane == 31) s_sums[warp] = incl;
  __syncthreads();
  uint32_t start = incl - c_pair;
  if (lid < 128) {
    for (uint32_t s = 0; s < warp; ++s) start += s_sums[s];
    uint32_t acc = start | ((start + c_lo) << 16);
    for (uint32_t s = 0; s < WARPS; ++s) {
      const uint32_t c = s_mem[s * 128 + lid];
      s_mem[s * 128 + lid] = acc;
      acc += c;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t d = rank[k] >> 16;
    rank[k] = ((s_mem[counters + (d >> 1)] >> (16u * (d & 1u))) & 0xFFFFu) + (rank[k] & 0xFFFFu);
  }
  __syncthreads();
  if (lid < 128) {
    s_base[2 * lid] = off_lo - start;
    s_base[2 * lid + 1] = off_hi - (start + c_lo);
  }
  // rank_scatter
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) s_mem[rank[k]] = key[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t p = lid + k * WG;
    if (p < valid) {
      const uint32_t x = s_mem[p];
      keys_out[s_base[(x >> shift) & 0xFFu] + p] = x;
    }
  }
}

template <class F> float time_ms(F f, int reps = 20) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  CK(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

struct Data {
  uint32_t n = 0;
  uint32_t *keys = nullptr, *out = nullptr, *off = nullptr;
  std::vector<uint32_t> host, expect;
};

// The first output position of digit d in tile t (tiles of `tile` keys), and the expected pass.
static void offsets_for(Data& D, uint32_t tile) {
  const uint32_t tiles = (D.n + tile - 1) / tile;
  std::vector<uint32_t> cnt(size_t(tiles) * 256, 0), total(256, 0);
  for (uint32_t i = 0; i < D.n; ++i) ++cnt[size_t(i / tile) * 256 + (D.host[i] & 0xFF)];
  for (uint32_t t = 0; t < tiles; ++t) for (int d = 0; d < 256; ++d) total[d] += cnt[size_t(t) * 256 + d];
  std::vector<uint32_t> run(256, 0);
  for (int d = 1; d < 256; ++d) run[d] = run[d - 1] + total[d - 1];
  std::vector<uint32_t> off(size_t(tiles) * 256);
  for (uint32_t t = 0; t < tiles; ++t)
    for (int d = 0; d < 256; ++d) { off[size_t(t) * 256 + d] = run[d]; run[d] += cnt[size_t(t) * 256 + d]; }
  if (D.off) CK(cudaFree(D.off));
  CK(cudaMalloc(&D.off, off.size() * 4));
  CK(cudaMemcpy(D.off, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
}

template <int WG, int ITEMS, int MINB, int MATCH>
static void variant(Data& D, const char* name) {
  constexpr uint32_t TILE = WG * ITEMS;
  offsets_for(D, TILE);
  const uint32_t tiles = (D.n + TILE - 1) / TILE;
  cudaFuncAttributes attr; CK(cudaFuncGetAttributes(&attr, downsweep<WG, ITEMS, MINB, MATCH>));
  int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, downsweep<WG, ITEMS, MINB, MATCH>, WG, 0));
  CK(cudaMemset(D.out, 0, size_t(D.n) * 4));
  auto run = [&] { downsweep<WG, ITEMS, MINB, MATCH><<<tiles, WG>>>(D.keys, D.out, D.off, D.n, 0u); };
  run();
  CK(cudaDeviceSynchronize());
  std::vector<uint32_t> got(D.n);
  CK(cudaMemcpy(got.data(), D.out, size_t(D.n) * 4, cudaMemcpyDeviceToHost));
  const bool ok = got == D.expect;
  const float ms = time_ms(run);
  std::printf("{\"name\": \"%s\", \"n\": %u, \"ms\": %.4f, \"registers\": %d, \"blocks_per_sm\": %d, \"verified\": %s}\n",
              name, D.n, ms, attr.numRegs, per_sm, ok ? "true" : "false");
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  const int logn = argc > 1 ? std::atoi(argv[1]) : 28;
  const int only = argc > 2 ? std::atoi(argv[2]) : -1;  // one variant (for ncu), -1: all
  if (logn < 12 || logn > 30) {
    std::fprintf(stderr, "usage: rank_probe [LOG2_KEYS 12..30, default 28] [VARIANT]\n");
    return 2;
  }
  Data D;
  D.n = uint32_t(1) << logn;
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"device\": \"%s\", \"sms\": %d, \"cub\": %d}\n", prop.name, prop.multiProcessorCount, CUB_VERSION);
  CK(cudaMalloc(&D.keys, size_t(D.n) * 4)); CK(cudaMalloc(&D.out, size_t(D.n) * 4));
  fill_hash<<<4096, 256>>>(D.keys, D.n, 1u);
  CK(cudaDeviceSynchronize());
  D.host.resize(D.n);
  CK(cudaMemcpy(D.host.data(), D.keys, size_t(D.n) * 4, cudaMemcpyDeviceToHost));
  // The expected pass: stable by bits [0, 8).
  {
    std::vector<uint32_t> run(257, 0);
    for (uint32_t x : D.host) ++run[(x & 0xFF) + 1];
    for (int d = 1; d <= 256; ++d) run[d] += run[d - 1];
    D.expect.resize(D.n);
    for (uint32_t x : D.host) D.expect[run[x & 0xFF]++] = x;
  }
  if (only < 0 || only == 0) variant<384, 9, 3, 0>(D, "probe 384x9 minb3 ballots (vkprim's)");
  if (only < 0 || only == 1) variant<384, 9, 3, 1>(D, "probe 384x9 minb3 match_any");
  if (only < 0 || only == 2) variant<384, 9, 1, 0>(D, "probe 384x9 minb1 ballots");
  if (only < 0 || only == 3) variant<384, 12, 2, 0>(D, "probe 384x12 minb2 ballots");
  if (only < 0 || only == 4) variant<384, 21, 1, 0>(D, "probe 384x21 minb1 ballots");
  if (only < 0 || only == 5) variant<384, 21, 1, 1>(D, "probe 384x21 minb1 match_any");
  if (only < 0 || only == 8) variant<384, 20, 3, 0>(D, "probe 384x20 minb3 ballots");
  if (only < 0 || only == 18) variant<384, 9, 3, 2>(D, "probe 384x9 minb3 predicate ballots, opaque");
  if (only < 0 || only == 6) variant<512, 8, 2, 0>(D, "probe 512x8 minb2 ballots");
  if (only < 0 || only == 9) {
    // CUB: the same bits (its histogram and one onesweep pass), then all 32.
    void* tmp = nullptr; size_t need = 0;
    // A size_t count, as cub_anchors.cu: CUB's 64-bit offset instantiation (384 x 19 keys,
    // 56 registers on sm_90); a 32-bit count takes 384 x 20 at 74 registers and runs slower.
    const size_t n = D.n;
    cub::DeviceRadixSort::SortKeys(nullptr, need, D.keys, D.out, n);
    CK(cudaMalloc(&tmp, need));
    const float one = time_ms([&] { cub::DeviceRadixSort::SortKeys(tmp, need, D.keys, D.out, n, 0, 8); });
    std::vector<uint32_t> got(D.n);
    CK(cudaMemcpy(got.data(), D.out, size_t(D.n) * 4, cudaMemcpyDeviceToHost));
    std::printf("{\"name\": \"cub SortKeys bits 0-8\", \"n\": %u, \"ms\": %.4f, \"verified\": %s}\n", D.n, one,
                got == D.expect ? "true" : "false");
    const float all = time_ms([&] { cub::DeviceRadixSort::SortKeys(tmp, need, D.keys, D.out, n); }, 10);
    std::printf("{\"name\": \"cub SortKeys bits 0-32\", \"n\": %u, \"ms\": %.4f}\n", D.n, all);
  }
  return 0;
}

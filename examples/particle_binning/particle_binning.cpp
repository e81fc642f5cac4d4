// particle_binning: grouping by sorting. Particles are binned into the cells of a grid (the
// neighbour search of a particle or fluid simulation, the tile lists of a tiled renderer): the
// (cell, particle) pairs are sorted by cell, and each cell's range in the sorted list comes from
// the counts per cell (a histogram) scanned to offsets. After the three calls, recorded in one
// command buffer,
//   particles of cell c = sorted_particles[start[c], start[c] + count[c])
// in increasing particle order (the sort is stable, and the pairs start in particle order). The
// sort looks only at the bits a cell index can have (the bit window [0, cell_bits)).
//
// Checked against a binning on the CPU; exit 0 when every cell holds exactly its particles.
#include <cmath>
#include <cstdio>
#include <vector>
#include <vkprim/vkprim.hpp>

namespace {

constexpr uint32_t kGrid = 256;  // cells per side: 65 536 cells
constexpr uint32_t kParticles = 300000;

int fail(const char* what, const vkprim::Error& e) {
  std::fprintf(stderr, "particle_binning: %s: %s\n", what, e.describe().c_str());
  return 1;
}

}  // namespace

int main() {
  int messages = 0;  // validation warnings and errors, where the layer is installed
  vkprim::CreateInfo info;
  info.validation = true;
  info.on_message = [&messages](vkprim::MessageSeverity s, const char* m) {
    if (s >= vkprim::MessageSeverity::warning) ++messages, std::fprintf(stderr, "validation: %s\n", m);
  };
  auto rt = vkprim::Runtime::create(info);
  if (!rt) {
    info.validation = false;
    rt = vkprim::Runtime::create(info);
  }
  if (!rt) return fail("Runtime::create", rt.error());
  const vkprim::Context& ctx = rt->context();

  // Particle p's cell: its position in the unit square (a deterministic scatter, denser towards
  // one corner so that cells hold from none to many particles), row-major cell index.
  const uint32_t cells = kGrid * kGrid;
  std::vector<uint32_t> cell_of(kParticles), particle(kParticles);
  for (uint32_t p = 0; p < kParticles; ++p) {
    const double x = std::pow(std::fmod(p * 0.6180339887, 1.0), 1.5);
    const double y = std::pow(std::fmod(p * 0.7548776662, 1.0), 2.0);
    cell_of[p] = uint32_t(y * kGrid) * kGrid + uint32_t(x * kGrid);
    particle[p] = p;
  }
  uint32_t cell_bits = 1;
  while ((1u << cell_bits) < cells) ++cell_bits;

  // The three primitives, made once (their pipelines are built here), with their temporary
  // storage reserved outside recording.
  vkprim::SortOptions so;
  so.value_bytes = 4;
  auto sort = vkprim::RadixSort::create(ctx, vkprim::ValueType::u32, so);
  auto hist = vkprim::Histogram::create_even(ctx, vkprim::ValueType::u32, cells, 0, cells);
  auto scan = vkprim::Scan::create(ctx, vkprim::ValueType::u32);
  if (!sort) return fail("RadixSort::create", sort.error());
  if (!hist) return fail("Histogram::create_even", hist.error());
  if (!scan) return fail("Scan::create", scan.error());
  if (auto s = sort->reserve(kParticles); !s) return fail("reserve", s.error());
  if (auto s = scan->reserve(cells); !s) return fail("reserve", s.error());

  auto keys = rt->upload(cell_of), values = rt->upload(particle);
  auto sorted_keys = rt->alloc(kParticles * 4), sorted_particles = rt->alloc(kParticles * 4);
  auto count = rt->alloc(cells * 4), start = rt->alloc(cells * 4);
  for (auto* b : {&keys, &values, &sorted_keys, &sorted_particles, &count, &start})
    if (!*b) return fail("buffer", b->error());

  auto done = rt->submit([&](VkCommandBuffer cmd) -> vkprim::Status {
    // Sort the pairs by cell: the particles of a cell become one run.
    VKPRIM_TRY(sort->sort_pairs(cmd, *keys, *values, *sorted_keys, *sorted_particles, kParticles, {}, 0,
                                cell_bits));
    // Particles per cell, from the unsorted keys (the upload's copies are complete: Runtime
    // uploads wait). It needs nothing the sort writes, so no barrier is owed between them.
    VKPRIM_TRY(hist->record(cmd, *keys, *count, kParticles));
    // The runs' starts: the counts' exclusive scan. The histogram's writes -> the scan's reads:
    // the barrier a caller owes between a producer and a vkprim call (elementwise.hpp).
    vkprim::full_barrier(ctx, cmd);
    VKPRIM_TRY(scan->exclusive(cmd, *count, *start, cells));
    vkprim::full_barrier(ctx, cmd);  // the GPU's writes -> the download's copies
    return {};
  });
  if (!done) return fail("submit", done.error());
  auto got_particles = rt->download<uint32_t>(*sorted_particles, kParticles);
  auto got_count = rt->download<uint32_t>(*count, cells);
  auto got_start = rt->download<uint32_t>(*start, cells);
  if (!got_particles) return fail("download", got_particles.error());
  if (!got_count) return fail("download", got_count.error());
  if (!got_start) return fail("download", got_start.error());

  // The CPU's binning: each cell's particles in increasing order.
  std::vector<std::vector<uint32_t>> bins(cells);
  for (uint32_t p = 0; p < kParticles; ++p) bins[cell_of[p]].push_back(p);
  uint32_t wrong = 0, empty = 0, fullest = 0;
  for (uint32_t c = 0; c < cells; ++c) {
    const auto& want = bins[c];
    bool ok = (*got_count)[c] == want.size() && (*got_start)[c] + want.size() <= kParticles;
    for (size_t k = 0; ok && k < want.size(); ++k) ok = (*got_particles)[(*got_start)[c] + k] == want[k];
    wrong += !ok;
    empty += want.empty();
    fullest = std::max<uint32_t>(fullest, uint32_t(want.size()));
  }
  std::printf("%u particles in %u cells (%u empty, at most %u in one): %u cells wrong, %d validation messages\n",
              kParticles, cells, empty, fullest, wrong, messages);
  std::printf("%s\n", wrong == 0 && messages == 0 ? "ok" : "FAILED");
  return wrong == 0 && messages == 0 ? 0 : 1;
}

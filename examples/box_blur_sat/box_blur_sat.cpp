// box_blur_sat: box blurs of any radius from one summed-area table. The table of an 8-bit
// grey image (u32 elements, u32 sums: 255 x width x height stays below 2^32) is made on the
// GPU; each blurred pixel is then the mean of its box, clamped to the image, from four entries
// of the table whatever the radius:
//   sum(x0..x1, y0..y1) = S(x1, y1) - S(x0 - 1, y1) - S(x1, y0 - 1) + S(x0 - 1, y0 - 1)
// (terms with an index of -1 are 0). Several radii, from 1 to past the image's half size, are
// checked against a direct blur on the CPU (every pixel of every box added up); exit 0 when every
// pixel of every blur matches.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <vkprim/vkprim.hpp>

namespace {

constexpr uint32_t kWidth = 641, kHeight = 479;  // odd sizes: no tile divides them

int fail(const char* what, const vkprim::Error& e) {
  std::fprintf(stderr, "box_blur_sat: %s: %s\n", what, e.describe().c_str());
  return 1;
}

// The mean of the box of radius r around (x, y), clamped to the image, rounded down.
uint32_t box_from_table(const std::vector<uint32_t>& s, uint32_t x, uint32_t y, uint32_t r) {
  const int64_t x0 = int64_t(x) - r, y0 = int64_t(y) - r;
  const uint32_t x1 = std::min(kWidth - 1, x + r), y1 = std::min(kHeight - 1, y + r);
  const uint32_t lx = uint32_t(std::max<int64_t>(x0, 0)), ly = uint32_t(std::max<int64_t>(y0, 0));
  const auto at = [&](int64_t i, int64_t j) -> uint32_t { return i < 0 || j < 0 ? 0 : s[j * kWidth + i]; };
  const uint32_t sum = at(x1, y1) - at(int64_t(lx) - 1, y1) - at(x1, int64_t(ly) - 1) + at(int64_t(lx) - 1, int64_t(ly) - 1);
  return sum / ((x1 - lx + 1) * (y1 - ly + 1));
}

uint32_t box_direct(const std::vector<uint32_t>& img, uint32_t x, uint32_t y, uint32_t r) {
  const uint32_t lx = x >= r ? x - r : 0, ly = y >= r ? y - r : 0;
  const uint32_t x1 = std::min(kWidth - 1, x + r), y1 = std::min(kHeight - 1, y + r);
  uint32_t sum = 0;
  for (uint32_t j = ly; j <= y1; ++j)
    for (uint32_t i = lx; i <= x1; ++i) sum += img[j * kWidth + i];
  return sum / ((x1 - lx + 1) * (y1 - ly + 1));
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

  // A grey image with structure at several scales: rings, a gradient and a checkerboard.
  std::vector<uint32_t> img(size_t(kWidth) * kHeight);
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      const int dx = int(x) - 320, dy = int(y) - 240;
      const uint32_t ring = uint32_t(dx * dx + dy * dy) / 900 % 2 ? 160 : 20;
      const uint32_t checker = ((x / 8) ^ (y / 8)) & 1 ? 60 : 0;
      img[size_t(y) * kWidth + x] = std::min(255u, ring + checker + x * 35 / kWidth);
    }

  // The table: made once, its temporary storage reserved outside recording.
  auto sat = vkprim::SummedAreaTable::create(rt->context(), vkprim::ValueType::u32);
  if (!sat) return fail("SummedAreaTable::create", sat.error());
  if (auto s = sat->reserve(kWidth, kHeight); !s) return fail("reserve", s.error());
  auto image = rt->upload(img);
  auto table = rt->alloc(uint64_t(kWidth) * kHeight * 4);
  if (!image) return fail("upload", image.error());
  if (!table) return fail("alloc", table.error());
  auto done = rt->submit([&](VkCommandBuffer cmd) -> vkprim::Status {
    VKPRIM_TRY(sat->record(cmd, *image, *table, kWidth, kHeight));
    vkprim::full_barrier(rt->context(), cmd);  // the GPU's writes -> the download's copies
    return {};
  });
  if (!done) return fail("submit", done.error());
  auto s = rt->download<uint32_t>(*table, uint64_t(kWidth) * kHeight);
  if (!s) return fail("download", s.error());

  uint64_t wrong = 0;
  for (const uint32_t r : {1u, 4u, 15u, 100u, 700u}) {
    uint64_t wrong_r = 0;
    for (uint32_t y = 0; y < kHeight; y += (r > 15 ? 7 : 1))  // the large boxes on every 7th row
      for (uint32_t x = 0; x < kWidth; ++x) wrong_r += box_from_table(*s, x, y, r) != box_direct(img, x, y, r);
    std::printf("radius %3u: %llu pixels differ from the direct blur\n", r, (unsigned long long)wrong_r);
    wrong += wrong_r;
  }
  std::printf("%u x %u image, %d validation messages\n%s\n", kWidth, kHeight, messages,
              wrong == 0 && messages == 0 ? "ok" : "FAILED");
  return wrong == 0 && messages == 0 ? 0 : 1;
}

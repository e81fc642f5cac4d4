// Sparsity-pattern pictures ("spy plots"): entries binned into pixels, written as PNG.
#pragma once

#include <vkprim/error.hpp>
#include <vkprim/sparse/coo.hpp>

#include <cstdint>
#include <filesystem>
#include <vector>

namespace vkprim::sparse {

// An 8-bit grey image, row-major, 255 = white (no entries), darker = denser.
struct SpyImage {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> pixels;  // width * height
};

// Bins the stored entries of `m` into pixels of ceil(max(rows, cols) / max_side) matrix
// rows/columns each, so neither side exceeds max_side and the aspect ratio is kept; a pixel
// is white when its bin is empty and shades logarithmically with the entry count up to
// black for the densest bin. Requires max_side >= 1; an empty shape gives a 1 x 1 image.
SpyImage spy_image(const CooMatrix& m, uint32_t max_side = 1024);

// Writes `image` as an 8-bit greyscale PNG, replacing `path` only once complete (as
// write_matrix_market); Errc::io_error on failure.
Status write_png(const SpyImage& image, const std::filesystem::path& path);

}  // namespace vkprim::sparse

// Spy pictures: entry counts binned per pixel, log-shaded, written with libpng through an
// AtomicFile (the target is replaced only by a complete picture).
#include <vkprim/sparse/spy.hpp>

#include "core/atomic_file.hpp"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <string>

namespace vkprim::sparse {

SpyImage spy_image(const CooMatrix& m, uint32_t max_side) {
  max_side = std::max<uint32_t>(max_side, 1);
  const uint64_t longest = uint64_t(std::max<int64_t>({m.rows, m.cols, 1}));
  const uint64_t per_pixel = (longest + max_side - 1) / max_side;  // matrix rows/cols per pixel
  SpyImage image;
  image.width = uint32_t(std::max<uint64_t>((uint64_t(m.cols) + per_pixel - 1) / per_pixel, 1));
  image.height = uint32_t(std::max<uint64_t>((uint64_t(m.rows) + per_pixel - 1) / per_pixel, 1));
  std::vector<uint64_t> counts(size_t(image.width) * image.height, 0);
  for (int64_t k = 0; k < m.nnz(); ++k) {
    const uint64_t y = uint64_t(m.row_indices[size_t(k)]) / per_pixel;
    const uint64_t x = uint64_t(m.col_indices[size_t(k)]) / per_pixel;
    ++counts[size_t(y * image.width + x)];
  }
  const uint64_t densest = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  image.pixels.resize(counts.size());
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) {
      image.pixels[i] = 255;
    } else {
      // One entry: light grey (200); the densest pixel: black.
      const double t = densest > 1 ? std::log(double(counts[i])) / std::log(double(densest)) : 1.0;
      image.pixels[i] = uint8_t(std::lround(200.0 * (1.0 - t)));
    }
  }
  return image;
}

Status write_png(const SpyImage& image, const std::filesystem::path& path) {
  const std::string name = path.string();
  if (image.width == 0 || image.height == 0 || image.pixels.size() != size_t(image.width) * image.height)
    return make_error(Errc::invalid_argument, name + ": image size does not match its pixels");
  auto file = vkprim::detail::AtomicFile::create(path);
  if (!file) return file.error();
  auto f = file->stream();
  if (!f) return f.error();
  // Errors reach the setjmp below without libpng printing them (the Status carries them).
  const auto on_error = [](png_structp p, png_const_charp) { png_longjmp(p, 1); };
  const auto on_warning = [](png_structp, png_const_charp) {};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    return make_error(Errc::out_of_host_memory, name + ": libpng initialisation failed");
  }
  // libpng reports errors by longjmp back here; nothing below has a destructor to skip, and
  // `file` (declared above) removes the temporary when this returns.
  if (setjmp(png_jmpbuf(png))) {
    const int err = errno;
    png_destroy_write_struct(&png, &info);
    return vkprim::detail::file_error(name, "writing the PNG failed", err);
  }
  png_init_io(png, *f);
  png_set_IHDR(png, info, image.width, image.height, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < image.height; ++y)
    png_write_row(png, image.pixels.data() + size_t(y) * image.width);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return file->commit();
}

}  // namespace vkprim::sparse

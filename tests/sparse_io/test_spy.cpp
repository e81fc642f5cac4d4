// Spy pictures: binning, shading and PNG output.
#include "test_support.hpp"

#include <vkprim/sparse/spy.hpp>

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

TEST_CASE("spy bins entries into at most max_side pixels and shades by density", "[spy]") {
  CooMatrix m;
  m.rows = 4000;
  m.cols = 1000;
  m.field = Field::pattern;
  for (int64_t i = 0; i < 4000; ++i) {  // diagonal-ish band, plus a dense corner block
    m.row_indices.push_back(i);
    m.col_indices.push_back(i / 4);
  }
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      m.row_indices.push_back(3996 + i);
      m.col_indices.push_back(996 + j);
    }
  const SpyImage img = spy_image(m, 1024);
  CHECK(img.height == 1000);  // 4 matrix rows per pixel
  CHECK(img.width == 250);
  CHECK(img.pixels[0] < 255);                    // entries at (0..3, 0)
  CHECK(img.pixels[1] == 255);                   // nothing at (0..3, 4..7)
  CHECK(img.pixels[999 * 250 + 249] == 0);       // densest bin is black
  CHECK(img.pixels[0] > img.pixels[999 * 250 + 249]);

  const SpyImage tiny = spy_image(CooMatrix{}, 1024);
  CHECK(tiny.width == 1);
  CHECK(tiny.height == 1);
  CHECK(tiny.pixels == std::vector<uint8_t>{255});

  TempDir dir("spy");
  REQUIRE(write_png(img, dir.path / "a.png").ok());
  const std::string png = read_text(dir.path / "a.png");
  REQUIRE(png.size() > 8);
  CHECK(png.substr(1, 3) == "PNG");
  CHECK(write_png(img, dir.path / "missing_dir" / "a.png").error().code == Errc::io_error);
}

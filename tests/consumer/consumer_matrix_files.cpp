// A program that writes and reads matrix files: vkprim::matrix_files (which brings
// vkprim::sparse). A Matrix Market file written, read back and compared.
#include <vkprim/sparse/matrix_market.hpp>

#include <cstdio>
#include <filesystem>

int main() {
  vkprim::sparse::CooMatrix m;
  m.rows = 2;
  m.cols = 3;
  m.row_indices = {0, 1, 1};
  m.col_indices = {2, 0, 1};
  m.real_values = {1.5, -2.0, 4.25};
  const auto path = std::filesystem::temp_directory_path() / "vkprim_consumer.mtx";
  if (auto st = vkprim::sparse::write_matrix_market(m, path); !st) {
    std::fprintf(stderr, "%s\n", st.error().describe().c_str());
    return 1;
  }
  auto back = vkprim::sparse::read_matrix_market(path);
  std::filesystem::remove(path);
  if (!back) {
    std::fprintf(stderr, "%s\n", back.error().describe().c_str());
    return 1;
  }
  if (back->rows != 2 || back->cols != 3 || back->row_indices != m.row_indices ||
      back->col_indices != m.col_indices || back->real_values != m.real_values)
    return 1;
  std::printf("matrix_files consumer ok\n");
  return 0;
}

// `vkprim info FILE`: shape, stored entries, field, symmetry and row-length statistics
// (of the full matrix: symmetric storage is expanded for the row statistics).
#include "sparse_cli.hpp"

#include <vkprim/sparse/matrix_file.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <vector>

namespace vkprim::cli {
namespace {

struct RowStats {
  int64_t min = 0, max = 0, empty = 0;
  double mean = 0;
  // Rows per length bucket: [0], [1], [2, 3], [4, 7], ... up to the bucket holding max.
  std::vector<int64_t> histogram;
};

// Bucket of a row length: 0 -> 0, 1 -> 1, 2..3 -> 2, 4..7 -> 3, ...
size_t bucket(int64_t length) {
  size_t b = 0;
  while (length > 0) {
    length >>= 1;
    ++b;
  }
  return b;
}

// Row lengths from sorted row indices, so that shapes with far more rows than entries
// (2^40 x 2^40) need no per-row array.
RowStats row_stats(const sparse::CooMatrix& m) {
  RowStats s;
  std::vector<int64_t> rows = m.row_indices;
  std::sort(rows.begin(), rows.end());
  int64_t occupied = 0;
  s.min = INT64_MAX;
  for (size_t i = 0; i < rows.size();) {
    size_t j = i;
    while (j < rows.size() && rows[j] == rows[i]) ++j;
    const int64_t length = int64_t(j - i);
    s.min = std::min(s.min, length);
    s.max = std::max(s.max, length);
    const size_t b = bucket(length);
    if (s.histogram.size() <= b) s.histogram.resize(b + 1, 0);
    ++s.histogram[b];
    ++occupied;
    i = j;
  }
  s.empty = m.rows - occupied;
  if (s.empty > 0 || occupied == 0) s.min = 0;
  if (s.histogram.empty()) s.histogram.resize(1, 0);
  s.histogram[0] = s.empty;
  s.mean = m.rows ? double(m.nnz()) / double(m.rows) : 0.0;
  return s;
}

std::string bucket_label(size_t b) {
  if (b <= 1) return std::to_string(b);
  return fmt::format("{}-{}", int64_t(1) << (b - 1), (int64_t(1) << b) - 1);
}

}  // namespace

void register_info(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("info", "Describe a matrix file: shape, entries, row lengths");
  static std::string file;
  static bool json = false;
  cmd->add_option("FILE", file, "Matrix file (.mtx, .mtx.gz, .bsp.h5, - for stdin)")->required();
  cmd->add_flag("--json", json, "Print JSON instead of text");
  cmd->callback([&action] {
    action = [] {
      using namespace sparse;
      if (auto f = format_of(file); !f) return report(f.error(), kExitUsage);
      auto m = read_matrix_file(file, matrix_read_options(file, false, false));
      if (!m) return report(m.error());
      const int64_t stored = m->nnz();
      const Symmetry symmetry = m->symmetry;
      if (auto expanded = expand_symmetry(*m); !expanded) return report(expanded.error());
      const RowStats s = row_stats(*m);
      if (json) {
        nlohmann::json hist = nlohmann::json::array();
        for (size_t b = 0; b < s.histogram.size(); ++b)
          hist.push_back({{"min_length", b == 0 ? 0 : int64_t(1) << (b - 1)},
                          {"max_length", b == 0 ? 0 : (int64_t(1) << b) - 1},
                          {"rows", s.histogram[b]}});
        nlohmann::json j = {{"file", file},
                            {"rows", m->rows},
                            {"cols", m->cols},
                            {"stored_entries", stored},
                            {"entries", m->nnz()},
                            {"field", to_string(m->field)},
                            {"symmetry", to_string(symmetry)},
                            {"row_length", {{"min", s.min}, {"mean", s.mean}, {"max", s.max}}},
                            {"empty_rows", s.empty},
                            {"row_length_histogram", hist}};
        fmt::print("{}\n", j.dump(2));
        return kExitOk;
      }
      fmt::print("file:         {}\n", file);
      fmt::print("shape:        {} x {}\n", m->rows, m->cols);
      fmt::print("entries:      {} stored{}\n", stored,
                 symmetry == Symmetry::general ? std::string() : fmt::format(", {} after expansion", m->nnz()));
      fmt::print("field:        {}\n", to_string(m->field));
      fmt::print("symmetry:     {}\n", to_string(symmetry));
      fmt::print("row length:   min {}, mean {:.2f}, max {}\n", s.min, s.mean, s.max);
      fmt::print("empty rows:   {}\n", s.empty);
      fmt::print("row lengths:\n");
      for (size_t b = 0; b < s.histogram.size(); ++b)
        fmt::print("  {:>13}  {}\n", bucket_label(b), s.histogram[b]);
      return kExitOk;
    };
  });
}

}  // namespace vkprim::cli

// Matrix Market parsing throughput (docs/tuning.md). Not a test: run by hand.
//   vkprim_mm_parse_bench FILE [MB]
// Writes a random real general coordinate file of about MB megabytes (default 512) to FILE
// if it does not exist, then parses it 3 times with all hardware threads and once with one
// thread, printing MB/s (file bytes / wall time of parse_matrix_market on the text in memory,
// and of read_matrix_market including the file read).
#include <vkprim/sparse/matrix_market.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

using namespace vkprim::sparse;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void generate(const std::filesystem::path& path, double megabytes) {
  // About 27 bytes per line ("1234567 7654321 0.123456789012\n"-like).
  const int64_t entries = int64_t(megabytes * 1e6 / 27.0);
  CooMatrix m;
  m.rows = m.cols = 10'000'000;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  m.row_indices.resize(size_t(entries));
  m.col_indices.resize(size_t(entries));
  m.real_values.resize(size_t(entries));
  for (int64_t k = 0; k < entries; ++k) {
    m.row_indices[size_t(k)] = int64_t(rng() % uint64_t(m.rows));
    m.col_indices[size_t(k)] = int64_t(rng() % uint64_t(m.cols));
    m.real_values[size_t(k)] = std::round(value(rng) * 1e12) / 1e12;  // ~14 significant digits
  }
  write_matrix_market(m, path).value();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [MB]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path path = argv[1];
  if (!std::filesystem::exists(path)) generate(path, argc > 2 ? std::atof(argv[2]) : 512.0);
  const double mb = double(std::filesystem::file_size(path)) / 1e6;

  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::printf("%s: %.1f MB, %u hardware threads\n", path.c_str(), mb, std::thread::hardware_concurrency());

  for (unsigned threads : {0u, 1u}) {
    double best = 1e30;
    int64_t nnz = 0;
    for (int run = 0; run < (threads == 0 ? 3 : 1); ++run) {
      MatrixMarketReadOptions o;
      o.threads = threads;
      const auto t0 = std::chrono::steady_clock::now();
      auto m = parse_matrix_market(text, path.string(), o);
      best = std::min(best, seconds_since(t0));
      nnz = m.value().nnz();
    }
    std::printf("parse (in memory), %s: %.3f s, %.0f MB/s, %.1f M entries/s (%lld entries)\n",
                threads == 0 ? "all threads" : "1 thread", best, mb / best, double(nnz) / best / 1e6,
                static_cast<long long>(nnz));
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto m = read_matrix_market(path);
  const double t = seconds_since(t0);
  std::printf("read_matrix_market (file read + parse), all threads: %.3f s, %.0f MB/s\n", t, mb / t);
  return m.ok() ? 0 : 1;
}

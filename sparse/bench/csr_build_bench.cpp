// CSR construction throughput (docs/benchmarks.md). Not a test: run by hand.
//   vkprim_csr_build_bench [--f64] FILE...   (Matrix Market or Binsparse COO, e.g. the shuffled
//   .coo.bsp.h5 files of spmv_anchors.py)
// For each file: 3 warm-up builds, then 7 builds timed with timestamps (median and min), one
// profiled build (per-pass times), and the result of the last build compared bit for bit with
// the first (row pointer, columns, values). One JSON object per line.
#include <vkprim/barrier.hpp>
#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/timing.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace vkprim;
using namespace vkprim::sparse;

namespace {

template <class T>
int run(Runtime& rt, const char* file) {
  auto m = read_matrix_file(file);
  if (!m) {
    std::printf("{\"file\": \"%s\", \"error\": \"%s\"}\n", file, m.error().message.c_str());
    return 1;
  }
  const uint64_t n = uint64_t(m->nnz()), rows = uint64_t(m->rows), cols = uint64_t(m->cols);
  std::vector<uint32_t> ri(n), ci(n);
  std::vector<T> vi(n);
  for (uint64_t k = 0; k < n; ++k) {
    ri[k] = uint32_t(m->row_indices[k]);
    ci[k] = uint32_t(m->col_indices[k]);
    vi[k] = T(m->value(int64_t(k)));
  }
  Buffer rb = rt.upload(ri).value(), cb = rt.upload(ci).value();
  Buffer vb = rt.upload(vi).value(), counts = rt.alloc(8).value();
  DeviceCsrOptions o;
  o.values = value_type_of<T>();
  std::vector<CsrMatrix> results;
  {
    auto builder = CsrBuilder::create(rt.context(), o.values).value();
    DeviceCsr a = DeviceCsr::allocate(rt.context(), rows, cols, n, o).value();
    builder.reserve(n, rows, cols).value();
    CsrView view = a.view();
    view.col_idx = a.col_idx_buffer().view();
    view.values = a.values_buffer().view();
    const auto op = [&](VkCommandBuffer cmd) {
      return builder.record(cmd, rb.view(), cb.view(), vb.view(), n, view, counts.view());
    };
    rt.submit([&](VkCommandBuffer cmd) { return op(cmd); }).value();
    a.set_nnz(rt.download<uint32_t>(counts.view(), 2).value()[0]).value();
    results.push_back(a.download(rt).value());
    rt.submit([&](VkCommandBuffer cmd) -> Status {
        for (int i = 0; i < 3; ++i) {
          VKPRIM_TRY(op(cmd));
          full_barrier(rt.context(), cmd);
        }
        return {};
      }).value();
    const uint32_t runs = 7;
    auto timer = GpuTimer::create(rt.context(), 2 * runs).value();
    rt.submit([&](VkCommandBuffer cmd) -> Status {
        timer.reset(cmd);
        for (uint32_t i = 0; i < runs; ++i) {
          timer.stamp(cmd, 2 * i);
          VKPRIM_TRY(op(cmd));
          timer.stamp(cmd, 2 * i + 1);
          full_barrier(rt.context(), cmd);
        }
        return {};
      }).value();
    const auto ms = timer.read_ms(2 * runs).value();
    std::vector<double> d(runs);
    for (uint32_t i = 0; i < runs; ++i) d[i] = ms[2 * i + 1] - ms[2 * i];
    std::sort(d.begin(), d.end());
    auto prof = PassProfiler::create(rt.context(), 4096).value();
    rt.submit([&](VkCommandBuffer cmd) -> Status {
        prof.begin(cmd);
        Status s = op(cmd);
        prof.end();
        return s;
      }).value();
    std::vector<std::pair<std::string, double>> passes;
    const auto timed = prof.read().value();
    for (const auto& p : timed) {
      auto it = std::find_if(passes.begin(), passes.end(), [&](auto& e) { return e.first == p.name; });
      if (it == passes.end()) passes.push_back({p.name, p.ms});
      else it->second += p.ms;
    }
    const auto got = rt.download<uint32_t>(counts.view(), 2).value();
    a.set_nnz(got[0]).value();
    results.push_back(a.download(rt).value());
    std::string ps;
    for (const auto& [name, t] : passes)
      ps += (ps.empty() ? "" : ", ") + std::string("\"") + name + "\": " + std::to_string(t);
    std::printf("{\"file\": \"%s\", \"values\": \"%s\", \"n\": %llu, \"rows\": %llu, "
                "\"nnz\": %u, \"status\": %u, \"median_ms\": %.4f, \"min_ms\": %.4f, "
                "\"G_entries_per_s\": %.3f, \"passes\": {%s}}\n",
                file, to_string(o.values),
                (unsigned long long)n, (unsigned long long)rows, got[0], got[1], d[runs / 2], d[0],
                double(n) / d[runs / 2] * 1e-6, ps.c_str());
    std::fflush(stdout);
  }
  const bool same = results[0].row_offsets == results[1].row_offsets &&
                    results[0].col_indices == results[1].col_indices &&
                    std::memcmp(results[0].real_values.data(), results[1].real_values.data(),
                                results[0].real_values.size() * sizeof(double)) == 0 &&
                    results[0].real_values.size() == results[1].real_values.size();
  std::printf("{\"file\": \"%s\", \"runs_identical\": %s}\n", file, same ? "true" : "false");
  std::fflush(stdout);
  return same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  bool f64 = false;
  auto rt = Runtime::create();
  if (!rt) {
    std::fprintf(stderr, "%s\n", rt.error().message.c_str());
    return 2;
  }
  int bad = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--f64") == 0) {
      f64 = true;
      continue;
    }
    bad += f64 ? run<double>(*rt, argv[i]) : run<float>(*rt, argv[i]);
  }
  return bad ? 1 : 0;
}

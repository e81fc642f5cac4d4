// `vkprim spmv [FILE...] [--generate KIND:N]`: loads each matrix (Matrix Market or Binsparse;
// symmetric storage expanded), builds its CSR, runs y = A x on the GPU (median of --runs
// timestamp-timed runs), validates y against Eigen in f64 and prints a table (--json: records).
// With neither a file nor --generate it runs on poisson2d:64. --kernel
// auto|merge|nnz|rows|stream|split picks the SpMV kernel (auto: from the row-length analysis,
// as Spmv::analyze); the table says which ran. --items sets SpmvOptions::items_per_invocation
// (the stream kernel's chunk). Complex matrices run with complex64 (--values f32) or
// complex128 (--values f64) values (row kernel, merge path or nonzero tiles), checked against
// Eigen's complex product.
// A file that cannot be read or run is reported (its name and why) and skipped; the others
// still run, and the exit status is 1 when any failed.
#include <vkprim/elementwise.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/device_csr.hpp>

#include "bench_harness.hpp"
#include "core/atomic_file.hpp"
#include "matrix_generators.hpp"
#include "sparse_cli.hpp"
#include <vkprim/sparse/csr_build.hpp>
#include <fmt/core.h>

#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/spmv.hpp>

namespace vkprim::cli {

namespace {

struct SpmvRow {
  std::string name;
  int64_t rows = 0, cols = 0, nnz = 0;
  std::string values;
  std::string csr_build;  // where the CSR came from
  double csr_ms = 0;      // host CSR + upload wall time
  std::vector<PassTime> csr_passes;  // GPU build: where its time goes
  Timing t;
  double bytes = 0;
  double max_err = 0;   // max over rows of |y - y_ref| / sum_j |a_ij x_j|
  double rel_err2 = 0;  // ||y - y_ref||_2 / ||y_ref||_2
  bool verified = false;
  std::string kernel_option;  // --kernel value this row ran under
  std::string kernel;     // the kernel that ran (to_string(SpmvKernel))
  uint32_t row_lanes = 0; // lanes per row (row kernel)
  uint32_t column_blocks = 1;  // blocks of columns the product ran over (split_columns)
  double split_ms = 0;         // wall time of split_columns (once per matrix, not timed)
  sparse::SpmvRowStats stats;
  double analyze_ms = 0;  // wall time of Spmv::analyze (stats pass + readback)
};

struct SpmvCliOptions {
  uint32_t runs = 20;
  uint32_t back_to_back = 1;  // time_gpu: calls per timed run
  std::vector<sparse::SpmvKernel> kernels{sparse::SpmvKernel::automatic};
  uint32_t row_lanes = 0;
  uint32_t column_blocks = 0;  // 0: the analysis's recommendation; else split into this many
  uint32_t items = 0;  // SpmvOptions::items_per_invocation
  SortAlgorithm sort_algorithm = SortAlgorithm::automatic;  // CsrBuildOptions::sort_algorithm
};

// Two values of which at least one is not finite, compared by class: nan matches nan and an
// infinity the same infinity; a finite value matches neither.
bool same_nonfinite_class(double got, double want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  return got == want;
}

// Floating-point operations per stored entry: a multiply and an add, or for complex values
// (c64, c128) a complex multiply (4 multiplies, 2 adds) and a complex add (2 adds).
double flops_per_entry(const SpmvRow& r) {
  return !r.values.empty() && r.values[0] == 'c' ? 8.0 : 2.0;
}

double x_value(uint64_t j) { return double(int(gen_hash(j + 12345) % 2001) - 1000) / 1000.0; }

// One kernel's plan, reserved for `a`, and the analysis of `a` (once per matrix: row-length
// statistics on the GPU, read back; the timed runs record only the product), noted in kr.
struct AnalyzedPlan {
  sparse::Spmv plan;
  sparse::SpmvAnalysis analysis;
};
template <class T>
Result<AnalyzedPlan> analyzed_plan(Runtime& rt, const sparse::DeviceCsr& a,
                                   const sparse::SpmvOptions& sopt, SpmvRow& kr) {
  auto plan = sparse::Spmv::create(rt.context(), value_type_of<T>(), sopt);
  if (!plan) return plan.error();
  VKPRIM_TRY(plan->reserve(a.rows(), a.nnz()));
  const auto t0 = std::chrono::steady_clock::now();
  auto an = plan->analyze(rt, a.view());
  if (!an) return an.error();
  kr.analyze_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  kr.kernel_option = to_string(sopt.kernel);
  kr.kernel = to_string(an->kernel);
  if (an->skip_empty_rows) kr.kernel += "-skip-empty";
  kr.row_lanes = an->kernel == sparse::SpmvKernel::rows || an->kernel == sparse::SpmvKernel::split
                     ? an->row_lanes
                     : 0;
  kr.stats = an->stats;
  return AnalyzedPlan{std::move(*plan), *an};
}

template <class T>
Result<std::vector<SpmvRow>> run_one(Runtime& rt, const std::string& name,
                                     const sparse::CooMatrix& coo, const SpmvCliOptions& cli) {
  const uint32_t runs = cli.runs;
  SpmvRow row;
  row.name = name;
  row.rows = coo.rows;
  row.cols = coo.cols;
  row.values = to_string(value_type_of<T>());
  if (coo.rows >= (int64_t(1) << 31) || coo.cols >= (int64_t(1) << 31) ||
      coo.nnz() >= (int64_t(1) << 31))
    return make_error(Errc::limit_exceeded,
                      name + ": too large for the Eigen reference (int indices)");

  sparse::DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  // CSR built on the GPU from the triplets (sort, duplicate sums, compaction, row pointer),
  // timed with timestamps (median of up to 5 builds).
  std::vector<uint32_t> ri(size_t(coo.nnz())), ci(size_t(coo.nnz()));
  std::vector<T> vi(size_t(coo.nnz()));
  for (size_t k = 0; k < ri.size(); ++k) {
    ri[k] = uint32_t(coo.row_indices[k]);
    ci[k] = uint32_t(coo.col_indices[k]);
    vi[k] = T(coo.value(int64_t(k)));
  }
  auto rb = rt.upload(ri), cb = rt.upload(ci);
  auto vb = rt.upload(vi);
  if (!rb || !cb || !vb) return (!rb ? rb : !cb ? cb : vb).error();
  sparse::CsrBuildOptions bopt;
  bopt.sort_algorithm = cli.sort_algorithm;
  auto builder = sparse::CsrBuilder::create(rt.context(), dopt.values, bopt);
  if (!builder) return builder.error();
  auto a = sparse::DeviceCsr::allocate(rt.context(), uint64_t(coo.rows), uint64_t(coo.cols),
                                       ri.size(), dopt);
  if (!a) return a.error();
  auto counts = rt.alloc(12);
  if (!counts) return counts.error();
  VKPRIM_TRY(builder->reserve(ri.size(), uint64_t(coo.rows), uint64_t(coo.cols)));
  const sparse::CsrView full = a->view();
  auto bt = time_gpu(rt, std::min(runs, 5u), 1, [&](VkCommandBuffer cmd) {
    return builder->record(cmd, rb->view(), cb->view(), vb->view(), ri.size(), full,
                           counts->view());
  });
  if (!bt) return bt.error();
  row.csr_ms = bt->median_ms;
  row.csr_passes = bt->passes;
  row.csr_build = "GPU";
  auto got = rt.download<uint32_t>(counts->view(), 3);
  if (!got) return got.error();
  if ((*got)[1] & 1u)
    return make_error(Errc::invalid_argument, name + ": triplets outside the matrix");
  VKPRIM_TRY(a->set_nnz((uint64_t((*got)[2]) << 32) | (*got)[0]));
  row.nnz = int64_t(a->nnz());

  std::vector<T> x(size_t(coo.cols));
  for (size_t j = 0; j < x.size(); ++j) x[j] = T(x_value(j));
  auto xb = rt.alloc(x.size() * sizeof(T));
  if (!xb) return xb.error();
  VKPRIM_TRY(rt.upload(xb->view(), x.data(), x.size() * sizeof(T)));
  auto yb = rt.alloc(size_t(coo.rows) * sizeof(T));
  if (!yb) return yb.error();

  const double esz = sizeof(T);
  row.bytes = double(a->rows() + 1) * (a->row_ptr_64() ? 8 : 4) + double(a->nnz()) * (4 + esz) +
              double(std::min<int64_t>(coo.cols, row.nnz)) * esz + double(a->rows()) * esz;

  // Reference: Eigen's setFromTriplets on the same triplets, products in f64 from the values
  // the GPU saw (rounded to T).
  std::vector<Eigen::Triplet<double>> trip;
  trip.reserve(size_t(coo.nnz()));
  for (int64_t k = 0; k < coo.nnz(); ++k)
    trip.emplace_back(int(coo.row_indices[size_t(k)]), int(coo.col_indices[size_t(k)]),
                      coo.value(k));
  Eigen::SparseMatrix<double, Eigen::RowMajor> e(Eigen::Index(coo.rows), Eigen::Index(coo.cols));
  e.setFromTriplets(trip.begin(), trip.end());

  auto fill = Fill::create(rt.context());
  if (!fill) return fill.error();
  std::vector<SpmvRow> out;
  for (const sparse::SpmvKernel kernel : cli.kernels) {
    SpmvRow kr = row;
    sparse::SpmvOptions sopt;
    sopt.kernel = kernel;
    sopt.row_lanes = cli.row_lanes;
    sopt.items_per_invocation = cli.items;
    auto ap = analyzed_plan<T>(rt, *a, sopt, kr);
    if (!ap) return ap.error();
    sparse::Spmv* plan = &ap->plan;
    const sparse::SpmvAnalysis* an = &ap->analysis;
    const sparse::CsrView view = a->view();
    // Column blocks (the analysis's recommendation, or --column-blocks): A split once, each
    // block analyzed; the timed runs record the product over the blocks.
    const uint32_t blocks =
        coo.cols == 0 ? 1
                      : uint32_t(std::min<uint64_t>(
                            cli.column_blocks ? cli.column_blocks : an->column_blocks,
                            uint64_t(coo.cols)));
    std::vector<sparse::DeviceCsr> parts;
    std::vector<sparse::CsrView> views;
    std::vector<sparse::SpmvAnalysis> analyses;
    if (blocks > 1) {
      const auto s0 = std::chrono::steady_clock::now();
      auto split = sparse::split_columns(rt, view, blocks);
      if (!split) return split.error();
      kr.split_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();
      parts = std::move(*split);
      uint64_t most = 0;
      for (const auto& part : parts) {
        auto pa = plan->analyze(rt, part.view());
        if (!pa) return pa.error();
        views.push_back(part.view());
        analyses.push_back(*pa);
        most = std::max(most, part.nnz());
      }
      VKPRIM_TRY(plan->reserve(a->rows(), most));
      kr.column_blocks = blocks;
      kr.kernel = to_string(analyses[0].kernel);  // the first block's (each has its own)
      if (analyses[0].skip_empty_rows) kr.kernel += "-skip-empty";
      kr.row_lanes = analyses[0].kernel == sparse::SpmvKernel::rows ||
                             analyses[0].kernel == sparse::SpmvKernel::split
                         ? analyses[0].row_lanes
                         : 0;
    }
    // y poisoned first (NaN bits), so a row the kernel failed to write cannot pass.
    if (coo.rows > 0)
      VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) {
        return fill->record(cmd, yb->view().sub(0, size_t(coo.rows) * sizeof(T)), 0xFFFFFFFFu, 4);
      }));
    auto t = time_gpu(rt, runs, 2, cli.back_to_back, [&](VkCommandBuffer cmd) {
      return blocks > 1 ? plan->record(cmd, views, xb->view(), yb->view(), 1.0, 0.0, analyses)
                        : plan->record(cmd, view, xb->view(), yb->view(), 1.0, 0.0, *an);
    });
    if (!t) return t.error();
    kr.t = *t;
    auto y = rt.download<T>(yb->view(), size_t(coo.rows));
    if (!y) return y.error();
    double num2 = 0, den2 = 0;
    kr.verified = true;
    const double eps = std::numeric_limits<T>::epsilon();
    for (Eigen::Index r = 0; r < e.rows(); ++r) {
      double ref = 0, abs_sum = 0;
      int64_t len = 0;
      for (decltype(e)::InnerIterator it(e, r); it; ++it, ++len) {
        const double p = double(T(it.value())) * double(x[size_t(it.col())]);
        ref += p;
        abs_sum += std::abs(p);
      }
      const double got = double((*y)[size_t(r)]);
      // Rows whose reference (rounded to T) or result is not finite (inf or nan entries, or a
      // sum beyond T's range) have no rounding bound: they match by class, and stay out of the
      // error statistics.
      if (!std::isfinite(double(T(ref))) || !std::isfinite(got)) {
        if (!same_nonfinite_class(got, double(T(ref)))) kr.verified = false;
        continue;
      }
      const double err = std::abs(got - ref);
      num2 += err * err;
      den2 += ref * ref;
      if (abs_sum > 0) kr.max_err = std::max(kr.max_err, err / abs_sum);
      if (!(err <= double(len + 8) * eps * abs_sum)) kr.verified = false;
    }
    kr.rel_err2 = den2 > 0 ? std::sqrt(num2 / den2) : std::sqrt(num2);
    out.push_back(std::move(kr));
  }
  return out;
}

// A complex matrix (Field::complex): complex64 (T = float) or complex128 (T = double) values.
// The CSR is built on the host (to_csr, duplicates summed as Eigen's setFromTriplets does) and
// uploaded: the GPU CSR build moves real values only. x_j = x_value(j) + i x_value(j + 7919);
// the reference is Eigen's complex SparseMatrix product in complex<double> of the values the
// GPU saw (each part rounded to T).
template <class T>
Result<std::vector<SpmvRow>> run_one_complex(Runtime& rt, const std::string& name,
                                             const sparse::CooMatrix& coo,
                                             const SpmvCliOptions& cli) {
  using C = std::complex<double>;
  const uint32_t runs = cli.runs;
  SpmvRow row;
  row.name = name;
  row.rows = coo.rows;
  row.cols = coo.cols;
  row.values = sizeof(T) == 4 ? "c64" : "c128";
  if (coo.rows >= (int64_t(1) << 31) || coo.cols >= (int64_t(1) << 31) ||
      coo.nnz() >= (int64_t(1) << 31))
    return make_error(Errc::limit_exceeded,
                      name + ": too large for the Eigen reference (int indices)");
  // Each part rounded to T, through a volatile T: GCC 12 at -O2 and above folds the round trip
  // double -> float -> double of a std::complex part away.
  auto round_part = [](double v) {
    volatile T t = T(v);
    return double(t);
  };
  auto round = [&](C v) { return C(round_part(v.real()), round_part(v.imag())); };

  const auto c0 = std::chrono::steady_clock::now();
  auto host = sparse::to_csr(coo, true);
  if (!host) return host.error();
  sparse::DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  dopt.complex = true;
  auto a = sparse::DeviceCsr::upload(rt, *host, dopt);
  if (!a) return a.error();
  row.csr_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c0).count();
  row.csr_build = "host";
  row.nnz = int64_t(a->nnz());

  std::vector<T> x(2 * size_t(coo.cols));
  for (size_t j = 0; j < size_t(coo.cols); ++j) {
    x[2 * j] = T(x_value(j));
    x[2 * j + 1] = T(x_value(j + 7919));
  }
  auto xb = rt.alloc(std::max<size_t>(x.size() * sizeof(T), 16));
  if (!xb) return xb.error();
  if (!x.empty()) VKPRIM_TRY(rt.upload(xb->view(), x.data(), x.size() * sizeof(T)));
  auto yb = rt.alloc(std::max<size_t>(2 * size_t(coo.rows) * sizeof(T), 16));
  if (!yb) return yb.error();
  const double esz = 2 * sizeof(T);
  row.bytes = double(a->rows() + 1) * (a->row_ptr_64() ? 8 : 4) + double(a->nnz()) * (4 + esz) +
              double(std::min<int64_t>(coo.cols, row.nnz)) * esz + double(a->rows()) * esz;

  // Reference: Eigen's complex SparseMatrix (setFromTriplets) times x, in complex<double>.
  std::vector<Eigen::Triplet<C>> trip;
  trip.reserve(size_t(coo.nnz()));
  for (int64_t k = 0; k < coo.nnz(); ++k)
    trip.emplace_back(int(coo.row_indices[size_t(k)]), int(coo.col_indices[size_t(k)]),
                      coo.complex_values[size_t(k)]);
  Eigen::SparseMatrix<C, Eigen::RowMajor> e(Eigen::Index(coo.rows), Eigen::Index(coo.cols));
  e.setFromTriplets(trip.begin(), trip.end());
  for (Eigen::Index k = 0; k < e.nonZeros(); ++k) e.valuePtr()[k] = round(e.valuePtr()[k]);
  Eigen::VectorX<C> xe(Eigen::Index(coo.cols));
  for (Eigen::Index j = 0; j < xe.size(); ++j)
    xe[j] = C(double(x[2 * size_t(j)]), double(x[2 * size_t(j) + 1]));
  const Eigen::VectorX<C> ye = e * xe;

  auto fill = Fill::create(rt.context());
  if (!fill) return fill.error();
  std::vector<SpmvRow> out;
  for (const sparse::SpmvKernel kernel : cli.kernels) {
    SpmvRow kr = row;
    sparse::SpmvOptions sopt;
    sopt.kernel = kernel;
    sopt.row_lanes = cli.row_lanes;
    sopt.items_per_invocation = cli.items;
    sopt.complex = true;
    auto ap = analyzed_plan<T>(rt, *a, sopt, kr);
    if (!ap) return make_error(ap.error().code, name + ": " + ap.error().message);
    sparse::Spmv* plan = &ap->plan;
    const sparse::SpmvAnalysis* an = &ap->analysis;
    const sparse::CsrView view = a->view();
    if (cli.column_blocks > 1)
      return make_error(Errc::unsupported,
                        name + ": --column-blocks: complex matrices are not split by columns");
    if (coo.rows > 0)
      VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) {
        return fill->record(cmd, yb->view().sub(0, 2 * size_t(coo.rows) * sizeof(T)), 0xFFFFFFFFu,
                            4);
      }));
    auto t = time_gpu(rt, runs, 2, cli.back_to_back, [&](VkCommandBuffer cmd) {
      return plan->record(cmd, view, xb->view(), yb->view(), 1.0, 0.0, *an);
    });
    if (!t) return t.error();
    kr.t = *t;
    auto y = rt.download<T>(yb->view(), 2 * size_t(coo.rows));
    if (!y) return y.error();
    double num2 = 0, den2 = 0;
    kr.verified = true;
    const double eps = std::numeric_limits<T>::epsilon();
    for (Eigen::Index r = 0; r < e.rows(); ++r) {
      double abs_sum = 0;
      int64_t len = 0;
      for (typename decltype(e)::InnerIterator it(e, r); it; ++it, ++len)
        abs_sum += std::abs(it.value()) * std::abs(xe[it.col()]);
      const C ref = ye[r];
      const C got{double((*y)[2 * size_t(r)]), double((*y)[2 * size_t(r) + 1])};
      const C ref_t = round(ref);
      if (!std::isfinite(ref_t.real()) || !std::isfinite(ref_t.imag()) ||
          !std::isfinite(got.real()) || !std::isfinite(got.imag())) {
        if (!same_nonfinite_class(got.real(), ref_t.real()) ||
            !same_nonfinite_class(got.imag(), ref_t.imag()))
          kr.verified = false;
        continue;
      }
      const double err = std::abs(got - ref);
      num2 += err * err;
      den2 += std::norm(ref);
      if (abs_sum > 0) kr.max_err = std::max(kr.max_err, err / abs_sum);
      // A complex product rounds twice per part (two products and a sum): twice the real bound.
      if (!(err <= double(2 * len + 8) * eps * abs_sum)) kr.verified = false;
    }
    kr.rel_err2 = den2 > 0 ? std::sqrt(num2 / den2) : std::sqrt(num2);
    out.push_back(std::move(kr));
  }
  return out;
}

}  // namespace

void register_spmv(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "spmv", "Sparse matrix-vector product y = A x on the GPU, validated against Eigen");
  static std::vector<std::string> files;
  static std::vector<std::string> generate;
  static std::string values = "f32", json_path;
  static uint32_t runs = 20, back_to_back = 1, row_lanes = 0, items = 0, column_blocks = 0;
  static std::string kernel = "auto", sort_algorithm = "auto";
  static bool pipeline_stats = false;
  cmd->add_option("FILE", files, "Matrix files (.mtx, .mtx.gz, .bsp.h5)");
  cmd->add_option(
         "--generate", generate,
         "Generated matrix: poisson2d:N, poisson3d:N, convdiff:N, band:N:K, powerlaw:N, arrow:N "
         "(default poisson2d:64 "
         "when no FILE is given); repeatable")
      ->allow_extra_args(false);
  cmd->add_option(
         "--values", values,
         "Value type: f32 or f64; for a complex matrix the type of each part (complex64 or "
         "complex128)")
      ->check(CLI::IsMember({"f32", "f64"}))
      ->capture_default_str();
  cmd->add_option("--runs", runs, "Timed runs (median and min reported)")
      ->check(decimal_in(1, 100000))
      ->capture_default_str();
  cmd->add_option("--back-to-back", back_to_back,
                  "Time K products recorded back to back (a full barrier between them, no "
                  "timestamp) and report the time per product: what a caller recording many "
                  "products gets (small matrices)")
      ->check(decimal_in(1, 10000))
      ->capture_default_str();
  cmd->add_option("--kernel", kernel,
                  "SpMV kernel: auto (row kernel for regular rows, split kernel otherwise, "
                  "nonzero tiles or merge path where it cannot run; from row-length "
                  "statistics), merge, rows, stream (CSR-Stream), "
                  "split (row kernel + long rows split over workgroups), nnz (fixed tiles of "
                  "nonzeros); a comma list (auto,merge,nnz) runs each matrix under each")
      ->capture_default_str();
  cmd->add_option("--row-lanes", row_lanes,
                  "Row kernel: lanes per row (power of two <= subgroup size; 0: from the mean "
                  "row length)")
      ->check(decimal_in(0, 128))
      ->capture_default_str();
  cmd->add_option("--column-blocks", column_blocks,
                  "Column blocks: A split by columns (sparse::split_columns, once per matrix, "
                  "not timed) and the product run over the blocks; 0: as the analysis "
                  "recommends (SpmvAnalysis::column_blocks), 1: none")
      ->check(decimal_in(0, 64))
      ->capture_default_str();
  cmd->add_option("--items", items,
                  "Stream kernel: entries per invocation per chunk (1..16; 0: tuned default)")
      ->check(decimal_in(0, 16))
      ->capture_default_str();
  add_sort_algorithm_option(cmd, sort_algorithm,
                            "The CSR build's radix sort (the same CSR either way)");
  cmd->add_option("--json", json_path,
                  "Write JSON records to FILE (replaced only once complete; - for stdout: the "
                  "table goes to stderr)");
  cmd->add_flag("--pipeline-stats", pipeline_stats,
                "Print the driver's statistics of every pipeline the run created (registers, "
                "local memory; where the device reports them); with --json, records too");
  cmd->callback([&action] {
    action = [] {
      if (auto problem = device_selector_problem(); !problem.empty())
        return report(make_error(Errc::invalid_argument, problem), kExitUsage);
      for (const auto& f : files)
        if (auto same = same_file_problem(f, json_path); !same.empty())
          return report(make_error(Errc::invalid_argument, same), kExitUsage);
      // Generated matrices are made up front (a bad spec is a usage error); files are read one
      // at a time as their turn comes, so that a batch holds one matrix in memory and a file
      // that cannot be read or run is reported and skipped: the others still run, and the
      // exit status says that one failed.
      std::vector<std::pair<std::string, sparse::CooMatrix>> generated;
      if (files.empty() && generate.empty()) generate.push_back("poisson2d:64");
      for (const auto& g : generate) {
        auto m = generate_matrix(g);
        if (!m) return report(m.error(), kExitUsage);
        generated.emplace_back(g, std::move(*m));
      }
      for (const auto& f : files)
        if (auto fmt = sparse::format_of(f); !fmt) return report(fmt.error(), kExitUsage);
      CreateInfo ci;
      ci.pipeline_statistics = pipeline_stats;
      auto rt = Runtime::create(ci);
      if (!rt) return report(rt.error());
      SpmvCliOptions cli;
      cli.runs = runs;
      cli.back_to_back = back_to_back;
      cli.kernels.clear();
      for (size_t at = 0; at <= kernel.size();) {
        const size_t comma = std::min(kernel.find(',', at), kernel.size());
        const std::string k = kernel.substr(at, comma - at);
        bool known = false;
        for (uint32_t i = 0; i <= uint32_t(sparse::SpmvKernel::nnz) && !known; ++i)
          if (k == to_string(sparse::SpmvKernel(i))) {
            cli.kernels.push_back(sparse::SpmvKernel(i));
            known = true;
          }
        if (!known)
          return report(make_error(Errc::invalid_argument,
                                   "--kernel: '" + k +
                                       "' is not auto, merge, rows, stream, split or nnz"),
                        kExitUsage);
        at = comma + 1;
      }
      cli.row_lanes = row_lanes;
      cli.column_blocks = column_blocks;
      cli.items = items;
      cli.sort_algorithm = sort_algorithm_named(sort_algorithm);
      std::vector<SpmvRow> rows;
      std::vector<std::string> failed;  // matrices reported and skipped
      auto run = [&](const std::string& name, const sparse::CooMatrix& m) {
        const bool f64 = values == "f64";
        auto one_run = [&](const SpmvCliOptions& c, const std::string& what) {
          auto r = m.field == sparse::Field::complex
                       ? (f64 ? run_one_complex<double>(*rt, name, m, c)
                              : run_one_complex<float>(*rt, name, m, c))
                       : (f64 ? run_one<double>(*rt, name, m, c) : run_one<float>(*rt, name, m, c));
          if (!r) {
            const std::string& msg = r.error().message;
            report(msg.rfind(name, 0) == 0 ? r.error()
                                           : make_error(r.error().code, name + ": " + msg));
            failed.push_back(what);
            return;
          }
          for (auto& one : *r) rows.push_back(std::move(one));
        };
        if (m.field != sparse::Field::complex || cli.kernels.size() == 1) return one_run(cli, name);
        // Complex values run on fewer kernels: each kernel of the list on its own, so that a
        // refused one does not take the others with it.
        for (const sparse::SpmvKernel k : cli.kernels) {
          SpmvCliOptions c = cli;
          c.kernels = {k};
          one_run(c, name + " (--kernel " + to_string(k) + ")");
        }
      };
      for (const auto& [name, m] : generated) run(name, m);
      generated.clear();
      for (const auto& f : files) {
        auto m = sparse::read_matrix_file(f, matrix_read_options(f, true, false));
        if (!m) {
          report(m.error());  // the readers' messages name the file
          failed.push_back(f);
          continue;
        }
        run(std::filesystem::path(f).filename().string(), *m);
      }
      std::FILE* out = json_path == "-" ? stderr : stdout;
      fmt::print(out, "device: {} ({}), subgroup size {}\n", rt->caps().device_name,
                 rt->caps().driver_name, rt->caps().subgroup_size);
      fmt::print(out,
                 "{:<22} {:>9} {:>9} {:>10} {:<4} {:<25} {:>10} {:>10} {:>9} {:>8} {:>10} {:>10} "
                 "{:>8}\n",
                 "matrix", "rows", "cols", "nnz", "type", "kernel", "median ms", "min ms",
                 "GFLOP/s", "GB/s", "rel err", "max err", "verified");
      for (const auto& r : rows) {
        const double s = r.t.median_ms * 1e-3;
        std::string k = r.row_lanes ? fmt::format("{}/L{}", r.kernel, r.row_lanes) : r.kernel;
        if (r.column_blocks > 1) k += fmt::format("/B{}", r.column_blocks);
        if (r.kernel_option == "auto") k = "auto:" + k;
        fmt::print(out,
                   "{:<22} {:>9} {:>9} {:>10} {:<4} {:<25} {:>10.4f} {:>10.4f} {:>9.2f} {:>8.1f} "
                   "{:>10.2e} {:>10.2e} {:>8}\n",
                   r.name, r.rows, r.cols, r.nnz, r.values, k, r.t.median_ms, r.t.min_ms,
                   s > 0 ? flops_per_entry(r) * double(r.nnz) / s * 1e-9 : 0.0,
                   s > 0 ? r.bytes / s * 1e-9 : 0.0, r.rel_err2, r.max_err,
                   r.verified ? "yes" : "NO");
      }
      for (const auto& r : rows)
        fmt::print(out,
                   "{}: rows {} mean {:.2f} max {} empty {}: --kernel {} ran {} (analysis {:.3f} "
                   "ms wall, once per matrix, not in the timings)\n",
                   r.name, r.stats.rows, r.stats.mean_row_length(), r.stats.max_row_length,
                   r.stats.empty_rows, r.kernel_option, r.kernel, r.analyze_ms);
      for (const auto& r : rows)
        if (r.column_blocks > 1)
          fmt::print(out,
                     "{}: split into {} column blocks in {:.3f} ms wall (once per matrix, not in "
                     "the timings); the product ran over the blocks\n",
                     r.name, r.column_blocks, r.split_ms);
      for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        if (i && rows[i - 1].name == r.name) continue;  // one line per matrix
        fmt::print(out, "{}: CSR built on the {} in {:.3f} ms ({})\n", r.name, r.csr_build,
                   r.csr_ms, r.csr_build == "GPU" ? "GPU timestamps, median" : "wall clock");
      }
      const auto stats = rt->context().pipeline_statistics();
      if (pipeline_stats) print_pipeline_statistics(stats, out);
      if (!json_path.empty()) {
        nlohmann::json arr = nlohmann::json::array();
        const auto& c = rt->caps();
        for (const auto& r : rows) {
          const double s = r.t.median_ms * 1e-3;
          arr.push_back({{"device", c.device_name},
                         {"driver", c.driver_name + " " + c.driver_info},
                         {"subgroup_size", c.subgroup_size},
                         {"operation", "spmv"},
                         {"matrix", r.name},
                         {"type", r.values},
                         {"rows", r.rows},
                         {"cols", r.cols},
                         {"nnz", r.nnz},
                         {"runs", runs},
                         {"back_to_back", back_to_back},
                         {"median_ms", r.t.median_ms},
                         {"min_ms", r.t.min_ms},
                         {"runs_ms", r.t.runs_ms},
                         {"retimed", r.t.retimed},
                         {"gflops", s > 0 ? flops_per_entry(r) * double(r.nnz) / s * 1e-9 : 0.0},
                         {"bytes", r.bytes},
                         {"GBps", s > 0 ? r.bytes / s * 1e-9 : 0.0},
                         {"rel_err", r.rel_err2},
                         {"max_row_err", r.max_err},
                         {"verified", r.verified},
                         {"csr_build", r.csr_build},
                         {"csr_ms", r.csr_ms},
                         {"csr_passes", passes_json(r.csr_passes)},
                         {"sort_algorithm_option", sort_algorithm},
                         {"passes", passes_json(r.t.passes)},
                         {"kernel_option", r.kernel_option},
                         {"kernel", r.kernel},
                         {"row_lanes", r.row_lanes},
                         {"column_blocks", r.column_blocks},
                         {"split_ms", r.split_ms},
                         {"wide_rows", r.stats.wide_rows},
                         {"items", items},
                         {"max_row", r.stats.max_row_length},
                         {"empty_rows", r.stats.empty_rows},
                         {"long_rows", r.stats.long_rows},
                         {"long_threshold", r.stats.long_threshold},
                         {"mean_row", r.stats.mean_row_length()},
                         {"analyze_ms", r.analyze_ms}});
        }
        for (const auto& ps : stats) arr.push_back(to_json(ps));
        if (json_path == "-") {
          std::cout << arr.dump(2) << "\n";  // a failed write is reported by main
        } else if (auto written = vkprim::detail::write_file_atomically(json_path, arr.dump(2) + "\n");
                   !written) {
          return report(written.error());
        }
      }
      bool unverified = false;
      for (const auto& r : rows)
        if (!r.verified) {
          fmt::print(stderr, "vkprim: {}: y differs from Eigen beyond the rounding bound\n",
                     r.name);
          unverified = true;
        }
      if (!failed.empty()) {
        std::string list;
        for (const auto& f : failed) list += (list.empty() ? "" : ", ") + f;
        fmt::print(stderr,
                   "vkprim: failed: {} (of {} matrices; the other results are in the table)\n",
                   list, generate.size() + files.size());
      }
      return unverified || !failed.empty() ? kExitFailure : kExitOk;
    };
  });
}

}  // namespace vkprim::cli

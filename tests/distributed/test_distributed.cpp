// Distributed CSR and SpMV (include/vkprim/sparse/distributed.hpp), run at 1, 2 and 3 ranks:
// the distributed product equals vkprim's single-device SpMV within rounding on generated
// Poisson matrices, on matrices with a rank without rows, a rank without ghosts and a dense row,
// and on the shared real matrices; f32 and f64; alpha and beta. Bad input on one rank fails
// every rank with the same error. Every test case is collective: each rank runs it, and
// REQUIRE is used only on agreed results (the same on every rank), so no rank leaves a test
// case while the others wait in a collective.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vkprim/sparse/matrix_file.hpp>

#include "distributed_support.hpp"

using namespace vkprim;
using namespace vkprim::sparse;
using vkprim::test::check_same_error;
using vkprim::test::rank_gpu;

namespace {

template <class T>
void check_product(const DistributedCsr& d, DistributedSpmv& plan, const CsrMatrix& full,
                   double alpha, double beta, uint32_t seed) {
  Runtime& rt = rank_gpu();
  INFO("rank " << d.rank() << " of " << d.ranks() << ", " << to_string(value_type_of<T>())
               << ", alpha " << alpha << ", beta " << beta);
  const auto x = test::vector_of(full.cols, seed), y0 = test::vector_of(full.rows, seed + 1);
  const auto want = test::single_device<T>(full, x, y0, alpha, beta);
  auto xs = test::cast<T>(x, size_t(d.col_begin()), size_t(d.col_begin() + d.local_cols()));
  auto ys = test::cast<T>(y0, size_t(d.row_begin()), size_t(d.row_begin() + d.local_rows()));
  // beta == 0 must not read y: NaN there would show.
  if (beta == 0.0) std::fill(ys.begin(), ys.end(), std::numeric_limits<T>::quiet_NaN());
  const std::vector<T> pad{T(0)};
  const Buffer xb = rt.upload(xs.empty() ? pad : xs).value();
  const Buffer yb = rt.upload(ys.empty() ? pad : ys).value();
  const Status s = plan.run(xb.view(), yb.view(), alpha, beta);
  INFO((s ? std::string("ok") : s.error().describe()));
  REQUIRE(s.ok());
  const auto got_t = rt.download<T>(yb.view(), ys.size()).value();
  const std::vector<double> got(got_t.begin(), got_t.end());
  CHECK(test::mismatches<T>(full, x, y0, alpha, beta, d.row_begin(), d.row_begin() + d.local_rows(),
                            got, want) == 0);
}

// The blocks of this rank's rows: the ghost block holds exactly the rows with an entry in
// another rank's columns, ghost_rows() their local indices in order, and the two blocks hold
// every entry of the rows.
void check_blocks(const DistributedCsr& d, const CsrMatrix& full) {
  std::vector<uint32_t> want_rows;
  int64_t entries = 0;
  for (int64_t r = 0; r < d.local_rows(); ++r) {
    const int64_t g = d.row_begin() + r;
    bool ghost = false;
    for (int64_t k = full.row_offsets[size_t(g)]; k < full.row_offsets[size_t(g) + 1]; ++k) {
      const int64_t c = full.col_indices[size_t(k)];
      ghost = ghost || c < d.col_begin() || c >= d.col_begin() + d.local_cols();
      ++entries;
    }
    if (ghost) want_rows.push_back(uint32_t(r));
  }
  INFO("rank " << d.rank() << " of " << d.ranks());
  CHECK(d.local_block().rows == uint64_t(d.local_rows()));
  REQUIRE(d.ghost_block().rows == want_rows.size());
  CHECK(int64_t(d.local_block().nnz + d.ghost_block().nnz) == entries);
  if (!want_rows.empty())
    CHECK(rank_gpu().download<uint32_t>(d.ghost_rows(), want_rows.size()).value() == want_rows);
}

// Every alpha/beta case the single-device SpMV distinguishes, f32 and f64 (where the device
// has shaderFloat64), on one distributed matrix built twice (once per value type) by `make`.
// The products run on the shared plan (plan_for), or on a plan of their own when `own_plan`.
template <class Make>
void check_all(const CsrMatrix& full, Make&& make, bool own_plan = false) {
  for (ValueType type : {ValueType::f32, ValueType::f64}) {
    if (type == ValueType::f64 && !rank_gpu().caps().shader_float64) continue;
    DistributedCsrOptions o;
    o.values = type;
    auto d = make(o);
    INFO((d ? std::string("built") : d.error().describe()));
    REQUIRE(d.ok());
    CHECK(d->rows() == full.rows);
    CHECK(d->cols() == full.cols);
    CHECK(d->nnz() == full.nnz());
    check_blocks(*d, full);
    auto plan =
        own_plan ? DistributedSpmv::create(*d) : DistributedSpmv::create(*d, test::plan_for(type));
    INFO((plan ? std::string("planned") : plan.error().describe()));
    REQUIRE(plan.ok());
    if (type == ValueType::f32) {
      check_product<float>(*d, *plan, full, 1.0, 0.0, 1);
      check_product<float>(*d, *plan, full, -0.5, 2.0, 3);
      check_product<float>(*d, *plan, full, 0.0, 0.5, 5);
    } else {
      check_product<double>(*d, *plan, full, 1.0, 0.0, 7);
      check_product<double>(*d, *plan, full, 1.5, -1.0, 9);
    }
  }
}

CsrMatrix whole_poisson(const PoissonGrid& g) {
  return poisson_block(g, 0, poisson_rows(g)).value();
}

}  // namespace

TEST_CASE("partitions and Poisson rows on the host", "[distributed][host]") {
  CHECK(validate_partition(std::vector<int64_t>{0, 3, 3, 7}, 7, 3).ok());
  CHECK(validate_partition(std::vector<int64_t>{0, 3, 7}, 7, 3).error().code ==
        Errc::invalid_argument);
  CHECK(validate_partition(std::vector<int64_t>{0, 4, 3, 7}, 7, 3).error().code ==
        Errc::invalid_argument);
  CHECK(validate_partition(std::vector<int64_t>{0, 3, 3, 8}, 7, 3).error().code ==
        Errc::invalid_argument);
  CHECK(validate_partition(std::vector<int64_t>{1, 3, 3, 7}, 7, 3).error().code ==
        Errc::invalid_argument);
  CHECK(partition_evenly(7, 3) == Partition{0, 3, 5, 7});
  CHECK(partition_evenly(2, 3) == Partition{0, 1, 2, 2});
  // One row holding most entries: the ranks after it get what is left, or nothing.
  CHECK(partition_by_nonzeros(std::vector<int64_t>{0, 1, 101, 102}, 3) == Partition{0, 2, 2, 3});
  CHECK(partition_by_nonzeros(std::vector<int64_t>{0}, 2) == Partition{0, 0, 0});
  CHECK(partition_by_nonzeros(std::vector<int64_t>{0, 2, 4, 6, 8}, 2) == Partition{0, 2, 4});

  CHECK(PoissonGrid::parse("poisson2d:5").value().nx == 5);
  CHECK(PoissonGrid::parse("poisson3d:4").value().nz == 4);
  CHECK(PoissonGrid::parse("poisson4d:4").error().code == Errc::invalid_argument);
  CHECK(PoissonGrid::parse("poisson2d:0").error().code == Errc::invalid_argument);
  CHECK(PoissonGrid::parse("poisson2d:x").error().code == Errc::invalid_argument);
  CHECK(validate(PoissonGrid{int64_t(1) << 21, int64_t(1) << 21, int64_t(1) << 21}).error().code ==
        Errc::invalid_argument);
  // poisson_entries_before is the generated row pointer, and poisson_partition the partition
  // by nonzeros of the generated matrix.
  for (const PoissonGrid g : {PoissonGrid{1, 1, 1}, PoissonGrid{7, 1, 1}, PoissonGrid{1, 6, 1},
                              PoissonGrid{13, 9, 1}, PoissonGrid{5, 4, 3}, PoissonGrid{2, 1, 6}}) {
    const CsrMatrix m = whole_poisson(g);
    INFO(g.nx << " x " << g.ny << " x " << g.nz);
    for (int64_t r = 0; r <= m.rows; ++r)
      CHECK(poisson_entries_before(g, r) == m.row_offsets[size_t(r)]);
    for (int ranks : {1, 2, 3, 5, 200})
      CHECK(poisson_partition(g, ranks) == partition_by_nonzeros(m.row_offsets, ranks));
    // Symmetric, diagonal first-class: every entry (r, c) has its mirror.
    int64_t asym = 0;
    for (int64_t r = 0; r < m.rows; ++r)
      for (int64_t k = m.row_offsets[size_t(r)]; k < m.row_offsets[size_t(r) + 1]; ++k) {
        const int64_t c = m.col_indices[size_t(k)];
        const auto b = m.col_indices.begin() + m.row_offsets[size_t(c)];
        const auto e = m.col_indices.begin() + m.row_offsets[size_t(c) + 1];
        asym += !std::binary_search(b, e, r);
      }
    CHECK(asym == 0);
  }
  const CsrMatrix part = poisson_block(PoissonGrid{6, 5, 4}, 37, 80).value();
  const CsrMatrix whole = whole_poisson(PoissonGrid{6, 5, 4});
  CHECK(part.rows == 43);
  CHECK(part.cols == 120);
  CHECK(std::equal(part.col_indices.begin(), part.col_indices.end(),
                   whole.col_indices.begin() + whole.row_offsets[37]));
  CHECK(poisson_block(PoissonGrid{6, 5, 4}, 80, 37).error().code == Errc::invalid_argument);
}

TEST_CASE("distributed SpMV equals single-device SpMV on generated Poisson matrices",
          "[distributed][poisson]") {
  for (const PoissonGrid g :
       {PoissonGrid{37, 29, 1}, PoissonGrid{11, 9, 7}, PoissonGrid{1, 2, 1}}) {
    INFO("poisson " << g.nx << " x " << g.ny << " x " << g.nz);
    const CsrMatrix full = whole_poisson(g);
    check_all(
        full,
        [&](const DistributedCsrOptions& o) {
          return DistributedCsr::poisson(rank_gpu(), MPI_COMM_WORLD, g, o);
        },
        g.nz > 1);
  }
  // The same matrix scattered from rank 0 is partitioned alike and holds the same halo.
  const PoissonGrid g{23, 17, 1};
  const CsrMatrix full = whole_poisson(g);
  auto a = DistributedCsr::poisson(rank_gpu(), MPI_COMM_WORLD, g);
  auto b = DistributedCsr::scatter(rank_gpu(), MPI_COMM_WORLD,
                                   test::world_rank() == 0 ? &full : nullptr);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->row_partition() == b->row_partition());
  CHECK(a->halo().send_indices == b->halo().send_indices);
  CHECK(a->halo().ghost_columns == b->halo().ghost_columns);
  // A 5-point stencil's block of whole grid lines needs one grid line from each neighbour.
  if (a->ranks() > 1 && a->local_rows() > 0) CHECK(a->halo().recv_count() <= 2 * g.nx);
}

TEST_CASE("a rank without rows, a rank without ghosts, a dense row", "[distributed][shapes]") {
  // 300 x 300: rows [0, 150) touch only columns [0, 150); rows [150, 300) reach anywhere, and
  // row 200 is dense.
  const int64_t n = 300;
  CooMatrix coo;
  coo.rows = coo.cols = n;
  const auto add = [&](int64_t r, int64_t c, double v) {
    coo.row_indices.push_back(r);
    coo.col_indices.push_back(c);
    coo.real_values.push_back(v);
  };
  for (int64_t r = 0; r < n; ++r) {
    add(r, r, 4.0);
    for (int k = 0; k < 3; ++k) {
      const int64_t span = r < 150 ? 150 : n;
      add(r, int64_t(test::hash32(uint64_t(r * 3 + k), 21) % uint64_t(span)),
          test::value_at(uint64_t(r * 3 + k), 22));
    }
  }
  for (int64_t c = 0; c < n; ++c) add(200, c, test::value_at(uint64_t(c), 23));
  const CsrMatrix full = to_csr(coo, true).value();
  const int ranks = test::world_size();
  const bool root = test::world_rank() == 0;

  // The first rank owns [0, 150) and needs no ghosts; the ranks between own nothing.
  Partition split(size_t(ranks) + 1, 150);
  split.front() = 0;
  split.back() = n;
  if (ranks == 1) split = {0, n};
  check_all(full, [&](DistributedCsrOptions o) {
    o.row_partition = split;
    auto d = DistributedCsr::scatter(rank_gpu(), MPI_COMM_WORLD, root ? &full : nullptr, o);
    if (d && d->rank() == 0) CHECK(d->halo().recv_count() == 0);
    if (d && d->local_rows() == 0) CHECK(d->halo().recv_count() == 0);
    return d;
  });
  // Every row on the last rank: the others own no rows and no columns.
  Partition last(size_t(ranks) + 1, 0);
  last.back() = n;
  check_all(full, [&](DistributedCsrOptions o) {
    o.row_partition = last;
    return DistributedCsr::scatter(rank_gpu(), MPI_COMM_WORLD, root ? &full : nullptr, o);
  });
  // Balanced by nonzeros, the dense row included; and from each rank's own rows.
  check_all(full, [&](const DistributedCsrOptions& o) {
    return DistributedCsr::scatter(rank_gpu(), MPI_COMM_WORLD, root ? &full : nullptr, o);
  });
  check_all(full, [&](const DistributedCsrOptions& o) {
    const CsrMatrix mine = test::rows_of(full, partition_evenly(n, ranks), test::world_rank());
    return DistributedCsr::from_rows(rank_gpu(), MPI_COMM_WORLD, n, n, mine, o);
  });

  // A rectangular matrix: x is partitioned by columns apart from the rows.
  CooMatrix wide = coo;
  wide.cols = 451;
  for (int64_t r = 0; r < n; r += 7) {
    wide.row_indices.push_back(r);
    wide.col_indices.push_back(300 + r / 2);
    wide.real_values.push_back(1.25);
  }
  const CsrMatrix wide_csr = to_csr(wide, true).value();
  check_all(wide_csr, [&](const DistributedCsrOptions& o) {
    return DistributedCsr::scatter(rank_gpu(), MPI_COMM_WORLD, root ? &wide_csr : nullptr, o);
  });
}

TEST_CASE("distributed SpMV equals single-device SpMV on the shared real matrices",
          "[distributed][shared]") {
  const auto dir = test::shared_dir() / "matrices" / "real";
  if (test::shared_dir().empty() || !std::filesystem::is_directory(dir)) {
    WARN("shared matrices not found (" << dir.string() << "): skipped");
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".mtx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    INFO(path.filename().string());
    // Every rank reads the file for its reference; the distributed matrix is read on rank 0.
    MatrixMarketReadOptions ro;
    ro.expand_symmetry = true;
    ro.sum_duplicates = true;
    ro.threads = 1;
    auto coo = read_matrix_file(path, ro);
    REQUIRE(coo.ok());
    if (coo->field == Field::complex) continue;
    const CsrMatrix full = to_csr(*coo, true).value();
    DistributedCsrOptions o;
    auto d = DistributedCsr::read(rank_gpu(), MPI_COMM_WORLD, path, o);
    INFO((d ? std::string("read") : d.error().describe()));
    REQUIRE(d.ok());
    auto plan = DistributedSpmv::create(*d, test::plan_for(ValueType::f32));
    REQUIRE(plan.ok());
    check_product<float>(*d, *plan, full, 1.0, 0.0, 31);
    if (rank_gpu().caps().shader_float64) {
      o.values = ValueType::f64;
      auto d64 = DistributedCsr::read(rank_gpu(), MPI_COMM_WORLD, path, o);
      REQUIRE(d64.ok());
      auto plan64 = DistributedSpmv::create(*d64, test::plan_for(ValueType::f64));
      REQUIRE(plan64.ok());
      check_product<double>(*d64, *plan64, full, -1.0, 0.5, 33);
    }
  }
}

TEST_CASE("a rank that fails makes every rank return the same error", "[distributed][errors]") {
  Runtime& rt = rank_gpu();
  const int ranks = test::world_size(), me = test::world_rank();

  // A file missing on rank 0 (the only rank that reads it).
  const std::string missing = "/nonexistent/vkprim_distributed_missing.mtx";
  check_same_error(DistributedCsr::read(rt, MPI_COMM_WORLD, missing), Errc::io_error, "rank 0: ");
  check_same_error(DistributedCsr::read(rt, MPI_COMM_WORLD, missing), Errc::io_error,
                   "vkprim_distributed_missing.mtx");

  // A partition that does not cover the rows, one that differs between ranks, and one given
  // on some ranks only.
  const PoissonGrid g{9, 8, 1};
  DistributedCsrOptions bad;
  bad.row_partition = partition_evenly(poisson_rows(g) - 1, ranks);
  check_same_error(DistributedCsr::poisson(rt, MPI_COMM_WORLD, g, bad), Errc::invalid_argument,
                   "row partition");
  if (ranks > 1) {
    DistributedCsrOptions differs;
    differs.row_partition = partition_evenly(poisson_rows(g), ranks);
    if (me == ranks - 1) differs.row_partition[1] += 1;
    check_same_error(DistributedCsr::poisson(rt, MPI_COMM_WORLD, g, differs),
                     Errc::invalid_argument, "differs");
    DistributedCsrOptions some;
    if (me == 1) some.row_partition = partition_evenly(poisson_rows(g), ranks);
    check_same_error(DistributedCsr::poisson(rt, MPI_COMM_WORLD, g, some), Errc::invalid_argument,
                     "differs between ranks");
  }

  // A block that does not fit a device CSR, on the last rank only: all 2^32 + 5 columns of x
  // are its own. Every rank returns the last rank's error.
  {
    const int64_t cols = (int64_t(1) << 32) + 5;
    CsrMatrix mine;
    mine.cols = cols;
    mine.rows = me == 0 ? 1 : 0;
    mine.row_offsets = me == 0 ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0};
    if (me == 0) {
      mine.col_indices = {cols - 1};
      mine.real_values = {1.0};
    }
    DistributedCsrOptions o;
    o.col_partition.assign(size_t(ranks) + 1, 0);
    o.col_partition.back() = cols;
    const auto s = DistributedCsr::from_rows(rt, MPI_COMM_WORLD, 1, cols, mine, o);
    check_same_error(s, Errc::limit_exceeded, "rank " + std::to_string(ranks - 1) + ": ");
  }

  // A complex matrix on rank 0, and none at all.
  {
    CsrMatrix c;
    c.rows = c.cols = 1;
    c.field = Field::complex;
    c.row_offsets = {0, 1};
    c.col_indices = {0};
    c.complex_values = {{1.0, 2.0}};
    check_same_error(DistributedCsr::scatter(rt, MPI_COMM_WORLD, me == 0 ? &c : nullptr),
                     Errc::unsupported, "complex");
    check_same_error(DistributedCsr::scatter(rt, MPI_COMM_WORLD, nullptr), Errc::invalid_argument,
                     "no matrix on rank 0");
  }

  // A product whose x is too short on the last rank: every rank returns its error, and the next
  // product, with good arguments, is right (the exchange stayed in step).
  const CsrMatrix full = whole_poisson(g);
  auto d = DistributedCsr::poisson(rt, MPI_COMM_WORLD, g);
  REQUIRE(d.ok());
  // A plan for another value type (agreed: it is the same on every rank here).
  if (rt.caps().shader_float64)
    check_same_error(DistributedSpmv::create(*d, test::plan_for(ValueType::f64)),
                     Errc::invalid_argument, "the plan is for f64");
  auto plan = DistributedSpmv::create(*d, test::plan_for(ValueType::f32));
  REQUIRE(plan.ok());
  {
    const Buffer x = rt.alloc(uint64_t(std::max<int64_t>(d->local_cols(), 1)) * 4).value();
    const Buffer y = rt.alloc(uint64_t(std::max<int64_t>(d->local_rows(), 1)) * 4).value();
    const BufferView xv = me == ranks - 1 ? x.view().sub(0, 4) : x.view();
    check_same_error(plan->run(xv, y.view()), Errc::invalid_argument, "x holds");
  }
  check_product<float>(*d, *plan, full, 1.0, 0.0, 41);
  // The plan follows the matrix when it moves.
  DistributedCsr moved = std::move(*d);
  check_product<float>(moved, *plan, full, 2.0, 1.0, 43);
}

TEST_CASE("each rank's node-local rank picks its device", "[distributed][devices]") {
  auto local = node_local_rank(MPI_COMM_WORLD);
  REQUIRE(local.ok());
  CHECK(*local >= 0);
  CHECK(*local < test::world_size());
  // Ranks of one node are numbered 0, 1, ... in the order of their world ranks.
  int first = *local == 0 ? test::world_rank() : test::world_size();
  int lowest = 0;
  MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  CHECK(lowest == 0);
  // agree() with every rank ok, and with two failing ranks: the lower one's error, counted.
  CHECK(agree(MPI_COMM_WORLD, Status{}).ok());
  const int me = test::world_rank(), last = test::world_size() - 1;
  Status mine;
  if (me == last) mine = make_error(Errc::timeout, "late");
  if (me == 0 && last > 0) mine = make_error(Errc::io_error, "first");
  const Status s = agree(MPI_COMM_WORLD, mine);
  REQUIRE_FALSE(s.ok());
  if (last > 0) {
    CHECK(s.error().code == Errc::io_error);
    CHECK(s.error().message == "rank 0 (2 ranks failed): first");
  } else {
    CHECK(s.error().code == Errc::timeout);
    CHECK(s.error().message == "rank 0: late");
  }
}

// `vkprim convert IN OUT`: Matrix Market <-> Binsparse (and .mtx.gz, stdin/stdout), with
// symmetry expansion, duplicate summation, value and index types. OUT is replaced only by a
// complete file (the writers' AtomicFile); OUT naming IN is refused as bad usage.
#include "sparse_cli.hpp"

#include <vkprim/sparse/matrix_file.hpp>

namespace vkprim::cli {

void register_convert(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("convert", "Convert a matrix file (.mtx, .mtx.gz, .bsp.h5, - for stdin/stdout)");
  static std::string in, out, symmetry = "keep", values, index = "i64", format = "csr";
  static bool sum = false;
  cmd->add_option("IN", in, "Input file (- reads Matrix Market from stdin)")->required();
  cmd->add_option("OUT", out, "Output file (- writes Matrix Market to stdout)")->required();
  cmd->add_option("--symmetry", symmetry, "Symmetric input: keep the stored triangle or expand it")
      ->check(CLI::IsMember({"keep", "expand"}))
      ->capture_default_str();
  cmd->add_option(
         "--values", values,
         "Convert values to real f32 or f64; a complex matrix stays complex, its parts f32 or f64 "
         "(default: keep integer/pattern/real/complex)")
      ->check(CLI::IsMember({"f32", "f64"}));
  cmd->add_option("--index", index, "Binsparse index type")->check(CLI::IsMember({"i32", "i64"}))->capture_default_str();
  cmd->add_option("--format", format, "Binsparse storage format")
      ->check(CLI::IsMember({"coo", "csr", "csc"}))
      ->capture_default_str();
  cmd->add_flag("--sum-duplicates", sum, "Sort entries and sum duplicates (Eigen's setFromTriplets rule)");
  cmd->callback([&action] {
    action = [] {
      using namespace sparse;
      if (auto f = format_of(in); !f) return report(f.error(), kExitUsage);
      if (auto f = format_of(out); !f) return report(f.error(), kExitUsage);
      if (auto same = same_file_problem(in, out); !same.empty())
        return report(make_error(Errc::invalid_argument, same), kExitUsage);
      auto m = read_matrix_file(in, matrix_read_options(in, symmetry == "expand", sum));
      if (!m) return report(m.error());
      MatrixFileWriteOptions o;
      if (!values.empty()) {
        o.precision = values == "f32" ? RealPrecision::f32 : RealPrecision::f64;
        if (m->field != Field::real && m->field != Field::complex) {  // integer or pattern -> real
          m->real_values.resize(size_t(m->nnz()));
          for (int64_t k = 0; k < m->nnz(); ++k) m->real_values[size_t(k)] = m->value(k);
          m->integer_values.clear();
          m->field = Field::real;
        }
      }
      o.index = index == "i32" ? IndexWidth::i32 : IndexWidth::i64;
      o.format = format == "coo" ? BinsparseFormat::coo : format == "csc" ? BinsparseFormat::csc : BinsparseFormat::csr;
      if (auto s = write_matrix_file(*m, out, o); !s) return report(s.error());
      return kExitOk;
    };
  });
}

}  // namespace vkprim::cli

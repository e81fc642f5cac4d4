// `vkprim spy FILE OUT.png`: the sparsity pattern (symmetric storage expanded) as a
// density-shaded picture of at most --size pixels a side.
#include "sparse_cli.hpp"

#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/spy.hpp>

namespace vkprim::cli {

void register_spy(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("spy", "Draw a matrix's sparsity pattern as a PNG");
  static std::string file, png;
  static uint32_t size = 1024;
  cmd->add_option("FILE", file, "Matrix file (.mtx, .mtx.gz, .bsp.h5, - for stdin)")->required();
  cmd->add_option("OUT", png, "Output PNG")->required();
  cmd->add_option("--size", size, "Longest side in pixels")->check(decimal_in(1, 1024))->capture_default_str();
  cmd->callback([&action] {
    action = [] {
      using namespace sparse;
      if (auto f = format_of(file); !f) return report(f.error(), kExitUsage);
      if (auto same = same_file_problem(file, png); !same.empty())
        return report(make_error(Errc::invalid_argument, same), kExitUsage);
      auto m = read_matrix_file(file, matrix_read_options(file, true, false));
      if (!m) return report(m.error());
      if (auto s = write_png(spy_image(*m, size), png); !s) return report(s.error());
      return kExitOk;
    };
  });
}

}  // namespace vkprim::cli

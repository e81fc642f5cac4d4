// Helpers shared by the matrix-file subcommands (convert, info, spy, spmv): read options with a
// progress line on a terminal, and the refusal of an output that is the input.
#pragma once

#include "commands.hpp"

#include <vkprim/sparse/matrix_file.hpp>

#include <fmt/core.h>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include <unistd.h>

namespace vkprim::cli {

// Read options; when stderr is a terminal and the input is big (or stdin), parsing
// progress is shown on stderr.
inline sparse::MatrixMarketReadOptions matrix_read_options(const std::string& path, bool expand, bool sum) {
  sparse::MatrixMarketReadOptions o;
  o.expand_symmetry = expand;
  o.sum_duplicates = sum;
  std::error_code ec;
  const bool big = path == "-" || std::filesystem::file_size(path, ec) >= (uint64_t(64) << 20);
  if (big && isatty(STDERR_FILENO)) {
    o.progress = [last = -1](uint64_t done, uint64_t total) mutable {
      const int percent = total ? int(done * 100 / total) : 100;
      if (percent == last) return;
      last = percent;
      fmt::print(stderr, "\rparsing {:3}%{}", percent, percent == 100 ? "\n" : "");
      std::fflush(stderr);
    };
  }
  return o;
}

// The refusal of an output that is the input: the same path, or the same file (device and
// inode) through a symbolic or hard link. Writing it would replace the matrix being read, and
// through a hard link would leave the other name holding the old matrix. Returns the message,
// empty when they differ (or either is "-", or the output does not exist yet).
inline std::string same_file_problem(const std::string& in, const std::string& out) {
  if (in == "-" || out == "-") return {};
  std::error_code ec;
  if (!std::filesystem::equivalent(in, out, ec) || ec) return {};
  return fmt::format("{} and {} are the same file; write the output under another name", in, out);
}

}  // namespace vkprim::cli

// Helpers shared by the matrix-file subcommands (convert, info, spy): read options with a
// progress line on a terminal, and error reporting with the documented exit codes.
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

// Prints "vkprim: <message>" and returns the exit code for it: kExitUsage for a file name
// of unknown type (invalid_argument from format_of), kExitFailure for everything else.
inline int report(const Error& e, int code = kExitFailure) {
  fmt::print(stderr, "vkprim: {}\n", e.message);
  return code;
}

}  // namespace vkprim::cli

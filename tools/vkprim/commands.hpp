// The vkprim command line: each subcommand lives in its own cmd_<name>.cpp and registers
// itself on the CLI11 app. Exit codes: 0 success, 1 bad input or runtime failure, 2 bad usage
// (unknown option, malformed or out-of-range value, unknown file type, output naming the input).
#pragma once

#include <vkprim/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <unistd.h>

namespace vkprim::cli {

// A subcommand's action, run after parsing; returns the process exit code.
using Action = std::function<int()>;

// Each register_* adds one subcommand to `app` and sets `action` when it is chosen.
void register_devices(CLI::App& app, Action& action);
void register_bench(CLI::App& app, Action& action);
void register_convert(CLI::App& app, Action& action);
void register_info(CLI::App& app, Action& action);
void register_spy(CLI::App& app, Action& action);
void register_spmv(CLI::App& app, Action& action);
void register_solve(CLI::App& app, Action& action);

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Prints "vkprim: <message>" on stderr and returns `code`.
inline int report(const Error& e, int code = kExitFailure) {
  fmt::print(stderr, "vkprim: {}\n", e.message);
  return code;
}

// Every number the command line reads goes through here: the whole of `text` as a decimal
// number, digits only (no sign, blank, base prefix or suffix); nullopt if it is anything else or
// exceeds uint64_t.
inline std::optional<uint64_t> parse_decimal(std::string_view text) {
  uint64_t v = 0;
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// A CLI11 check for integer options: a decimal number (parse_decimal) in [lo, hi]. A failed
// check is a usage error (exit 2) with a message naming the option, the value and the range.
inline CLI::Validator decimal_in(uint64_t lo, uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const auto v = parse_decimal(text);
        if (!v) return fmt::format("'{}' is not a whole number (expected {}..{})", text, lo, hi);
        if (*v < lo || *v > hi) return fmt::format("{} is outside {}..{}", text, lo, hi);
        return {};
      },
      fmt::format("UINT in {}..{}", lo, hi));
}

// This machine's physical memory in bytes (0 if unknown): sizes whose data alone would not fit
// are refused as bad usage before anything is allocated.
inline uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

// "1.5 GiB": a byte count for messages.
inline std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) bytes /= 1024, ++u;
  return fmt::format("{:.{}f} {}", bytes, u ? 1 : 0, units[u]);
}

// Checks VKPRIM_DEVICE as the library reads it (CreateInfo::device_selector): all digits is a
// device index, anything else part of a name. An index beyond 32 bits names no device and is
// refused here, before any work; whether an index exists is the library's check (exit 1).
// Returns the message, empty when the variable is fine.
inline std::string device_selector_problem() {
  const char* env = std::getenv("VKPRIM_DEVICE");
  if (env == nullptr) return {};
  const std::string_view s(env);
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return {};
  if (const auto index = parse_decimal(s); index && *index <= UINT32_MAX) return {};
  return fmt::format("VKPRIM_DEVICE={}: not a device index (expected an index that `vkprim devices` lists, "
                     "or part of a device name)",
                     s);
}

}  // namespace vkprim::cli

// The vkprim command line: each subcommand lives in its own cmd_<name>.cpp and registers
// itself on the CLI11 app. Exit codes: 0 success, 1 bad input or runtime failure, 2 bad usage.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

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

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

}  // namespace vkprim::cli

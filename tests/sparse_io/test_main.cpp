// Catch2's main for the sparse I/O tests (CPU only: no Vulkan device needed).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

// Writes the Binsparse samples (binsparse_samples.hpp) into the directory given as the only
// argument: seeds for the Binsparse fuzzer that need no shared data.
#include "binsparse_samples.hpp"

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: binsparse_fuzz_seeds DIR\n");
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  const auto samples = vkprim::test::write_binsparse_samples(argv[1]);
  std::printf("%zu Binsparse seeds written to %s\n", samples.size(), argv[1]);
  return 0;
}

# Every dependency comes from a Debian 12 package and is found here, in one place.
find_package(Vulkan 1.3 REQUIRED)            # libvulkan-dev: headers (the loader is found at run time)
find_path(VKPRIM_VOLK_DIR volk.c volk.h      # libvulkan-volk-dev ships only volk.{h,c}
          PATHS /usr/include REQUIRED)
find_program(VKPRIM_GLSLANG glslangValidator REQUIRED)   # glslang-tools
find_program(VKPRIM_SPIRV_VAL spirv-val REQUIRED)        # spirv-tools
find_package(Threads REQUIRED)

/* vkprim's private copy of volk (see core/vk.hpp for why every symbol is renamed). */
#include "vkprim_volk_names.h"
#include <volk.c>

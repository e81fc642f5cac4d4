// vkprim: GPU data-parallel primitives on any Vulkan 1.2 device. Umbrella header.
#pragma once

#include <vkprim/barrier.hpp>
#include <vkprim/buffer.hpp>
#include <vkprim/context.hpp>
#include <vkprim/elementwise.hpp>
#include <vkprim/error.hpp>
#include <vkprim/gather_scatter.hpp>
#include <vkprim/histogram.hpp>
#include <vkprim/summed_area.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/select.hpp>
#include <vkprim/sort.hpp>
#include <vkprim/timing.hpp>
#include <vkprim/types.hpp>

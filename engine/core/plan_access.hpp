// Construction of the public objects from their plans inside the library (their constructors
// are private; the classes befriend detail::PlanAccess): the testing interface's create
// functions (engine/testing/vkprim/testing.hpp), which the public create() functions call with
// default knobs, wrap the plan they build.
#pragma once

#include <memory>
#include <utility>

namespace vkprim::detail {

struct PlanAccess {
  template <class Object, class Plan>
  static Object wrap(std::unique_ptr<Plan> plan) {
    return Object(std::move(plan));
  }
};

}  // namespace vkprim::detail

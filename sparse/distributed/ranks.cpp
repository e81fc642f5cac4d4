// The agreement of the collective calls, and each rank's device.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <optional>
#include <string>
#include <vkprim/sparse/distributed.hpp>

#include "mpi_support.hpp"

namespace vkprim::sparse {

Status agree(MPI_Comm comm, const Status& local) {
  return detail::guarded("agree", [&]() -> Status {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    // One reduction when every rank succeeded; on failure one more for the count and the first
    // failing rank's error by broadcast, so every rank returns the same Error.
    const int mine = local.ok() ? INT_MAX : rank;
    int first = INT_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == INT_MAX) return {};
    const int failed_here = local.ok() ? 0 : 1;
    int failed = 0;
    MPI_Allreduce(&failed_here, &failed, 1, MPI_INT, MPI_SUM, comm);
    int64_t head[3] = {0, 0, 0};
    std::string message;
    if (rank == first) {
      head[0] = int64_t(local.error().code);
      head[1] = int64_t(local.error().vk);
      message = local.error().message;
      head[2] = int64_t(message.size());
    }
    MPI_Bcast(head, 3, MPI_INT64_T, first, comm);
    // The message is cut at 64 KiB (it is one line of text); the buffer exists on every rank.
    const int len = int(std::min<int64_t>(head[2], 1 << 16));
    message.resize(size_t(len));
    MPI_Bcast(message.data(), len, MPI_CHAR, first, comm);
    std::string prefix = "rank " + std::to_string(first);
    if (failed > 1) prefix += " (" + std::to_string(failed) + " ranks failed)";
    return Error{Errc(head[0]), VkResult(head[1]), prefix + ": " + message};
  });
}

Result<int> node_local_rank(MPI_Comm comm) {
  return detail::guarded("node_local_rank", [&]() -> Result<int> {
    MPI_Comm node = MPI_COMM_NULL;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) != MPI_SUCCESS)
      return make_error(Errc::unsupported, "node_local_rank: MPI_Comm_split_type failed");
    int local = 0;
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    return local;
  });
}

namespace {
// vkprim's preference among device types (CreateInfo::device_selector): lower is preferred.
int type_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}
}  // namespace

Result<Runtime> create_rank_runtime(MPI_Comm comm, CreateInfo info) {
  return detail::guarded("create_rank_runtime", [&]() -> Result<Runtime> {
    auto local = node_local_rank(comm);
    VKPRIM_TRY(agree(comm, local ? Status{} : Status{local.error()}));
    std::optional<Runtime> rt;
    const Status made = detail::guarded("create_rank_runtime", [&]() -> Status {
      const char* env = std::getenv("VKPRIM_DEVICE");
      if (info.device_selector.empty() && !(env && *env)) {
        auto devices = list_devices();
        if (!devices) return devices.error();
        std::vector<const DeviceListing*> usable;
        for (const auto& d : *devices)
          if (d.usable) usable.push_back(&d);
        if (usable.empty())
          return make_error(Errc::unsupported, "create_rank_runtime: no usable Vulkan device");
        int best = 4;
        for (const auto* d : usable) best = std::min(best, type_rank(d->caps.device_type));
        std::vector<const DeviceListing*> pick;
        for (const auto* d : usable)
          if (type_rank(d->caps.device_type) == best) pick.push_back(d);
        info.device_selector = std::to_string(pick[size_t(*local) % pick.size()]->index);
      }
      auto r = Runtime::create(info);
      if (!r) return r.error();
      rt.emplace(std::move(*r));
      return {};
    });
    VKPRIM_TRY(agree(comm, made));
    return std::move(*rt);
  });
}

}  // namespace vkprim::sparse

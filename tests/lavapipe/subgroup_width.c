/* A driver check without vkprim: does a compute subgroup hold the gl_SubgroupSize invocations
 * that the device reports, when the pipeline requires full subgroups of that size?
 *   subgroup_width SHADER.spv [NAME]
 * runs subgroup_width.comp (one workgroup of 256) on the first Vulkan device whose name
 * contains NAME (any device without it) and prints what it saw. Exit 0: the subgroups are as reported; 1: they are not (a driver defect); 2: no
 * device or a Vulkan error. Lavapipe (Mesa 22.3) with LP_NATIVE_VECTOR_WIDTH=1024 or more
 * reports subgroups of 32 or more lanes and runs them 16 wide: docs/conventions.md, "Driver
 * defects". */
#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                       \
  do {                                                                    \
    VkResult r_ = (call);                                                 \
    if (r_ != VK_SUCCESS) {                                               \
      fprintf(stderr, "subgroup_width: %s failed: %d\n", #call, (int)r_); \
      exit(2);                                                            \
    }                                                                     \
  } while (0)

static uint32_t* read_spirv(const char* path, size_t* bytes) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "subgroup_width: cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  *bytes = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint32_t* code = malloc(*bytes);
  if (!code || fread(code, 1, *bytes, f) != *bytes) {
    fprintf(stderr, "subgroup_width: cannot read %s\n", path);
    exit(2);
  }
  fclose(f);
  return code;
}

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: subgroup_width SHADER.spv [DEVICE-NAME]\n");
    return 2;
  }
  size_t code_bytes = 0;
  uint32_t* code = read_spirv(argv[1], &code_bytes);

  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "subgroup_width", 0, NULL, 0,
                           VK_API_VERSION_1_3};
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app};
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, NULL, &instance));
  uint32_t count = 16;
  VkPhysicalDevice devices[16];
  VkResult listed = vkEnumeratePhysicalDevices(instance, &count, devices);
  if (listed != VK_SUCCESS && listed != VK_INCOMPLETE) count = 0;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkPhysicalDeviceSubgroupSizeControlProperties control = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                 &control};
  VkPhysicalDeviceProperties2 props = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  for (uint32_t i = 0; i < count && pd == VK_NULL_HANDLE; ++i) {
    vkGetPhysicalDeviceProperties2(devices[i], &props);
    if (argc < 3 || strstr(props.properties.deviceName, argv[2])) pd = devices[i];
  }
  if (pd == VK_NULL_HANDLE) {
    fprintf(stderr, "subgroup_width: no Vulkan device%s%s\n", argc < 3 ? "" : " named ", argc < 3 ? "" : argv[2]);
    return 2;
  }
  VkPhysicalDeviceVulkan13Features have13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 have = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have13};
  vkGetPhysicalDeviceFeatures2(pd, &have);
  const int full = props.properties.apiVersion >= VK_API_VERSION_1_3 && have13.computeFullSubgroups &&
                   have13.subgroupSizeControl &&
                   (control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                   256 % subgroup.subgroupSize == 0;

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &family_count, NULL);
  VkQueueFamilyProperties families[16];
  if (family_count > 16) family_count = 16;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &family_count, families);
  uint32_t family = 0;
  while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
  if (family == family_count) {
    fprintf(stderr, "subgroup_width: no compute queue\n");
    return 2;
  }

  VkPhysicalDeviceVulkan13Features want13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  want13.subgroupSizeControl = full;
  want13.computeFullSubgroups = full;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, family, 1, &priority};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, full ? &want13 : NULL, 0, 1, &qci};
  VkDevice device;
  CHECK(vkCreateDevice(pd, &dci, NULL, &device));

  VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, 16,
                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
  VkBuffer buffer;
  CHECK(vkCreateBuffer(device, &bci, NULL, &buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkPhysicalDeviceMemoryProperties mem_props;
  vkGetPhysicalDeviceMemoryProperties(pd, &mem_props);
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < mem_props.memoryTypeCount &&
         !((req.memoryTypeBits >> type & 1u) && (mem_props.memoryTypes[type].propertyFlags & host) == host))
    ++type;
  if (type == mem_props.memoryTypeCount) {
    fprintf(stderr, "subgroup_width: no host-visible memory\n");
    return 2;
  }
  VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size, type};
  VkDeviceMemory memory;
  CHECK(vkAllocateMemory(device, &mai, NULL, &memory));
  CHECK(vkBindBufferMemory(device, buffer, memory, 0));
  uint32_t* words;
  CHECK(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, (void**)&words));
  for (int i = 0; i < 4; ++i) words[i] = 0;

  VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, code_bytes, code};
  VkShaderModule module;
  CHECK(vkCreateShaderModule(device, &smci, NULL, &module));
  VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
  VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 1, &binding};
  VkDescriptorSetLayout set_layout;
  CHECK(vkCreateDescriptorSetLayout(device, &dslci, NULL, &set_layout));
  VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &set_layout};
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(device, &plci, NULL, &layout));
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo size = {
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, NULL, subgroup.subgroupSize};
  VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.pNext = full ? &size : NULL;
  cpci.stage.flags = full ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = module;
  cpci.stage.pName = "main";
  cpci.layout = layout;
  VkPipeline pipeline;
  CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline));

  VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &pool_size};
  VkDescriptorPool pool;
  CHECK(vkCreateDescriptorPool(device, &dpci, NULL, &pool));
  VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, pool, 1, &set_layout};
  VkDescriptorSet set;
  CHECK(vkAllocateDescriptorSets(device, &dsai, &set));
  VkDescriptorBufferInfo dbi = {buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 0, 0, 1,
                                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi, NULL};
  vkUpdateDescriptorSets(device, 1, &write, 0, NULL);

  VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, family};
  VkCommandPool cmd_pool;
  CHECK(vkCreateCommandPool(device, &cpi, NULL, &cmd_pool));
  VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, cmd_pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  CHECK(vkAllocateCommandBuffers(device, &cbai, &cmd));
  VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CHECK(vkBeginCommandBuffer(cmd, &begin));
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
  vkCmdDispatch(cmd, 1, 1, 1);
  VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT,
                             VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                       &to_host, 0, NULL, 0, NULL);
  CHECK(vkEndCommandBuffer(cmd));
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);
  VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &cmd};
  CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
  CHECK(vkQueueWaitIdle(queue));

  printf("%s: subgroupSize %u, full subgroups %s; gl_SubgroupSize %u, gl_NumSubgroups %u, "
         "subgroupAdd(1) %u, invocations per subgroup %u\n",
         props.properties.deviceName, subgroup.subgroupSize, full ? "required" : "not available",
         words[0], words[1], words[2], words[3]);
  const int as_reported = words[0] == subgroup.subgroupSize && words[3] == words[0] &&
                          (!full || (words[2] == words[0] && words[1] * words[0] == 256));
  printf("%s\n", as_reported ? "subgroups as reported" : "subgroups NOT as reported");
  vkDestroyDevice(device, NULL);
  vkDestroyInstance(instance, NULL);
  free(code);
  return as_reported ? 0 : 1;
}

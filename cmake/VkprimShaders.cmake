# Build-time shader pipeline: every compute shader variant is compiled by glslangValidator,
# validated by spirv-val and embedded in the library as a uint32_t array, so nothing is read
# from disk at run time. Includes (shaders/common/ and
# a family's own) are tracked through glslang's depfile.
#
#   vkprim_shader(<id> SOURCE <file.comp> [DEFINES NAME=VALUE ...])
#       declares one SPIR-V variant; C++ names it vkprim::detail::Shader::<id>.
#
#   vkprim_shader_family(<family> SOURCE <file.comp>
#                        AXES <axis>=<value>[,<value>...] [<axis>=...]
#                        [DEFINES NAME=VALUE ...]
#                        [AXIS_DEFINES <axis>=<value>:NAME=VALUE ...]
#                        [DEFINES_FOR <function>])
#       declares the full product of its axes: one variant per combination of values, called
#       <family>_<value>_<value>... (values in axis order), and C++ names a variant only as
#       vkprim::detail::variants::<family>(Axis, Axis, ...), whose arguments are the generated
#       axis enums (an axis `row_ptr` is `enum class RowPtr`). A value list may also continue
#       in the arguments that follow `<axis>=` (AXES value=${VKPRIM_VALUE_TYPES} layer=sg,wg).
#       An axis is one enum wherever it appears: every family that names it gives the same
#       values in the same order. A combination that must not exist makes another family or a
#       single vkprim_shader, never a hole in the product.
#       Each variant's defines: DEFINES, with @axis@ replaced by its value on that axis; each
#       AXIS_DEFINES entry whose axis has that value; and what DEFINES_FOR's function appends
#       to the list variable `defines` (it runs once per variant, the axis values in variables
#       of the axes' names, e.g. ${layer}).
#
#   vkprim_shader_registry(<out_var_sources> <out_var_include_dir>)
#       writes the registry (the Shader enum, the axis enums, each family's constexpr lookup,
#       each variant's FIXED_ITEMS and subgroup layer) after every variant is declared.
#
# Defines the registry reads: SUBGROUP=1 (the subgroup layer, whose tiles need full subgroups:
# engine/core/pipeline.cpp) and FIXED_ITEMS=N (items per invocation compiled in, which the
# pipeline's items must equal: policies static_assert it against shader_fixed_items()).
# Declaration mistakes stop the configure step: a missing source, an id declared twice, an axis
# named twice or given other values than elsewhere, an empty axis, a name that is no C++
# identifier. A variant that C++ names but the build does not declare, or spells otherwise, is
# a compile error (no such enumerator, lookup or axis value).

set(VKPRIM_SPIRV_ENV vulkan1.2)   # SPIR-V 1.5: what Vulkan 1.2 guarantees
# Tuning aid: extra NAME=VALUE defines for every shader, to build A/B variants of a shader
# choice side by side (e.g. -DVKPRIM_SHADER_EXTRA_DEFINES="TILE_IO_BLOCKED=1").
set(VKPRIM_SHADER_EXTRA_DEFINES "" CACHE STRING "Extra NAME=VALUE defines for every shader (tuning experiments)")
set_property(GLOBAL PROPERTY VKPRIM_SHADER_IDS "")
set_property(GLOBAL PROPERTY VKPRIM_SHADER_AXES "")
set_property(GLOBAL PROPERTY VKPRIM_SHADER_FAMILIES "")

function(_vkprim_check_identifier what name)
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "vkprim shaders: ${what} '${name}' is not a C++ identifier "
                        "(${CMAKE_CURRENT_LIST_FILE})")
  endif()
endfunction()

function(vkprim_shader id)
  cmake_parse_arguments(S "" "SOURCE" "DEFINES" ${ARGN})
  _vkprim_check_identifier("variant" "${id}")
  if(S_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "vkprim_shader(${id}): unexpected arguments ${S_UNPARSED_ARGUMENTS} "
                        "(${CMAKE_CURRENT_LIST_FILE})")
  endif()
  get_property(ids GLOBAL PROPERTY VKPRIM_SHADER_IDS)
  if(id IN_LIST ids)
    message(FATAL_ERROR "vkprim_shader: the variant ${id} is declared twice (${CMAKE_CURRENT_LIST_FILE})")
  endif()
  # SOURCE is relative to the list file that declares the variant (shaders/<family>/).
  set(src "${CMAKE_CURRENT_LIST_DIR}/${S_SOURCE}")
  if(NOT S_SOURCE OR NOT EXISTS "${src}")
    message(FATAL_ERROR "vkprim_shader(${id}): no shader source '${S_SOURCE}' in ${CMAKE_CURRENT_LIST_DIR}")
  endif()
  set(outdir "${CMAKE_BINARY_DIR}/shaders/spirv")
  set(spv "${outdir}/${id}.spv")
  set(hdr "${outdir}/${id}.spv.h")
  set(defs "")
  foreach(d IN LISTS S_DEFINES VKPRIM_SHADER_EXTRA_DEFINES)
    list(APPEND defs "-D${d}")
  endforeach()
  set(common -V --target-env ${VKPRIM_SPIRV_ENV} -I${PROJECT_SOURCE_DIR}/shaders/common ${defs})
  add_custom_command(
    OUTPUT "${spv}" "${hdr}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${outdir}"
    COMMAND ${VKPRIM_GLSLANG} ${common} --depfile "${spv}.d" -o "${spv}" "${src}"
    COMMAND ${VKPRIM_SPIRV_VAL} --target-env ${VKPRIM_SPIRV_ENV} "${spv}"
    COMMAND ${VKPRIM_GLSLANG} ${common} --vn vkprim_spirv_${id} -o "${hdr}" "${src}"
    DEPENDS "${src}"
    DEPFILE "${spv}.d"
    COMMENT "SPIR-V ${id} (${S_SOURCE} ${S_DEFINES})"
    VERBATIM)
  set_property(GLOBAL APPEND PROPERTY VKPRIM_SHADER_IDS ${id})
  # Variants built with the subgroup layer need full subgroups (engine/core/pipeline.cpp).
  set(subgroup false)
  if("SUBGROUP=1" IN_LIST S_DEFINES)
    set(subgroup true)
  endif()
  set(fixed_items 0)
  foreach(d IN LISTS S_DEFINES)
    if(d MATCHES "^FIXED_ITEMS=(.*)$")
      set(fixed_items "${CMAKE_MATCH_1}")
      if(NOT fixed_items MATCHES "^[1-9][0-9]*$")
        message(FATAL_ERROR "vkprim_shader(${id}): FIXED_ITEMS=${fixed_items} is no positive number")
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY VKPRIM_SHADER_${id}_SUBGROUP ${subgroup})
  set_property(GLOBAL PROPERTY VKPRIM_SHADER_${id}_FIXED_ITEMS ${fixed_items})
  set_property(GLOBAL APPEND PROPERTY VKPRIM_SHADER_HEADERS "${hdr}")
endfunction()

# snake_case -> PascalCase (the C++ name of an axis enum).
function(_vkprim_pascal out name)
  string(REPLACE "_" ";" parts "${name}")
  set(r "")
  foreach(p IN LISTS parts)
    string(SUBSTRING "${p}" 0 1 head)
    string(SUBSTRING "${p}" 1 -1 tail)
    string(TOUPPER "${head}" head)
    string(APPEND r "${head}${tail}")
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

function(vkprim_shader_family _family)
  cmake_parse_arguments(_F "" "SOURCE;DEFINES_FOR" "AXES;DEFINES;AXIS_DEFINES" ${ARGN})
  _vkprim_check_identifier("family" "${_family}")
  if(_F_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "vkprim_shader_family(${_family}): unexpected arguments "
                        "${_F_UNPARSED_ARGUMENTS} (${CMAKE_CURRENT_LIST_FILE})")
  endif()
  get_property(_families GLOBAL PROPERTY VKPRIM_SHADER_FAMILIES)
  if(_family IN_LIST _families)
    message(FATAL_ERROR "vkprim_shader_family: the family ${_family} is declared twice (${CMAKE_CURRENT_LIST_FILE})")
  endif()
  if(_F_DEFINES_FOR AND NOT COMMAND "${_F_DEFINES_FOR}")
    message(FATAL_ERROR "vkprim_shader_family(${_family}): DEFINES_FOR names no function '${_F_DEFINES_FOR}'")
  endif()
  # Axes: `name=v1,v2` starts one; arguments without `=` continue its values.
  set(_axes "")
  set(_axis "")
  foreach(_arg IN LISTS _F_AXES)
    if(_arg MATCHES "^([^=]*)=(.*)$")
      set(_axis "${CMAKE_MATCH_1}")
      set(_vals "${CMAKE_MATCH_2}")
      if(NOT _axis MATCHES "^[a-z][a-z0-9_]*$")
        message(FATAL_ERROR "vkprim_shader_family(${_family}): axis '${_axis}' must be lower_snake_case")
      endif()
      if(_axis IN_LIST _axes)
        message(FATAL_ERROR "vkprim_shader_family(${_family}): axis ${_axis} is named twice")
      endif()
      list(APPEND _axes ${_axis})
      set(_values_${_axis} "")
    elseif(_axis STREQUAL "")
      message(FATAL_ERROR "vkprim_shader_family(${_family}): AXES must begin with <axis>=<values>")
    else()
      set(_vals "${_arg}")
    endif()
    string(REPLACE "," ";" _vals "${_vals}")
    foreach(_v IN LISTS _vals)
      if(_v STREQUAL "")
        continue()
      endif()
      _vkprim_check_identifier("value of axis ${_axis}" "${_v}")
      if(_v IN_LIST _values_${_axis})
        message(FATAL_ERROR "vkprim_shader_family(${_family}): axis ${_axis} lists ${_v} twice")
      endif()
      list(APPEND _values_${_axis} ${_v})
    endforeach()
  endforeach()
  if(NOT _axes)
    message(FATAL_ERROR "vkprim_shader_family(${_family}): no AXES (a single variant is vkprim_shader)")
  endif()
  # One enum per axis name across every family: the same values in the same order.
  get_property(_known GLOBAL PROPERTY VKPRIM_SHADER_AXES)
  set(_radix "")
  foreach(_a IN LISTS _axes)
    if(NOT _values_${_a})
      message(FATAL_ERROR "vkprim_shader_family(${_family}): axis ${_a} has no values")
    endif()
    if(_a IN_LIST _known)
      get_property(_prev GLOBAL PROPERTY VKPRIM_SHADER_AXIS_${_a})
      get_property(_prev_family GLOBAL PROPERTY VKPRIM_SHADER_AXIS_${_a}_FAMILY)
      if(NOT "${_prev}" STREQUAL "${_values_${_a}}")
        message(FATAL_ERROR "vkprim_shader_family(${_family}): axis ${_a} is {${_values_${_a}}} "
                            "here but {${_prev}} in ${_prev_family}: one axis is one enum (name "
                            "an axis of other values otherwise)")
      endif()
    else()
      set_property(GLOBAL APPEND PROPERTY VKPRIM_SHADER_AXES ${_a})
      set_property(GLOBAL PROPERTY VKPRIM_SHADER_AXIS_${_a} "${_values_${_a}}")
      set_property(GLOBAL PROPERTY VKPRIM_SHADER_AXIS_${_a}_FAMILY ${_family})
    endif()
    list(LENGTH _values_${_a} _n)
    list(APPEND _radix ${_n})
  endforeach()
  foreach(_e IN LISTS _F_AXIS_DEFINES)
    if(NOT _e MATCHES "^([a-z][a-z0-9_]*)=([A-Za-z0-9_]+):(.+)$")
      message(FATAL_ERROR "vkprim_shader_family(${_family}): AXIS_DEFINES entry '${_e}' is not <axis>=<value>:NAME=VALUE")
    endif()
    if(NOT CMAKE_MATCH_1 IN_LIST _axes OR NOT CMAKE_MATCH_2 IN_LIST _values_${CMAKE_MATCH_1})
      message(FATAL_ERROR "vkprim_shader_family(${_family}): AXIS_DEFINES entry '${_e}' names no axis value of this family")
    endif()
  endforeach()

  # The product, first axis slowest: the generated lookup is the mixed-radix index from the
  # family's first variant.
  set(_total 1)
  foreach(_n IN LISTS _radix)
    math(EXPR _total "${_total} * ${_n}")
  endforeach()
  list(LENGTH _axes _naxes)
  math(EXPR _last_axis "${_naxes} - 1")
  set(_axis_indices_reversed "")
  foreach(_k RANGE 0 ${_last_axis})
    list(PREPEND _axis_indices_reversed ${_k})
  endforeach()
  set(_first "")
  math(EXPR _end "${_total} - 1")
  foreach(_index RANGE 0 ${_end})
    set(_rest ${_index})
    set(_id "${_family}")
    set(_digits "")
    foreach(_k IN LISTS _axis_indices_reversed)
      list(GET _radix ${_k} _n)
      math(EXPR _d "${_rest} % ${_n}")
      math(EXPR _rest "${_rest} / ${_n}")
      list(PREPEND _digits ${_d})
    endforeach()
    foreach(_k RANGE 0 ${_last_axis})
      list(GET _axes ${_k} _a)
      list(GET _digits ${_k} _d)
      list(GET _values_${_a} ${_d} ${_a})  # the axis value, in a variable of the axis's name
      string(APPEND _id "_${${_a}}")
    endforeach()
    set(_defs "")
    foreach(_d IN LISTS _F_DEFINES)
      string(CONFIGURE "${_d}" _d @ONLY)
      list(APPEND _defs "${_d}")
    endforeach()
    foreach(_e IN LISTS _F_AXIS_DEFINES)
      string(REGEX MATCH "^([a-z][a-z0-9_]*)=([A-Za-z0-9_]+):(.+)$" _m "${_e}")
      if("${${CMAKE_MATCH_1}}" STREQUAL "${CMAKE_MATCH_2}")
        list(APPEND _defs "${CMAKE_MATCH_3}")
      endif()
    endforeach()
    if(_F_DEFINES_FOR)
      set(defines "")
      cmake_language(CALL ${_F_DEFINES_FOR} defines)
      list(APPEND _defs ${defines})
    endif()
    vkprim_shader(${_id} SOURCE ${_F_SOURCE} DEFINES ${_defs})
    if(_index EQUAL 0)
      set(_first ${_id})
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY VKPRIM_SHADER_FAMILIES ${_family})
  set_property(GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${_family}_AXES "${_axes}")
  set_property(GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${_family}_FIRST ${_first})
  set_property(GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${_family}_COUNT ${_total})
  set_property(GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${_family}_SOURCE "${_F_SOURCE}")
endfunction()

function(vkprim_shader_registry out_sources out_include)
  get_property(ids GLOBAL PROPERTY VKPRIM_SHADER_IDS)
  get_property(axes GLOBAL PROPERTY VKPRIM_SHADER_AXES)
  get_property(families GLOBAL PROPERTY VKPRIM_SHADER_FAMILIES)
  set(gen "${CMAKE_BINARY_DIR}/shaders/generated")
  set(enum_body "")
  set(includes "")
  set(table "")
  set(items_table "")
  set(subgroup_table "")
  list(LENGTH ids count)
  foreach(id IN LISTS ids)
    get_property(subgroup GLOBAL PROPERTY VKPRIM_SHADER_${id}_SUBGROUP)
    get_property(fixed GLOBAL PROPERTY VKPRIM_SHADER_${id}_FIXED_ITEMS)
    string(APPEND enum_body "  ${id},\n")
    string(APPEND includes "#include \"${CMAKE_BINARY_DIR}/shaders/spirv/${id}.spv.h\"\n")
    string(APPEND items_table "    ${fixed},  // ${id}\n")
    string(APPEND subgroup_table "    ${subgroup},  // ${id}\n")
    string(APPEND table "    {\"${id}\", vkprim_spirv_${id}, sizeof(vkprim_spirv_${id}) / 4, ${subgroup}, ${fixed}},\n")
  endforeach()
  set(axis_body "")
  foreach(a IN LISTS axes)
    get_property(values GLOBAL PROPERTY VKPRIM_SHADER_AXIS_${a})
    _vkprim_pascal(type ${a})
    list(JOIN values ", " joined)
    list(TRANSFORM values PREPEND "${type}::")
    list(JOIN values ", " qualified)
    string(APPEND axis_body "enum class ${type} : uint32_t { ${joined} };\n"
                            "inline constexpr ${type} k${type}Axis[] = {${qualified}};\n"
                            "#define VKPRIM_SHADER_AXIS_${type} 1\n")
  endforeach()
  set(family_body "")
  foreach(f IN LISTS families)
    get_property(faxes GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${f}_AXES)
    get_property(first GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${f}_FIRST)
    get_property(total GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${f}_COUNT)
    get_property(source GLOBAL PROPERTY VKPRIM_SHADER_FAMILY_${f}_SOURCE)
    # The full product is contiguous from its first variant (vkprim_shader_family declares it
    # so): check it here too, since the lookup's arithmetic relies on it.
    list(FIND ids ${first} at)
    set(expect 1)
    set(params "")
    set(index "")
    foreach(a IN LISTS faxes)
      get_property(values GLOBAL PROPERTY VKPRIM_SHADER_AXIS_${a})
      list(LENGTH values n)
      math(EXPR expect "${expect} * ${n}")
      _vkprim_pascal(type ${a})
      list(APPEND params "${type} ${a}")
      if(index STREQUAL "")
        set(index "uint32_t(${a})")
      else()
        set(index "(${index}) * ${n}u + uint32_t(${a})")
      endif()
    endforeach()
    math(EXPR stop "${at} + ${total}")
    if(at LESS 0 OR NOT expect EQUAL total OR stop GREATER count)
      message(FATAL_ERROR "vkprim_shader_registry: the family ${f} is not the full product of its axes")
    endif()
    list(JOIN params ", " params)
    list(JOIN faxes " x " product)
    string(APPEND family_body
           "// ${source}: ${product} (${total} variants from Shader::${first}).\n"
           "constexpr Shader ${f}(${params}) {\n"
           "  return static_cast<Shader>(static_cast<uint32_t>(Shader::${first}) + ${index});\n"
           "}\n")
  endforeach()
  file(CONFIGURE OUTPUT "${gen}/vkprim_shader_ids.hpp" CONTENT
"// Generated by cmake/VkprimShaders.cmake from shaders/<family>/variants.cmake: one id per
// SPIR-V variant, the axis enums and one lookup per family of variants.
#pragma once
#include <cstddef>
#include <cstdint>
namespace vkprim::detail {
enum class Shader : uint32_t {
${enum_body}};
inline constexpr uint32_t kShaderCount = ${count};
// subgroup: built with the subgroup layer (SUBGROUP=1), whose tile layouts need full subgroups.
// fixed_items: the items per invocation compiled in (FIXED_ITEMS), 0 where they are the
// specialization constant.
struct ShaderBlob {
  const char* name;
  const uint32_t* code;
  size_t words;
  bool subgroup;
  uint32_t fixed_items;
};
const ShaderBlob& shader_blob(Shader id);
inline constexpr uint32_t kShaderFixedItems[] = {
${items_table}};
inline constexpr bool kShaderSubgroup[] = {
${subgroup_table}};
constexpr uint32_t shader_fixed_items(Shader id) { return kShaderFixedItems[static_cast<uint32_t>(id)]; }
constexpr bool shader_subgroup_layer(Shader id) { return kShaderSubgroup[static_cast<uint32_t>(id)]; }
// The families of variants (vkprim_shader_family): every combination of the axes' values is a
// variant, so each lookup is total. k<Axis>Axis lists an axis's values in order.
namespace variants {
${axis_body}
${family_body}}  // namespace variants
}  // namespace vkprim::detail
" @ONLY)
  file(CONFIGURE OUTPUT "${gen}/vkprim_shader_registry.cpp" CONTENT
"// Generated by cmake/VkprimShaders.cmake.
#include \"vkprim_shader_ids.hpp\"
namespace {
${includes}
const vkprim::detail::ShaderBlob kBlobs[] = {
${table}};
static_assert(sizeof(kBlobs) / sizeof(kBlobs[0]) == vkprim::detail::kShaderCount);
}  // namespace
const vkprim::detail::ShaderBlob& vkprim::detail::shader_blob(Shader id) {
  return kBlobs[static_cast<uint32_t>(id)];
}
" @ONLY)
  set(${out_sources} "${gen}/vkprim_shader_registry.cpp" PARENT_SCOPE)
  set(${out_include} "${gen}" PARENT_SCOPE)
endfunction()

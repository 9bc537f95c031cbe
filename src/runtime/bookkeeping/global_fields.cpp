#include "runtime/bookkeeping/global_fields.hpp"

#include <algorithm>

namespace mote::runtime {
namespace {

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(name[0])) return false;
  return std::all_of(name.begin() + 1, name.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

std::string import_where(size_t i) { return "global_imports[" + std::to_string(i) + "]"; }

}  // namespace

GlobalFieldLayout::GlobalFieldLayout(uint32_t capacity_words)
    : capacity_(capacity_words), values_(capacity_words, 0u) {}

const GlobalField* GlobalFieldLayout::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &fields_[it->second];
}

Status GlobalFieldLayout::check(std::span<const GlobalImport> imports) const {
  uint64_t new_words = 0;
  for (size_t i = 0; i < imports.size(); ++i) {
    const GlobalImport& imp = imports[i];
    if (!is_identifier(imp.name) || imp.width < 1 || imp.width > 4)
      return make_error(ErrorCode::kInvalidArgument,
                        "global import '" + imp.name + "' of width " + std::to_string(imp.width) + " is malformed",
                        import_where(i));
    if (const GlobalField* f = find(imp.name)) {
      if (f->width != imp.width)
        return make_error(ErrorCode::kInvalidArgument,
                          "global '" + imp.name + "' is declared with width " + std::to_string(f->width) +
                              ", the program reads " + std::to_string(imp.width),
                          import_where(i));
      continue;
    }
    // A name imported twice by one program is one field: the first import declares it.
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      if (imports[j].name != imp.name) continue;
      seen = true;
      if (imports[j].width != imp.width)
        return make_error(ErrorCode::kInvalidArgument, "global '" + imp.name + "' imported with two widths",
                          import_where(i));
    }
    if (!seen) new_words += imp.width;
  }
  if (used_ + new_words > capacity_)
    return make_error(ErrorCode::kOutOfMemory, "global fields need " + std::to_string(used_ + new_words) +
                                                   " words, the layout holds " + std::to_string(capacity_));
  return ok_status();
}

Result<uint32_t> GlobalFieldLayout::declare(std::string_view name, uint32_t width) {
  const GlobalImport one{std::string(name), width};
  MOTE_TRY(check(std::span<const GlobalImport>(&one, 1)));
  if (const GlobalField* f = find(name)) return f->offset;
  const uint32_t offset = used_;
  by_name_.emplace(std::string(name), fields_.size());
  fields_.push_back({std::string(name), offset, width});
  used_ += width;
  return offset;
}

Result<std::vector<uint32_t>> GlobalFieldLayout::declare_imports(std::span<const GlobalImport> imports) {
  MOTE_TRY(check(imports));
  std::vector<uint32_t> offsets;
  offsets.reserve(imports.size());
  for (const GlobalImport& imp : imports) {
    MOTE_TRY_ASSIGN(const uint32_t offset, declare(imp.name, imp.width));
    offsets.push_back(offset);
  }
  return offsets;
}

Status GlobalFieldLayout::offsets_of(std::span<const GlobalImport> imports, std::vector<uint32_t>& offsets) const {
  offsets.clear();
  for (size_t i = 0; i < imports.size(); ++i) {
    const GlobalField* f = find(imports[i].name);
    if (f == nullptr || f->width != imports[i].width)
      return make_error(ErrorCode::kNotFound, "global '" + imports[i].name + "' is not declared", import_where(i));
    offsets.push_back(f->offset);
  }
  return ok_status();
}

Status GlobalFieldLayout::set(std::string_view name, std::span<const uint32_t> values) {
  const GlobalField* f = find(name);
  if (f == nullptr) return make_error(ErrorCode::kNotFound, "global '" + std::string(name) + "' is not declared");
  if (values.size() != f->width)
    return make_error(ErrorCode::kInvalidArgument, "global '" + std::string(name) + "' has width " +
                                                       std::to_string(f->width) + ", " + std::to_string(values.size()) +
                                                       " values given");
  std::copy(values.begin(), values.end(), values_.begin() + f->offset);
  dirty_.include(f->offset, f->offset + f->width);
  return ok_status();
}

}  // namespace mote::runtime

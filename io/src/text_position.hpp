// text_position.hpp — line and column of byte offsets in a scene file's text, shared by the JSON
// and SteerSuite readers (private to the io library).
//
// Outline: one pass records where each line starts; a byte offset's line is then found by binary
// search over those starts, so naming the place of every body of a large file stays O(n log n)
// instead of rescanning the text from its beginning for each one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collide2d/io/scene.hpp"

namespace collide2d::io::detail {

/// The start of every line of a text, for turning byte offsets into 1-based line and column.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) : size_(text.size()) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') line_starts_.push_back(i + 1);
    }
  }

  /// 1-based line and column (in bytes) of a byte offset; offsets past the end count as the end.
  std::pair<int, int> line_and_column(std::size_t offset) const {
    offset = std::min(offset, size_);
    const auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const std::size_t line = static_cast<std::size_t>(after - line_starts_.begin());  // >= 1: line_starts_[0] == 0
    return {static_cast<int>(line), static_cast<int>(offset - line_starts_[line - 1]) + 1};
  }

  /// A LoadError at a byte offset: "FILE:LINE:COL: message".
  LoadError error_at(std::string_view file, std::size_t offset, const std::string& message) const {
    const auto [line, column] = line_and_column(offset);
    return {std::string(file), line, column, std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message};
  }

 private:
  std::vector<std::size_t> line_starts_;
  std::size_t size_;
};

}  // namespace collide2d::io::detail

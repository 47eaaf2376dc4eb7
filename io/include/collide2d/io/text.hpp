// collide2d/io/text.hpp — wording shared by the command's messages and the pictures' titles.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace collide2d::io {

/// A count with its noun in the right number: "1 pair", "2 pairs", "0 pairs" (`plural` names
/// irregular forms such as "bodies" and "vertices").
std::string count_of(std::size_t count, std::string_view singular, std::string_view plural);

}  // namespace collide2d::io

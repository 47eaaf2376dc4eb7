// text.cpp — wording shared by the command's messages and the pictures' titles.
#include "collide2d/io/text.hpp"

namespace collide2d::io {

std::string count_of(std::size_t count, std::string_view singular, std::string_view plural) {
  return std::to_string(count) + " " + std::string(count == 1 ? singular : plural);
}

}  // namespace collide2d::io

// hull.cpp — convex hull of a point cloud, by Andrew's monotone chain (detail/monotone_chain.hpp).
#include "collide2d/hull.hpp"

#include "collide2d/detail/monotone_chain.hpp"

namespace collide2d {

std::vector<Vec2> convex_hull(std::span<const Vec2> points) {
  std::vector<Vec2> finite;
  finite.reserve(points.size());
  for (Vec2 point : points) {
    if (is_finite(point)) finite.push_back(point);
  }
  std::vector<Vec2> hull(finite.size() + 1);
  const int size = detail::monotone_chain(finite.data(), static_cast<int>(finite.size()), hull.data(),
                                          [](Vec2 point) { return point; });
  hull.resize(static_cast<std::size_t>(size));
  return hull;
}

}  // namespace collide2d

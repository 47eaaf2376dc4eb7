// collide2d/hull.hpp — convex hulls of point clouds.
#pragma once

#include <span>
#include <vector>

#include "collide2d/math.hpp"

namespace collide2d {

/// The convex hull of a point cloud, counter-clockwise, with duplicate and collinear points
/// removed (Andrew's monotone chain). Fewer than 3 points come back when the cloud is a single
/// point or lies on a line; NaN and infinite points are skipped. Pass the result to make_polygon
/// to get a Polygon with its reasons for refusal.
std::vector<Vec2> convex_hull(std::span<const Vec2> points);

}  // namespace collide2d

// compound_internal.hpp (private) — walking a compound's child tree, and point queries on one child.
#pragma once

#include "collide2d/point_query.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d::detail {

/// Calls visit(child) for every child whose box overlaps `region` (compound frame; touching
/// counts) until visit returns false. `box_test(box)` may replace the overlap test (for rays).
template <class BoxTest, class Visit>
void for_each_child_where(const Compound& compound, BoxTest box_test, Visit visit) {
  const auto tree = compound.tree();
  if (tree.empty()) return;
  int stack[64];  // the tree is balanced: depth <= log2(children) + 1
  int size = 0;
  stack[size++] = 0;
  while (size > 0) {
    const CompoundTreeNode& node = tree[stack[--size]];
    if (!box_test(node.box)) continue;
    if (node.second < 0) {
      if (!visit(node.first)) return;
      continue;
    }
    stack[size++] = node.second;
    stack[size++] = node.first;
  }
}

/// The nearest surface point of one child to `point`, both in the compound's frame.
inline PointProjection closest_point_on_child(const CompoundChild& child, Vec2 point) {
  return std::visit([&](const auto& shape) { return closest_point(shape, child.transform, point); }, child.shape);
}

template <class Visit>
void for_each_child_overlapping(const Compound& compound, const Aabb& region, Visit visit) {
  for_each_child_where(compound, [&](const Aabb& box) { return box.overlaps(region); }, visit);
}

}  // namespace collide2d::detail

// compound.cpp — building compounds: checking the children, finding the seams, and the
// bounding-volume tree over the children.
//
// Seams: an edge of a polygon child is a seam when a point just outside its midpoint (a few
// tolerances along its outward normal) lies inside or on another child. Edges two pieces of a cut
// outline share, and the touching sides of terrain pieces laid edge to edge, are seams.
//
// Tree: built top down, once (the children never move inside a compound). Each node's children
// are sorted by box centre along the longer side of the node's box and split at the median, so
// the tree is balanced, with 2n - 1 nodes for n children.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "collide2d/point_query.hpp"
#include "collide2d/shapes.hpp"
#include "compound_internal.hpp"

namespace collide2d {
namespace {

/// Builds the subtree over children[first, last) into `tree`; returns its node index.
int build_tree(std::vector<CompoundTreeNode>& tree, std::span<const Aabb> boxes, std::vector<int>& order, std::size_t first,
               std::size_t last) {
  const int node = static_cast<int>(tree.size());
  tree.push_back({});
  Aabb box = boxes[order[first]];
  for (std::size_t i = first + 1; i < last; ++i) box = box.merged(boxes[order[i]]);
  tree[node].box = box;
  if (last - first == 1) {
    tree[node].first = order[first];
    return node;
  }
  const Vec2 extent = box.upper - box.lower;
  const bool along_x = extent.x >= extent.y;
  const std::size_t middle = first + (last - first) / 2;
  std::nth_element(order.begin() + static_cast<std::ptrdiff_t>(first), order.begin() + static_cast<std::ptrdiff_t>(middle),
                   order.begin() + static_cast<std::ptrdiff_t>(last), [&](int p, int q) {
                     const Vec2 cp = boxes[p].center(), cq = boxes[q].center();
                     return along_x ? cp.x < cq.x : cp.y < cq.y;
                   });
  const int first_subtree = build_tree(tree, boxes, order, first, middle);
  const int second_subtree = build_tree(tree, boxes, order, middle, last);
  tree[node].first = first_subtree;
  tree[node].second = second_subtree;
  return node;
}

}  // namespace

bool Compound::is_internal_edge(int child, int edge) const {
  if (child < 0 || child >= static_cast<int>(children_.size()) || first_edge_flag_[child] < 0) return false;
  return internal_edges_[first_edge_flag_[child] + edge];
}

std::vector<int> Compound::children_overlapping(const Aabb& region) const {
  std::vector<int> found;
  detail::for_each_child_overlapping(*this, region, [&](int child) {
    found.push_back(child);
    return true;
  });
  std::sort(found.begin(), found.end());
  return found;
}

Result<Compound> make_compound(std::vector<CompoundChild> children) {
  if (children.empty()) return ShapeError{ShapeErrorKind::empty, -1, "a compound needs at least one child"};
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Transform& placement = children[i].transform;
    if (!is_finite(placement.position) || !std::isfinite(placement.rotation.cosine) || !std::isfinite(placement.rotation.sine)) {
      return ShapeError{ShapeErrorKind::non_finite, static_cast<int>(i), "compound child " + std::to_string(i) + " has a transform that is not finite"};
    }
  }
  Compound compound;
  compound.children_ = std::move(children);
  const std::size_t count = compound.children_.size();
  for (const CompoundChild& child : compound.children_) {
    compound.child_boxes_.push_back(compute_aabb(child.shape, child.transform));
    compound.reach_ = std::max(compound.reach_, length(child.transform.position) + size_scale(child.shape));
  }
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  compound.tree_.reserve(2 * count - 1);
  build_tree(compound.tree_, compound.child_boxes_, order, 0, count);

  // Seams.
  const Real probe_distance = 32 * relative_tolerance * compound.reach_;
  compound.first_edge_flag_.assign(count, -1);
  for (std::size_t i = 0; i < count; ++i) {
    const Polygon* polygon = std::get_if<Polygon>(&compound.children_[i].shape);
    if (polygon == nullptr) continue;
    compound.first_edge_flag_[i] = static_cast<int>(compound.internal_edges_.size());
    const Transform& placement = compound.children_[i].transform;
    for (int edge = 0; edge < polygon->count(); ++edge) {
      const Vec2 midpoint = Real(0.5) * (polygon->vertices()[edge] + polygon->vertices()[(edge + 1) % polygon->count()]);
      const Vec2 outward = rotate(placement.rotation, polygon->normals()[edge]);
      const Vec2 probe = transform_point(placement, midpoint) + (polygon->radius() + probe_distance) * outward;
      bool covered = false;
      detail::for_each_child_overlapping(compound, Aabb{probe, probe}, [&](int other) {
        if (other != static_cast<int>(i)) {
          const CompoundChild& neighbour = compound.children_[other];
          covered = std::visit([&](const auto& shape) { return closest_point(shape, neighbour.transform, probe); }, neighbour.shape)
                        .signed_distance <= 0;
        }
        return !covered;
      });
      compound.internal_edges_.push_back(covered);
    }
  }
  return compound;
}

Aabb compute_aabb(const Compound& shape, const Transform& transform) {
  const auto children = shape.children();
  if (children.empty()) return {transform.position, transform.position};  // a default-constructed compound
  Aabb box = compute_aabb(children[0].shape, compose(transform, children[0].transform));
  for (std::size_t i = 1; i < children.size(); ++i) box = box.merged(compute_aabb(children[i].shape, compose(transform, children[i].transform)));
  return box;
}

Real size_scale(const Compound& shape) { return shape.reach(); }

}  // namespace collide2d

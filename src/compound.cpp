// compound.cpp — building compounds: checking the children, finding the seams, and the
// bounding-volume tree over the children.
//
// Seams: an edge of a polygon child is a seam when the whole of it, moved a few tolerances out
// along its normal, lies inside or on other children. Each polygon neighbour covers one stretch
// of it (the moved edge clipped to the neighbour's half-planes, pushed out by the same few
// tolerances: Cyrus–Beck); circles, capsules
// and segments cover the samples of it they contain; the stretches must join up to the whole edge.
// Edges two pieces of a cut outline share, and the touching sides of terrain pieces laid edge to
// edge, are seams; an edge only partly under a neighbour (a T-junction, where the cuts of a
// decomposition end on a piece's side) stays outline.
//
// Tree: built top down, once (the children never move inside a compound). Each node's children
// are sorted by box centre along the longer side of the node's box and split at the median, so
// the tree is balanced, with 2n - 1 nodes for n children.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include "collide2d/shapes.hpp"
#include "collide2d/tolerance.hpp"
#include "compound_internal.hpp"

namespace collide2d {
namespace {

/// The stretch [first, last] of the segment from `from` to `to` (parameters in [0, 1]) inside
/// the convex polygon (its core pushed out by `widening`) placed by `placement`; empty when none.
std::optional<std::pair<Real, Real>> stretch_inside(const Polygon& polygon, const Transform& placement, Vec2 from, Vec2 to, Real widening) {
  const Vec2 start = inverse_transform_point(placement, from), direction = inverse_rotate(placement.rotation, to - from);
  Real first = 0, last = 1;
  for (int i = 0; i < polygon.count(); ++i) {
    // Inside edge i's half-plane while dot(n, v - start) + widening - t dot(n, direction) >= 0.
    const Real offset = dot(polygon.normals()[i], polygon.vertices()[i] - start) + widening;
    const Real approach = dot(polygon.normals()[i], direction);
    if (approach == 0) {
      if (offset < 0) return std::nullopt;
      continue;
    }
    const Real crossing = offset / approach;
    if (approach < 0) first = std::max(first, crossing);
    if (approach > 0) last = std::min(last, crossing);
    if (last < first) return std::nullopt;
  }
  return std::pair{first, last};
}

/// True when the stretches cover all of [0, 1], gaps up to `slack` allowed.
bool covers_whole(std::vector<std::pair<Real, Real>> stretches, Real slack) {
  std::sort(stretches.begin(), stretches.end());
  Real reached = 0;
  for (const auto& [first, last] : stretches) {
    if (first > reached + slack) return false;
    reached = std::max(reached, last);
  }
  return reached >= 1 - slack;
}

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
    if (!within_coordinate_limit(placement.position)) {
      return ShapeError{ShapeErrorKind::out_of_range, static_cast<int>(i),
                        "compound child " + std::to_string(i) + " is placed beyond " + coordinate_limit_text()};
    }
    if (std::optional<ShapeError> problem = validate(children[i].shape)) {
      return ShapeError{problem->kind, static_cast<int>(i), "compound child " + std::to_string(i) + ": " + problem->message};
    }
  }
  Compound compound;
  compound.children_ = std::move(children);
  const std::size_t count = compound.children_.size();
  for (const CompoundChild& child : compound.children_) {
    compound.child_boxes_.push_back(compute_aabb(child.shape, child.transform));
    compound.reach_ = std::max(compound.reach_, length(child.transform.position) + size_scale(child.shape));
    if (child.transform != Transform{}) compound.child_frame_reach_ = std::max(compound.child_frame_reach_, size_scale(child.shape));
  }
  std::vector<int> order(count);
  std::iota(order.begin(), order.end(), 0);
  compound.tree_.reserve(2 * count - 1);
  build_tree(compound.tree_, compound.child_boxes_, order, 0, count);

  // Seams.
  compound.first_edge_flag_.assign(count, -1);
  for (std::size_t i = 0; i < count; ++i) {
    const Polygon* polygon = std::get_if<Polygon>(&compound.children_[i].shape);
    if (polygon == nullptr) continue;
    compound.first_edge_flag_[i] = static_cast<int>(compound.internal_edges_.size());
    const Transform& placement = compound.children_[i].transform;
    for (int edge = 0; edge < polygon->count(); ++edge) {
      // A few touching bands of the edge's own coordinates (compound frame).
      const Vec2 start = transform_point(placement, polygon->vertices()[edge]);
      const Vec2 end = transform_point(placement, polygon->vertices()[(edge + 1) % polygon->count()]);
      const Real probe_distance = 4 * contact_tolerance(std::max(coordinate_magnitude(start), coordinate_magnitude(end)) + polygon->radius());
      const Vec2 outward = rotate(placement.rotation, polygon->normals()[edge]);
      const Vec2 push = (polygon->radius() + probe_distance) * outward;
      const Vec2 from = start + push;
      const Vec2 to = end + push;
      std::vector<std::pair<Real, Real>> stretches;
      detail::for_each_child_overlapping(compound, Aabb{min(from, to), max(from, to)}, [&](int other) {
        if (other == static_cast<int>(i)) return true;
        const CompoundChild& neighbour = compound.children_[other];
        if (const Polygon* neighbour_polygon = std::get_if<Polygon>(&neighbour.shape)) {
          // Only a neighbour reaching the moved edge's line covers it. One lying on the edge's
          // inner side (a sliver thinner than the widening below lies on two pieces: their faces
          // under it are its seams) would otherwise cover it through the widening alone, and the
          // outline would lose both the sliver's outer face and the faces under it.
          const Vec2 farthest = transform_point(neighbour.transform, neighbour_polygon->support(inverse_rotate(neighbour.transform.rotation, outward)));
          if (dot(outward, farthest - start) + neighbour_polygon->radius() < probe_distance) return true;
          // The neighbour is widened by twice the probe distance. A moved end lies the probe
          // distance from the edge's vertex, so it is within that distance of every line through
          // the vertex: widened by the probe distance alone, the end sits on the widened line of
          // a neighbour's sharp corner there (a sliver's tip), and round-off decides; by twice
          // it, the end lies a whole probe distance inside.
          if (const auto stretch =
                  stretch_inside(*neighbour_polygon, neighbour.transform, from, to, neighbour_polygon->radius() + 2 * probe_distance)) {
            stretches.push_back(*stretch);
          }
          return true;
        }
        constexpr int samples = 32;  // rounded neighbours: the samples they hold, each standing for its share
        for (int k = 0; k <= samples; ++k) {
          const Real t = Real(k) / samples;
          const Vec2 probe = lerp(from, to, t);
          const bool inside = detail::closest_point_on_child(neighbour, probe).signed_distance <= 0;
          if (inside) stretches.emplace_back(std::max(Real(0), t - Real(0.5) / samples), std::min(Real(1), t + Real(0.5) / samples));
        }
        return true;
      });
      compound.internal_edges_.push_back(covers_whole(std::move(stretches), probe_distance / std::max(length(to - from), probe_distance)));
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

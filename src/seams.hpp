// seams.hpp (private) — keeping a compound's contacts off its seams (the edges between its pieces).
#pragma once

#include <cstddef>
#include <vector>

#include "collide2d/manifold.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d::detail {

/// Corrects the child manifolds manifolds[first, end) of one compound side so that none pushes
/// along a seam (src/seams.cpp states the rule). `transform` places the compound and
/// `other_transform` the shape on the far side, both in the frame the manifolds are expressed in;
/// `compound_is_a` tells which side of the manifolds the compound is on. Dropped manifolds are
/// left with no points; the caller removes them.
void resolve_seams(const Compound& compound, const Transform& transform, bool compound_is_a, const Shape& other,
                   const Transform& other_transform, std::vector<ChildManifold>& manifolds, std::size_t first,
                   const CollideOptions& options);

/// How a compound's outline meets a contact at a point q of its surface, for casts (whose hits
/// and touching starts are found piece by piece, where a piece's seam looks like surface).
struct OutlineContact {
  bool on_seam = false;  ///< q lies on a seam (within the contact tolerance): the outline, not q's piece, decides
  /// The outward unit normal (compound frame) nearest the one asked for that the outline allows at
  /// q: it itself when allowed, else an outside face's through q (at a corner, the normals between
  /// its two faces'; at a reflex corner, either face's). Unchanged off the seams or when no outside
  /// face passes through q.
  Vec2 normal;
  /// Moving from q along the direction given enters the outline (a piece, or a seam between two):
  /// the direction is not outward or along an outside face through q. On a seam only.
  bool enters = false;
  /// When it enters: the outward normal of an outside face through q that the direction closes on,
  /// the least opposed one (the surface a cast-and-slide should slide along); minus the direction
  /// when q lies under a seam, on no outside face.
  Vec2 blocking_normal;
};

/// One side's surface point at a manifold point (the manifold's frame): the point midway between
/// the surfaces moved half the separation back along the normal for A's surface (`on_a`), along
/// it for B's.
inline Vec2 surface_point(const Manifold& manifold, const ManifoldPoint& point, bool on_a) {
  const Real half_gap = Real(0.5) * point.separation;
  return on_a ? point.point - half_gap * manifold.normal : point.point + half_gap * manifold.normal;
}

/// The outline's verdict at q (compound frame) on the outward normal `wanted` and, when
/// `direction` (unit, compound frame) is not zero, on moving from q along it (src/seams.cpp).
/// `vertex_reach` (length units) is how far q may lie from the contact it stands for: a piece's
/// vertex that close counts as at q, so the normals of its corner are allowed.
OutlineContact outline_contact(const Compound& compound, Vec2 q, Vec2 wanted, Vec2 direction, Real vertex_reach);

/// True when the point `surface` of child `owner`'s surface (compound frame) is covered by
/// another child: one flush against it there (touching `surface` within `depth`, its own surface
/// facing straight back along `outward`) that holds a probe `step` out along `outward` more than
/// `depth` inside. Across a notch narrower than the band a probe lands in a piece that is not
/// flush. A face only partly under a neighbour is not a seam, and this tells its covered stretch.
/// [face_from, face_to] is the owner's face through `surface` (both `surface` when unknown, and
/// then the facing face's whole length counts): a polygon whose facing face rises off it over
/// their common stretch by more than the probe's margin (`step - depth`) diverges from it, as a
/// notch's sides do, and covers nothing however narrow the gap at `surface`.
bool covered_by_another_child(const Compound& compound, Vec2 surface, Vec2 outward, Vec2 face_from, Vec2 face_to, int owner, Real step,
                              Real depth);

}  // namespace collide2d::detail

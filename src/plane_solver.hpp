// plane_solver.hpp (private) — the shortest translation that satisfies a set of contact planes.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "collide2d/math.hpp"

namespace collide2d::detail {

/// A constraint on a translation t of shape B: dot(normal, t) >= offset (normal unit, A->B; the
/// offset is the depth still to clear along the normal, negative when there is room to spare).
struct ContactPlane {
  Vec2 normal;
  Real offset = 0;
  Real tolerance = 0;  ///< this plane's own touching band (length units): it holds within the larger of this and the solver's
};

/// The translations where one or two planes are tight: the projection offset * normal onto each
/// plane with a positive offset, and the corner of each pair of planes that are not parallel, in
/// no particular order (keep_shortest orders them). The shortest t satisfying every plane, when
/// there is one, is among them; a plane from a face that B can slide past need not hold, so
/// callers test each candidate.
std::vector<Vec2> candidate_translations(std::span<const ContactPlane> planes);

/// Orders `candidates` shortest first (equal lengths by x, then y, so the order never depends on
/// the sort) and keeps the first `count`: callers try only a few of the O(K^2) corners, and a
/// partial sort of them all costs less than a full one.
void keep_shortest(std::vector<Vec2>& candidates, std::size_t count);

/// The shortest t with dot(plane.normal, t) >= plane.offset - max(tolerance, plane.tolerance) for
/// every plane, or nothing when no translation satisfies them all (opposed planes that squeeze B).
std::optional<Vec2> shortest_translation(std::span<const ContactPlane> planes, Real tolerance);

}  // namespace collide2d::detail

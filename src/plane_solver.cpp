// plane_solver.cpp — the shortest translation satisfying contact planes.
//
// Outline: minimise |t|^2 subject to dot(n_k, t) >= d_k, a convex quadratic programme in two
// unknowns. Its minimum is where the fewest constraints are tight, so it is one of: t = 0 (every
// d_k <= 0), the projection d_k n_k onto a single plane, or the corner where two planes cross.
// Candidates are listed shortest first; the first that satisfies every plane is the minimum.
// O(K^3) for K planes, which stays small (the contacts of one pair). Box2D v3's b2SolvePlanes answers the same
// question iteratively for its character mover; the enumeration here is exact.
#include "plane_solver.hpp"

#include <algorithm>
#include <cmath>

#include "collide2d/tolerance.hpp"

namespace collide2d::detail {

std::vector<Vec2> candidate_translations(std::span<const ContactPlane> planes) {
  std::vector<Vec2> candidates;
  for (const ContactPlane& plane : planes) {
    if (plane.offset > 0) candidates.push_back(plane.offset * plane.normal);
  }
  for (std::size_t j = 0; j < planes.size(); ++j) {
    for (std::size_t k = j + 1; k < planes.size(); ++k) {
      const Real determinant = cross(planes[j].normal, planes[k].normal);
      if (std::abs(determinant) <= direction_tolerance) continue;  // parallel planes have no corner
      // Cramer's rule for dot(n_j, t) = d_j, dot(n_k, t) = d_k.
      candidates.push_back((Real(1) / determinant) *
                           (planes[j].offset * right_perpendicular(planes[k].normal) - planes[k].offset * right_perpendicular(planes[j].normal)));
    }
  }
  return candidates;
}

void keep_shortest(std::vector<Vec2>& candidates, std::size_t count) {
  const auto shorter = [](Vec2 p, Vec2 q) {
    const Real p_squared = length_squared(p), q_squared = length_squared(q);
    return p_squared < q_squared || (p_squared == q_squared && (p.x < q.x || (p.x == q.x && p.y < q.y)));
  };
  if (count < candidates.size()) {
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count), candidates.end(), shorter);
    candidates.resize(count);
  } else {
    std::sort(candidates.begin(), candidates.end(), shorter);
  }
}

std::optional<Vec2> shortest_translation(std::span<const ContactPlane> planes, Real tolerance) {
  auto satisfies_all = [&](Vec2 candidate) {
    return std::all_of(planes.begin(), planes.end(),
                       [&](const ContactPlane& plane) { return dot(plane.normal, candidate) >= plane.offset - std::max(tolerance, plane.tolerance); });
  };
  if (satisfies_all(Vec2{})) return Vec2{};
  std::vector<Vec2> candidates = candidate_translations(planes);
  keep_shortest(candidates, candidates.size());
  for (const Vec2 candidate : candidates) {
    if (satisfies_all(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace collide2d::detail

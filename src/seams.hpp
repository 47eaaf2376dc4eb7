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

}  // namespace collide2d::detail

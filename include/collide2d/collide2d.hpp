// collide2d/collide2d.hpp — the umbrella header: everything the core library offers.
#pragma once

#include "collide2d/algorithms.hpp"
#include "collide2d/broad_phase.hpp"
#include "collide2d/decompose.hpp"
#include "collide2d/distance.hpp"
#include "collide2d/hull.hpp"
#include "collide2d/manifold.hpp"
#include "collide2d/math.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/point_query.hpp"
#include "collide2d/raycast.hpp"
#include "collide2d/shape_cast.hpp"
#include "collide2d/result.hpp"
#include "collide2d/shapes.hpp"
#include "collide2d/support.hpp"
#include "collide2d/world.hpp"

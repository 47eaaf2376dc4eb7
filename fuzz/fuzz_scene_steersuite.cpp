// fuzz_scene_steersuite.cpp — the SteerSuite XML reader on arbitrary bytes: a scene of valid bodies,
// or an error "FILE:LINE:COL: ..." with a place inside the text.
#include <string>
#include <string_view>

#include "collide2d/io/scene.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collide2d;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto scene = io::parse_steersuite_scene(text, "fuzz.xml");
  if (!scene) {
    fuzz::check(scene.error().line >= 1 && scene.error().column >= 1, "an error names a line and a column");
    fuzz::check(scene.error().message.rfind("fuzz.xml:" + std::to_string(scene.error().line) + ":", 0) == 0, "the message starts FILE:LINE:");
    return 0;
  }
  for (const io::Body& body : scene.value().bodies) fuzz::check(!validate(body.shape, body.transform), "every body read is valid");
  return 0;
}

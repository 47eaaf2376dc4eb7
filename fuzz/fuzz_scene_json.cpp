// fuzz_scene_json.cpp — the JSON scene reader on arbitrary bytes: it either returns a scene whose
// bodies all pass validate(), or an error "FILE:LINE:COL: ..." whose place lies inside the text.
#include <string>
#include <string_view>

#include "collide2d/io/scene.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collide2d;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto scene = io::parse_json_scene(text, "fuzz.json");
  if (!scene) {
    fuzz::check(scene.error().line >= 1 && scene.error().column >= 1, "an error names a line and a column");
    fuzz::check(scene.error().message.rfind("fuzz.json:" + std::to_string(scene.error().line) + ":", 0) == 0, "the message starts FILE:LINE:");
    return 0;
  }
  for (const io::Body& body : scene.value().bodies) fuzz::check(!validate(body.shape, body.transform), "every body read is valid");
  return 0;
}

# Fails when the README's block <!-- BLOCK begin --> ... <!-- BLOCK end --> and examples/EXAMPLE differ.
# Usage: cmake -DSOURCE_DIR=... -DBLOCK=quick-start -DEXAMPLE=quick_start.cpp -P readme_example_matches.cmake
file(READ ${SOURCE_DIR}/README.md readme)
file(READ ${SOURCE_DIR}/examples/${EXAMPLE} example)
string(REGEX MATCH "<!-- ${BLOCK} begin -->\n```cpp\n(.*)\n```\n<!-- ${BLOCK} end -->" found "${readme}")
if(NOT found)
  message(FATAL_ERROR "README.md has no ${BLOCK} block")
endif()
string(STRIP "${CMAKE_MATCH_1}" from_readme)
string(STRIP "${example}" from_file)
if(NOT from_readme STREQUAL from_file)
  message(FATAL_ERROR "README.md ${BLOCK} block differs from examples/${EXAMPLE}")
endif()

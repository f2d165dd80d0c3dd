# SPDX-License-Identifier: Apache-2.0
# CTest check: the README's example is, line for line, tests/docs/readme_example.cpp (which CTest
# builds and runs), so the code a newcomer copies first compiles and works.
# Inputs: SOURCE_DIR (the project root).
file(READ ${SOURCE_DIR}/README.md readme)
file(READ ${SOURCE_DIR}/tests/docs/readme_example.cpp example)
string(FIND "${readme}" "```cpp\n${example}```" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md has no ```cpp block equal to tests/docs/readme_example.cpp: copy "
                      "the file into the README's Example section (or the change back into the file)")
endif()
message(STATUS "README.md's example equals tests/docs/readme_example.cpp")

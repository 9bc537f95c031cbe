# The API reference: `ninja mote_docs` runs Doxygen (Debian's doxygen) over the public headers and
# docs/getting_started.md, its main page, into <build>/docs/api/html (open index.html). The target
# exists only where Doxygen is installed and is not part of the default build.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(DOXYGEN_PROJECT_NAME "Mote")
  set(DOXYGEN_PROJECT_NUMBER "${PROJECT_VERSION}")
  set(DOXYGEN_PROJECT_BRIEF "${PROJECT_DESCRIPTION}")
  set(DOXYGEN_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/docs/api")
  set(DOXYGEN_USE_MDFILE_AS_MAINPAGE "${PROJECT_SOURCE_DIR}/docs/getting_started.md")
  set(DOXYGEN_STRIP_FROM_PATH "${PROJECT_SOURCE_DIR}/include")
  set(DOXYGEN_STRIP_FROM_INC_PATH "${PROJECT_SOURCE_DIR}/include")
  set(DOXYGEN_FILE_PATTERNS "*.hpp")
  set(DOXYGEN_INCLUDE_PATH "${PROJECT_SOURCE_DIR}/include")
  set(DOXYGEN_EXTRACT_ALL YES)
  set(DOXYGEN_EXCLUDE_SYMBOLS "detail" "*::detail::*")
  # The headers' comments are plain `//` prose above each declaration: read them as documentation.
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(DOXYGEN_INPUT_FILTER "${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/doxygen_comments.py")
  set(DOXYGEN_FILTER_SOURCE_FILES YES)
  set(DOXYGEN_JAVADOC_AUTOBRIEF YES)
  set(DOXYGEN_GENERATE_LATEX NO)
  set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
  set(DOXYGEN_QUIET YES)
  set(DOXYGEN_WARN_AS_ERROR FAIL_ON_WARNINGS)  # a header Doxygen cannot read fails the build of the reference
  doxygen_add_docs(mote_docs "${PROJECT_SOURCE_DIR}/docs/getting_started.md" "${PROJECT_SOURCE_DIR}/include/mote"
                   COMMENT "Doxygen: the API reference into ${PROJECT_BINARY_DIR}/docs/api/html")
endif()

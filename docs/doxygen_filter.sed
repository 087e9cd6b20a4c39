# Doxygen reads only its own comment markers (///, /** */), and hxrt's public headers are
# commented with plain ones. Doxygen runs this filter on each header as it reads it
# (INPUT_FILTER in docs/CMakeLists.txt); the headers themselves are left as they are.
#
# The comment that opens a header documents the file.
1s|^// \(.*\)$|/// \\file\n/// \1|
1s|^/\*$|/** \\file|
# A comment on lines of its own documents what follows it. Banners (/* ====) stay plain.
s|^\([[:space:]]*\)//\([[:space:]]\)|\1///\2|
s|^\([[:space:]]*\)//$|\1///|
s|^\([[:space:]]*\)/\*\([[:space:]][^=]\)|\1/**\2|
# A comment after a member, a parameter or an enumerator documents that member.
s|\([;,]\)\([[:space:]]\{1,\}\)//[[:space:]]|\1\2///< |
s|\([;,]\)\([[:space:]]\{1,\}\)/\*[[:space:]]|\1\2/**< |

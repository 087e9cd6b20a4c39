# hxrt_compile_as_checking_code(<target>): compiles a target whose own speed does not matter
# (a test program, a tool that reports or checks, samples of the tests' own making) at -O1 in
# an optimised build: half the time of -O3, and CI builds the tree three times. What they
# call, the core and the plugins, keeps the build's level. -O1 keeps GCC's flow-based
# warnings (-Wmaybe-uninitialized and its kin), which -O0 turns off.
function(hxrt_compile_as_checking_code target)
  target_compile_options(${target} PRIVATE $<$<NOT:$<CONFIG:Debug>>:-O1>)
endfunction()

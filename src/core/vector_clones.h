/* KM_VECTOR_CLONES: compile a function for AVX-512, AVX2 and the x86-64 baseline, the variant chosen
 * once at load time (GCC's target_clones, through glibc's ifunc), so that its loops vectorise with the
 * widest instructions the processor has. Other compilers and systems get the one baseline function. */
#ifndef KM_CORE_VECTOR_CLONES_H
#define KM_CORE_VECTOR_CLONES_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define KM_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KM_VECTOR_CLONES
#endif

#endif

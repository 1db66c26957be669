#pragma once
// kopt analyzer stub of the x86 SIMD intrinsics headers (<xmmintrin.h>, <emmintrin.h>, <smmintrin.h>...): the vector
// types and the common SSE/SSE2/SSE4 operations, declared only. nvcc's device pass reads host headers with the host
// compiler's macros (`__x86_64__`), so a math library's SSE path is parsed there too: its host functions must
// type-check for the types and the device code around them to be kept.
typedef float __m128 __attribute__((__vector_size__(16), __aligned__(16)));
typedef double __m128d __attribute__((__vector_size__(16), __aligned__(16)));
typedef long long __m128i __attribute__((__vector_size__(16), __aligned__(16)));
typedef float __m256 __attribute__((__vector_size__(32), __aligned__(32)));
typedef double __m256d __attribute__((__vector_size__(32), __aligned__(32)));
typedef long long __m256i __attribute__((__vector_size__(32), __aligned__(32)));
#define _MM_SHUFFLE(z, y, x, w) (((z) << 6) | ((y) << 4) | ((x) << 2) | (w))
#define _MM_EXCEPT_MASK 0x003f
#define _MM_MASK_MASK 0x1f80
#define _MM_FLUSH_ZERO_ON 0x8000
#define _MM_DENORMALS_ZERO_ON 0x0040
#define _MM_FROUND_TO_NEAREST_INT 0x00
#define _MM_FROUND_TO_ZERO 0x03
#define _MM_FROUND_NO_EXC 0x08
#define __KOPT_SSE_PS2(op) __m128 _mm_##op##_ps(__m128, __m128); __m128 _mm_##op##_ss(__m128, __m128);
__KOPT_SSE_PS2(add) __KOPT_SSE_PS2(sub) __KOPT_SSE_PS2(mul) __KOPT_SSE_PS2(div) __KOPT_SSE_PS2(min)
__KOPT_SSE_PS2(max) __KOPT_SSE_PS2(cmpeq) __KOPT_SSE_PS2(cmpneq) __KOPT_SSE_PS2(cmplt) __KOPT_SSE_PS2(cmple)
__KOPT_SSE_PS2(cmpgt) __KOPT_SSE_PS2(cmpge)
#undef __KOPT_SSE_PS2
#define __KOPT_SSE_PS1(op) __m128 _mm_##op##_ps(__m128); __m128 _mm_##op##_ss(__m128);
__KOPT_SSE_PS1(sqrt) __KOPT_SSE_PS1(rcp) __KOPT_SSE_PS1(rsqrt)
#undef __KOPT_SSE_PS1
__m128 _mm_and_ps(__m128, __m128); __m128 _mm_andnot_ps(__m128, __m128); __m128 _mm_or_ps(__m128, __m128);
__m128 _mm_xor_ps(__m128, __m128); __m128 _mm_unpacklo_ps(__m128, __m128); __m128 _mm_unpackhi_ps(__m128, __m128);
__m128 _mm_movehl_ps(__m128, __m128); __m128 _mm_movelh_ps(__m128, __m128); __m128 _mm_move_ss(__m128, __m128);
__m128 _mm_hadd_ps(__m128, __m128); __m128 _mm_shuffle_ps(__m128, __m128, int); __m128 _mm_dp_ps(__m128, __m128, int);
__m128 _mm_round_ps(__m128, int); __m128 _mm_blendv_ps(__m128, __m128, __m128);
int _mm_comieq_ss(__m128, __m128); int _mm_comineq_ss(__m128, __m128); int _mm_comilt_ss(__m128, __m128);
int _mm_comile_ss(__m128, __m128); int _mm_comigt_ss(__m128, __m128); int _mm_comige_ss(__m128, __m128);
int _mm_movemask_ps(__m128); float _mm_cvtss_f32(__m128);
__m128 _mm_load_ps(const float*); __m128 _mm_loadu_ps(const float*); __m128 _mm_load1_ps(const float*);
__m128 _mm_load_ss(const float*); __m128 _mm_set_ps(float, float, float, float); __m128 _mm_set1_ps(float);
__m128 _mm_set_ss(float); __m128 _mm_setr_ps(float, float, float, float); __m128 _mm_setzero_ps();
void _mm_store_ps(float*, __m128); void _mm_storeu_ps(float*, __m128); void _mm_store_ss(float*, __m128);
unsigned _mm_getcsr(); void _mm_setcsr(unsigned);
__m128i _mm_castps_si128(__m128); __m128 _mm_castsi128_ps(__m128i); __m128i _mm_cvtps_epi32(__m128);
__m128i _mm_cvttps_epi32(__m128); __m128 _mm_cvtepi32_ps(__m128i);
#define __KOPT_SSE_SI2(op) __m128i _mm_##op(__m128i, __m128i);
__KOPT_SSE_SI2(and_si128) __KOPT_SSE_SI2(andnot_si128) __KOPT_SSE_SI2(or_si128) __KOPT_SSE_SI2(xor_si128)
__KOPT_SSE_SI2(add_epi32) __KOPT_SSE_SI2(sub_epi32) __KOPT_SSE_SI2(add_epi16) __KOPT_SSE_SI2(sub_epi16)
__KOPT_SSE_SI2(add_epi8) __KOPT_SSE_SI2(sub_epi8) __KOPT_SSE_SI2(add_epi64) __KOPT_SSE_SI2(sub_epi64)
__KOPT_SSE_SI2(mullo_epi32) __KOPT_SSE_SI2(mullo_epi16) __KOPT_SSE_SI2(cmpeq_epi32) __KOPT_SSE_SI2(cmpgt_epi32)
__KOPT_SSE_SI2(cmplt_epi32) __KOPT_SSE_SI2(cmpeq_epi16) __KOPT_SSE_SI2(cmpgt_epi16) __KOPT_SSE_SI2(cmpeq_epi8)
__KOPT_SSE_SI2(cmpgt_epi8) __KOPT_SSE_SI2(min_epi32) __KOPT_SSE_SI2(max_epi32) __KOPT_SSE_SI2(unpacklo_epi32)
__KOPT_SSE_SI2(unpackhi_epi32) __KOPT_SSE_SI2(sll_epi32) __KOPT_SSE_SI2(srl_epi32) __KOPT_SSE_SI2(sra_epi32)
#undef __KOPT_SSE_SI2
__m128i _mm_slli_epi32(__m128i, int); __m128i _mm_srli_epi32(__m128i, int); __m128i _mm_srai_epi32(__m128i, int);
__m128i _mm_slli_si128(__m128i, int); __m128i _mm_srli_si128(__m128i, int); __m128i _mm_shuffle_epi32(__m128i, int);
__m128i _mm_set_epi32(int, int, int, int); __m128i _mm_setr_epi32(int, int, int, int); __m128i _mm_set1_epi32(int);
__m128i _mm_set1_epi16(short); __m128i _mm_set1_epi8(char); __m128i _mm_setzero_si128();
__m128i _mm_load_si128(const __m128i*); __m128i _mm_loadu_si128(const __m128i*);
void _mm_store_si128(__m128i*, __m128i); void _mm_storeu_si128(__m128i*, __m128i);
int _mm_movemask_epi8(__m128i); int _mm_cvtsi128_si32(__m128i); __m128i _mm_cvtsi32_si128(int);
int _mm_extract_epi32(__m128i, int); __m128i _mm_insert_epi32(__m128i, int, int);
void _mm_prefetch(const char*, int); void _mm_sfence(); void _mm_lfence(); void _mm_mfence(); void _mm_pause();
#define _MM_HINT_T0 1

#pragma once
// Host-only stand-in so that CuTe's headers compile with g++ (tools/cute-vectors).
struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat16 { unsigned short x; __nv_bfloat16() = default; __nv_bfloat16(__nv_bfloat16_raw r) : x(r.x) {} operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{x}; } };
typedef __nv_bfloat16 nv_bfloat16;
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
inline float __bfloat162float(__nv_bfloat16) { return 0.f; }
inline __nv_bfloat16 __float2bfloat16_rn(float) { return __nv_bfloat16{}; }

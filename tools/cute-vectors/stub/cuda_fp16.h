#pragma once
// Host-only stand-in so that CuTe's headers compile with g++ (tools/cute-vectors).
struct __half_raw { unsigned short x; };
struct __half { unsigned short x; __half() = default; __half(__half_raw r) : x(r.x) {} operator __half_raw() const { return __half_raw{x}; } };
typedef __half half;
struct __half2 { __half x, y; };
typedef __half2 half2;
inline float __half2float(__half) { return 0.f; }
inline __half __float2half(float) { return __half{}; }
inline __half __float2half_rn(float) { return __half{}; }

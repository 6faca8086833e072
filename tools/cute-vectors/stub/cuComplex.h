#pragma once
// Host-only stand-in so that CuTe's headers compile with g++ (tools/cute-vectors).
struct float2 { float x, y; };
struct double2 { double x, y; };
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
inline float cuCrealf(cuFloatComplex z) { return z.x; }
inline float cuCimagf(cuFloatComplex z) { return z.y; }
inline double cuCreal(cuDoubleComplex z) { return z.x; }
inline double cuCimag(cuDoubleComplex z) { return z.y; }
inline cuFloatComplex make_cuFloatComplex(float a, float b) { return {a,b}; }
inline cuDoubleComplex make_cuDoubleComplex(double a, double b) { return {a,b}; }

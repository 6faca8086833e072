#pragma once
// Host-only stand-in so that CuTe's headers compile with g++ (tools/cute-vectors).
struct dim3 { unsigned int x = 1, y = 1, z = 1; dim3(unsigned a=1, unsigned b=1, unsigned c=1) : x(a), y(b), z(c) {} };
struct uint3 { unsigned int x, y, z; };

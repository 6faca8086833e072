#pragma once
// Host-only stand-in so that CuTe's headers compile with g++ (tools/cute-vectors).
